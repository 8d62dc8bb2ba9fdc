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

#include "kvlab/registry.h"
#include "kvlab/sorted_map_store.h"

namespace kvlab {

// The std::map peer; see SortedMapStore for the contract.
struct StdMapKey {
  std::string_view operator()(std::string_view key) const { return key; }
};
class StdMapStore final
    : public SortedMapStore<std::map<std::string, std::string, std::less<>>,
                            StdMapKey> {
 public:
  std::string_view Name() const override { return "std_map"; }
};

// Adds `std_map` to `registry`.
void RegisterPeerStores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STD_MAP_STORE_H_
