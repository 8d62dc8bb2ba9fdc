// The arena store with partition=balanced (kvlab/stage5/arena_store.h
// states the contract; docs/stage5_hyperion.md, "Skew", the design).

#ifndef KVLAB_STAGE5_ARENAS_SRC_BALANCED_ARENA_STORE_H_
#define KVLAB_STAGE5_ARENAS_SRC_BALANCED_ARENA_STORE_H_

#include <memory>

#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"

namespace kvlab::stage5 {

// A new, empty store of arena_options.arenas arenas over contiguous key
// ranges (arena_options.partition is not read).
std::unique_ptr<HyperionArenaStore> NewBalancedArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_BALANCED_ARENA_STORE_H_
