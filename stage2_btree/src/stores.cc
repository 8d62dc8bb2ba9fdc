#include "kvlab/stage2/stores.h"

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kvlab/stage2/btree_store.h"

namespace kvlab {
namespace {

absl::StatusOr<std::unique_ptr<KVStore>> MakeBTree(
    const StoreOptions& options) {
  absl::StatusOr<int64_t> order =
      options.GetInt("order", BTreeStore::kDefaultOrder, BTreeStore::kMinOrder,
                     BTreeStore::kMaxOrder);
  if (!order.ok()) return order.status();
  if (*order % 2 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("option 'order' must be even, got ", *order));
  }
  absl::StatusOr<std::string> keys =
      options.GetChoice("keys", "prefix", {"prefix", "pointer"});
  if (!keys.ok()) return keys.status();
  absl::StatusOr<std::string> overflow =
      options.GetChoice("overflow", "share", {"share", "split"});
  if (!overflow.ok()) return overflow.status();
  return std::make_unique<BTreeStore>(static_cast<int>(*order),
                                      *keys == "prefix"
                                          ? BTreeStore::KeyLayout::kPrefix
                                          : BTreeStore::KeyLayout::kPointer,
                                      *overflow == "share");
}

}  // namespace

void RegisterStage2Stores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "btree",
      .description = "B-tree with subtree key counts; O(log n) for every "
                     "operation, pairs in separate blocks",
      .origin = "stage2",
      .options =
          {
              {"order",
               absl::StrCat("even node order (most children), ",
                            BTreeStore::kMinOrder, "..", BTreeStore::kMaxOrder,
                            " (default ", BTreeStore::kDefaultOrder, ")")},
              {"keys", "prefix | pointer: slot layout (default prefix)"},
              {"overflow",
               "share | split: a full node lends keys to a neighbour "
               "before splitting, or always splits (default share)"},
          },
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = MakeBTree,
  });
}

}  // namespace kvlab
