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
#include "kvlab/registry.h"
#include "kvlab/sorted_map_store.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {

// absl::btree_map compares std::string keys with a transparent comparator
// that takes absl::string_view (Debian's is not std::string_view), so
// lookups pass the key as one and allocate nothing.
struct AbslBtreeKey {
  absl::string_view operator()(std::string_view key) const {
    return ToAbsl(key);
  }
};
class AbslBtreeStore final
    : public SortedMapStore<absl::btree_map<std::string, std::string>,
                            AbslBtreeKey> {
 public:
  std::string_view Name() const override { return "absl_btree"; }
};

// Adds `absl_btree` to `registry`.
void RegisterAbslBtreeStore(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_ABSL_BTREE_STORE_H_
