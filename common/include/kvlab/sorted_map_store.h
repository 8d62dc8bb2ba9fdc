// SortedMapStore: a KVStore over a library's ordered map of std::string
// pairs, the shape both map peers (`std_map`, `absl_btree`) share.
//
// `Map` is an ordered map from std::string to std::string whose find and
// lower_bound accept the type `ToKey` makes from a std::string_view, so a
// lookup allocates nothing; only an insert builds a std::string. Such maps
// keep no subtree sizes, so GetNth/DeleteNth walk an iterator from the
// nearer end, O(n) per call: showing what that costs on the course workload
// is the point of these peers. A Put whose allocation fails leaves every
// pair as it was (the map's own shape, a B-tree's node split, may differ;
// only the pairs are the store's state). MemoryUsage is unknown (the memory is
// spread over the map's nodes and the strings' buffers; kvbench measures the
// process instead). Not thread-safe.
#ifndef KVLAB_SORTED_MAP_STORE_H_
#define KVLAB_SORTED_MAP_STORE_H_

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "kvlab/kv_store.h"

namespace kvlab {

template <typename Map, typename ToKey>
class SortedMapStore : public KVStore {
 public:
  // `map_args` construct the map (an allocator, for instance).
  template <typename... MapArgs>
  explicit SortedMapStore(MapArgs&&... map_args)
      : map_(std::forward<MapArgs>(map_args)...) {}

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    if (n >= map_.size()) return false;
    auto it = NthIterator(n);
    if (key != nullptr) *key = it->first;
    if (value != nullptr) *value = it->second;
    return true;
  }
  bool DeleteNth(uint64_t n) override {
    if (n >= map_.size()) return false;
    map_.erase(NthIterator(n));
    return true;
  }
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override {
    uint64_t visited = 0;
    for (auto it = map_.lower_bound(ToKey()(start)); it != map_.end(); ++it) {
      ++visited;
      if (!visitor(it->first, it->second)) break;
    }
    return visited;
  }
  uint64_t Size() const override { return map_.size(); }
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    auto it = map_.lower_bound(ToKey()(key));
    if (it != map_.end() && it->first == key) {
      it->second.assign(value);  // a std::string keeps itself if this throws
      return true;
    }
    // Both strings are built before the map changes and are moved in, so a
    // failed allocation (theirs or the map's) leaves no half-made entry.
    std::string new_key(key);
    std::string new_value(value);
    map_.emplace_hint(it, std::move(new_key), std::move(new_value));
    return false;
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    auto it = map_.find(ToKey()(key));
    if (it == map_.end()) return false;
    if (value != nullptr) *value = it->second;
    return true;
  }
  bool DeleteImpl(std::string_view key) override {
    auto it = map_.find(ToKey()(key));
    if (it == map_.end()) return false;
    map_.erase(it);
    return true;
  }

 private:
  // The n-th element, walking from whichever end is nearer.
  typename Map::const_iterator NthIterator(uint64_t n) const {
    if (n < map_.size() / 2) return std::next(map_.begin(), n);
    return std::prev(map_.end(), map_.size() - n);
  }

  Map map_;
};

}  // namespace kvlab

#endif  // KVLAB_SORTED_MAP_STORE_H_
