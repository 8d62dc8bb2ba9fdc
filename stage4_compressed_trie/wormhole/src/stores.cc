#include <memory>

#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/stage4/wormhole_stores.h"

namespace kvlab {

void RegisterStage4WormholeStores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "wormhole",
      .description =
          "Wormhole: sorted leaves under a trie of their anchors kept in a "
          "hash table, found by a binary search over prefix lengths; "
          "per-leaf locks, RCU table",
      .origin = "stage4",
      .options = {{"leaf", "pairs per leaf at most, 4..1024 (default 128)"}},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = [](const StoreOptions& options)
          -> absl::StatusOr<std::unique_ptr<KVStore>> {
        absl::StatusOr<WormholeOptions> o =
            WormholeOptions::FromStoreOptions(options);
        if (!o.ok()) return o.status();
        return std::make_unique<WormholeStore>(*o);
      },
  });
}

}  // namespace kvlab
