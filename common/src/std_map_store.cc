#include "kvlab/std_map_store.h"

#include "kvlab/absl_btree_store.h"

namespace kvlab {

void RegisterPeerStores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "std_map",
      .description = "std::map<std::string, std::string>; GetNth walks, O(n)",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory =
          [](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<StdMapStore>();
      },
  });
  RegisterAbslBtreeStore(registry);
}

}  // namespace kvlab
