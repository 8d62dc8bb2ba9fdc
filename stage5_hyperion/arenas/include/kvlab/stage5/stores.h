// Stage 5 of kvlab: Hyperion.
//
//   hyperion  the Hyperion container trie over the stage-5 memory manager
//             (docs/stage5_hyperion.md); options inline_value, embed,
//             eject_above, jump_successor, jump_table, jump_table_min,
//             compact, preprocess and more (`kvbench --list` prints each
//             with its range and default).
//             Not thread-safe; MakeThreadSafe wraps it. With option
//             arenas=N (and lock=spin|rw|mutex|leftright) it is split into N
//             arenas by first key byte and thread-safe itself
//             (kvlab/stage5/arena_store.h).

#ifndef KVLAB_STAGE5_STORES_H_
#define KVLAB_STAGE5_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `hyperion` to `registry`.
void RegisterStage5Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE5_STORES_H_
