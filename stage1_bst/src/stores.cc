#include "kvlab/stage1/stores.h"

#include <memory>

#include "kvlab/stage1/avl_store.h"
#include "kvlab/stage1/bst_store.h"

namespace kvlab {

void RegisterStage1Stores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "bst",
      .description = "plain binary search tree with subtree sizes; "
                     "a list of depth n on sorted input",
      .origin = "stage1",
      .options = {},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kQuadratic,
      .factory =
          [](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<BstStore>();
      },
  });
  registry->Add(StoreInfo{
      .name = "avl",
      .description = "AVL tree with subtree sizes; O(log n) for every "
                     "operation",
      .origin = "stage1",
      .options = {},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory =
          [](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<AvlStore>();
      },
  });
}

}  // namespace kvlab
