#include "kvlab/absl_btree_store.h"

#include <iterator>

#include "kvlab/string_view_compat.h"

namespace kvlab {

// absl::btree_map<std::string, ...> compares std::string keys with a
// transparent comparator that takes absl::string_view, so lookups pass the
// key as one (Debian's absl::string_view is not std::string_view) and
// allocate nothing. Only an insert builds a std::string.

bool AbslBtreeStore::PutImpl(std::string_view key, std::string_view value) {
  auto [it, inserted] = map_.try_emplace(std::string(key));
  it->second.assign(value);
  return !inserted;
}

bool AbslBtreeStore::GetImpl(std::string_view key, std::string* value) const {
  auto it = map_.find(ToAbsl(key));
  if (it == map_.end()) return false;
  if (value != nullptr) *value = it->second;
  return true;
}

bool AbslBtreeStore::DeleteImpl(std::string_view key) {
  return map_.erase(ToAbsl(key)) != 0;
}

AbslBtreeStore::Map::const_iterator AbslBtreeStore::NthIterator(
    uint64_t n) const {
  if (n < map_.size() / 2) return std::next(map_.begin(), n);
  return std::prev(map_.end(), map_.size() - n);
}

bool AbslBtreeStore::GetNth(uint64_t n, std::string* key,
                            std::string* value) const {
  if (n >= map_.size()) return false;
  auto it = NthIterator(n);
  if (key != nullptr) *key = it->first;
  if (value != nullptr) *value = it->second;
  return true;
}

bool AbslBtreeStore::DeleteNth(uint64_t n) {
  if (n >= map_.size()) return false;
  map_.erase(NthIterator(n));
  return true;
}

uint64_t AbslBtreeStore::Scan(std::string_view start,
                              ScanVisitor visitor) const {
  uint64_t visited = 0;
  for (auto it = map_.lower_bound(ToAbsl(start)); it != map_.end(); ++it) {
    ++visited;
    if (!visitor(it->first, it->second)) break;
  }
  return visited;
}

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
