// Stage 4's second room: the Wormhole index.
//
//   wormhole  WormholeStore (wormhole_store.h); option leaf.

#ifndef KVLAB_STAGE4_WORMHOLE_STORES_H_
#define KVLAB_STAGE4_WORMHOLE_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `wormhole` to `registry`.
void RegisterStage4WormholeStores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE4_WORMHOLE_STORES_H_
