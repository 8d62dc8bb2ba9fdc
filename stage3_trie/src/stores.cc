#include "kvlab/stage3/stores.h"

#include <memory>

#include "array_layout.h"
#include "bst_layout.h"
#include "kvlab/stage3/trie_store.h"
#include "list_layout.h"
#include "trie_store_impl.h"

namespace kvlab {

std::unique_ptr<TrieStore> NewArrayTrie(const stage3::Alphabet& alphabet) {
  return std::make_unique<stage3::TrieStoreImpl<stage3::ArrayLayout>>(
      "trie_array", stage3::ArrayLayout(alphabet));
}

std::unique_ptr<TrieStore> NewListTrie() {
  return std::make_unique<stage3::TrieStoreImpl<stage3::ListLayout>>(
      "trie_list", stage3::ListLayout());
}

std::unique_ptr<TrieStore> NewBstTrie() {
  return std::make_unique<stage3::TrieStoreImpl<stage3::BstLayout>>(
      "trie_bst", stage3::BstLayout());
}

void RegisterStage3Stores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "trie_array",
      .description = "pointer trie, one child array per node (2,064 B a "
                     "node for all bytes, 432 B for letters)",
      .origin = "stage3",
      .options = {{"alphabet",
                   "bytes (default, every key) or letters (A-Z a-z only, "
                   "other keys refused)"}},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = [](const StoreOptions& options)
          -> absl::StatusOr<std::unique_ptr<KVStore>> {
        absl::StatusOr<std::string> alphabet =
            options.GetChoice("alphabet", "bytes", {"bytes", "letters"});
        if (!alphabet.ok()) return alphabet.status();
        return NewArrayTrie(*alphabet == "letters"
                                ? stage3::Alphabet::Letters()
                                : stage3::Alphabet::AllBytes());
      },
  });
  registry->Add(StoreInfo{
      .name = "trie_list",
      .description = "pointer trie, children in a sorted linked list "
                     "(32 B a node)",
      .origin = "stage3",
      .options = {},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = [](const StoreOptions&)
          -> absl::StatusOr<std::unique_ptr<KVStore>> { return NewListTrie(); },
  });
  registry->Add(StoreInfo{
      .name = "trie_bst",
      .description = "pointer trie, children in a binary search tree per "
                     "node (40 B a node)",
      .origin = "stage3",
      .options = {},
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = [](const StoreOptions&)
          -> absl::StatusOr<std::unique_ptr<KVStore>> { return NewBstTrie(); },
  });
}

}  // namespace kvlab
