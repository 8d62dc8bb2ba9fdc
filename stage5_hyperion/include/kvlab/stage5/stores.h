// Stage 5 of kvlab: Hyperion.
//
//   hyperion  the Hyperion container trie over the stage-5 memory manager
//             (docs/stage5_hyperion.md); options inline_value (0..255,
//             default 255: longest value stored in the node) and embed
//             (16..255, default 144: ejection budget of embedded
//             containers). Not thread-safe; MakeThreadSafe wraps it.

#ifndef KVLAB_STAGE5_STORES_H_
#define KVLAB_STAGE5_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `hyperion` to `registry`.
void RegisterStage5Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE5_STORES_H_
