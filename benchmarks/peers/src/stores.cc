#include "kvlab/peers/stores.h"

#include <memory>

#include "hash_stores.h"
#include "hattrie_store.h"
#include "judy_store.h"
#include "judyl_store.h"

namespace kvlab {
namespace {

using Factory = std::function<absl::StatusOr<std::unique_ptr<KVStore>>(
    const StoreOptions&)>;

template <typename Store, typename... Args>
Factory Make(Args... args) {
  return [=](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
    return std::make_unique<Store>(args...);
  };
}

}  // namespace

void RegisterBenchmarkPeers(StoreRegistry* registry) {
  using peers::AbslFlatTraits;
  using peers::HashStore;
  using peers::StdUnorderedTraits;
  registry->Add(StoreInfo{
      .name = "std_unordered_map",
      .description = "std::unordered_map<std::string, std::string>; "
                     "unordered: no GetNth/Scan",
      .origin = "peer",
      .options = {},
      .ordered = false,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = Make<HashStore<StdUnorderedTraits>>("std_unordered_map"),
  });
  registry->Add(StoreInfo{
      .name = "absl_flat_hash_map",
      .description = "absl::flat_hash_map<std::string, std::string>; "
                     "unordered: no GetNth/Scan",
      .origin = "peer",
      .options = {},
      .ordered = false,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = Make<HashStore<AbslFlatTraits>>("absl_flat_hash_map"),
  });
  registry->Add(StoreInfo{
      .name = "judy",
      .description = "JudySL (libJudy), keys escaped so NUL bytes work; "
                     "8-byte values in the Judy word (else one blob each); "
                     "GetNth walks, O(n); JudySL may lose a key or end its "
                     "walks early when malloc fails",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .survives_allocation_failure = false,
      .factory = Make<peers::JudyStore>(),
  });
  registry->Add(StoreInfo{
      .name = "judyl",
      .description = "JudyL (libJudy) for 8-byte keys as big-endian "
                     "integers, GetNth by count, 8-byte values in the Judy "
                     "word (else one blob each); other keys in a JudySL "
                     "beside it (GetNth then walks, O(n)), which may lose a "
                     "key or end its walks early when malloc fails",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .survives_allocation_failure = false,
      .factory = Make<peers::JudyLStore>(),
  });
  registry->Add(StoreInfo{
      .name = "hattrie",
      .description = "HAT-trie (Debian's libhat-trie), sorted iteration; "
                     "GetNth and Scan's start walk, O(n); libhat-trie exits "
                     "when malloc fails",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .survives_allocation_failure = false,
      .factory = Make<peers::HatTrieStore>(),
  });
}

}  // namespace kvlab
