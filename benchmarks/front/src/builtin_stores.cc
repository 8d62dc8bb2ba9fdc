// The one place that knows every stage: each stage's include/ offers a
// RegisterStageNStores() (kvlab/stageN/stores.h), called here in one line.
// This file sits above the stages (benchmarks/front/); stages themselves
// depend only on common/.

#include "kvlab/durable_store.h"
#include "kvlab/ect/stores.h"
#include "kvlab/kvlab.h"
#include "kvlab/peers/stores.h"
#include "kvlab/stage1/stores.h"
#include "kvlab/stage2/stores.h"
#include "kvlab/stage3/stores.h"
#include "kvlab/stage4/stores.h"
#include "kvlab/stage4/wormhole_stores.h"
#include "kvlab/stage5/stores.h"
#include "kvlab/std_map_store.h"

namespace kvlab {

const StoreRegistry& BuiltinStores() {
  static const StoreRegistry* const registry = [] {
    auto* r = new StoreRegistry();  // never destroyed: safe at exit
    RegisterStage1Stores(r);
    RegisterStage2Stores(r);
    RegisterStage3Stores(r);
    RegisterEctStores(r);  // its buffer, hyperion, is looked up in r
    RegisterStage4Stores(r);
    RegisterStage4WormholeStores(r);
    RegisterStage5Stores(r);
    RegisterPeerStores(r);
    RegisterBenchmarkPeers(r);
    return r;
  }();
  return *registry;
}

absl::StatusOr<std::unique_ptr<KVStore>> MakeStore(std::string_view spec) {
  // "durable:dir=...:store=NAME" wraps any built-in store in a log.
  if (IsDurableSpec(spec)) return MakeDurableFromSpec(spec, BuiltinStores());
  return BuiltinStores().Make(spec);
}

// The most advanced stage's store that is thread-safe by itself, as the
// course API promises: stage 4's compressed trie (stage 5's hyperion needs a
// LockedStore).
std::string_view DefaultStoreSpec() { return "ctrie"; }

}  // namespace kvlab
