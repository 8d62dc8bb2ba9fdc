// StdMapStore: the peer `std_map`, a std::map<std::string, std::string>.
//
// It is both a benchmark peer (what a student would write first) and the
// reference the tests trust. Its GetNth/DeleteNth walk the map from the
// nearer end, O(n) per call: std::map keeps no subtree sizes, and showing
// what that costs on the course workload is the point.

#ifndef KVLAB_STD_MAP_STORE_H_
#define KVLAB_STD_MAP_STORE_H_

#include <map>
#include <string>

#include "kvlab/kv_store.h"
#include "kvlab/registry.h"

namespace kvlab {

// Not thread-safe.
class StdMapStore final : public KVStore {
 public:
  StdMapStore() = default;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return map_.size(); }
  std::string_view Name() const override { return "std_map"; }
  // Unknown: the memory is spread over the allocator's node and string
  // buffers; kvbench measures it from the process instead.
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  using Map = std::map<std::string, std::string, std::less<>>;
  // The n-th element, walking from whichever end is nearer.
  Map::const_iterator NthIterator(uint64_t n) const;

  Map map_;
};

// Adds `std_map` to `registry`.
void RegisterPeerStores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STD_MAP_STORE_H_
