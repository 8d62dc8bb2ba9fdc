#include "kvlab/std_map_store.h"

#include <iterator>

#include "kvlab/absl_btree_store.h"

namespace kvlab {

bool StdMapStore::PutImpl(std::string_view key, std::string_view value) {
  auto [it, inserted] = map_.try_emplace(std::string(key));
  it->second.assign(value);
  return !inserted;
}

bool StdMapStore::GetImpl(std::string_view key, std::string* value) const {
  auto it = map_.find(key);
  if (it == map_.end()) return false;
  if (value != nullptr) *value = it->second;
  return true;
}

bool StdMapStore::DeleteImpl(std::string_view key) {
  auto it = map_.find(key);
  if (it == map_.end()) return false;
  map_.erase(it);
  return true;
}

StdMapStore::Map::const_iterator StdMapStore::NthIterator(uint64_t n) const {
  if (n < map_.size() / 2) return std::next(map_.begin(), n);
  return std::prev(map_.end(), map_.size() - n);
}

bool StdMapStore::GetNth(uint64_t n, std::string* key,
                         std::string* value) const {
  if (n >= map_.size()) return false;
  auto it = NthIterator(n);
  if (key != nullptr) *key = it->first;
  if (value != nullptr) *value = it->second;
  return true;
}

bool StdMapStore::DeleteNth(uint64_t n) {
  if (n >= map_.size()) return false;
  map_.erase(NthIterator(n));
  return true;
}

uint64_t StdMapStore::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  for (auto it = map_.lower_bound(start); it != map_.end(); ++it) {
    ++visited;
    if (!visitor(it->first, it->second)) break;
  }
  return visited;
}

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
