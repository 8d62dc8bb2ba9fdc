// AbslBtreeStore: the peer `absl_btree`, an
// absl::btree_map<std::string, std::string>.
//
// The B-tree a production C++ programmer would reach for: cache-friendly
// nodes sized to about 256 bytes, holding the std::string pairs themselves.
// It keeps no subtree sizes, so its GetNth/DeleteNth walk an iterator from
// the nearer end, O(n) per call, like std_map's.

#ifndef KVLAB_ABSL_BTREE_STORE_H_
#define KVLAB_ABSL_BTREE_STORE_H_

#include <string>

#include "absl/container/btree_map.h"
#include "kvlab/kv_store.h"
#include "kvlab/registry.h"

namespace kvlab {

// Not thread-safe.
class AbslBtreeStore final : public KVStore {
 public:
  AbslBtreeStore() = default;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return map_.size(); }
  std::string_view Name() const override { return "absl_btree"; }
  // Unknown: the node sizes and the strings' heap buffers are the map's and
  // the library's business; kvbench measures the process instead.
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  using Map = absl::btree_map<std::string, std::string>;
  // The n-th element, walking from whichever end is nearer.
  Map::const_iterator NthIterator(uint64_t n) const;

  Map map_;
};

// Adds `absl_btree` to `registry`.
void RegisterAbslBtreeStore(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_ABSL_BTREE_STORE_H_
