// The arena store with partition=byte (kvlab/stage5/arena_store.h states
// the contract): key byte b belongs to arena b mod N, the empty key to
// arena 0.

#ifndef KVLAB_STAGE5_ARENAS_SRC_BYTE_ARENA_STORE_H_
#define KVLAB_STAGE5_ARENAS_SRC_BYTE_ARENA_STORE_H_

#include <memory>

#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"

namespace kvlab::stage5 {

// A new, empty store of arena_options.arenas arenas by first key byte
// (arena_options.partition is not read).
std::unique_ptr<HyperionArenaStore> NewByteArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_BYTE_ARENA_STORE_H_
