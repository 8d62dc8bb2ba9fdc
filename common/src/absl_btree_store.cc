#include "kvlab/absl_btree_store.h"

namespace kvlab {

void RegisterAbslBtreeStore(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "absl_btree",
      .description =
          "absl::btree_map<std::string, std::string>; GetNth walks, O(n)",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory =
          [](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<AbslBtreeStore>();
      },
  });
}

}  // namespace kvlab
