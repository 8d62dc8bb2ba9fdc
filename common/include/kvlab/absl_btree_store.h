// AbslBtreeStore: the peer `absl_btree`, an
// absl::btree_map<std::string, std::string>.
//
// The B-tree a production C++ programmer would reach for: cache-friendly
// nodes sized to about 256 bytes, holding the std::string pairs themselves.
// It keeps no subtree sizes, so its GetNth/DeleteNth walk an iterator from
// the nearer end, O(n) per call, like std_map's. Its nodes come through a
// NodeReserve (below), which keeps a failed insert from breaking the map.

#ifndef KVLAB_ABSL_BTREE_STORE_H_
#define KVLAB_ABSL_BTREE_STORE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <utility>

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

// Abseil 20220623 grows a full root by linking a new, empty root above it and
// only then allocating the node the old root splits into. If that second
// allocation fails, the empty root stays, and destroying the map frees none
// of the nodes below it. A NodeReserve keeps one spare block for exactly that
// allocation: the second node an insert allocates, if operator new fails,
// comes from the spare, which is as large as the largest node the map has
// asked for (the split node is as large as the old root, allocated before).
// The first allocation failing changes nothing, and any after the second
// find the upper levels already split, a valid tree.
class NodeReserve {
 public:
  NodeReserve() = default;
  NodeReserve(const NodeReserve&) = delete;
  NodeReserve& operator=(const NodeReserve&) = delete;
  ~NodeReserve();

  // Before each insert: makes sure the spare is there and large enough,
  // throwing std::bad_alloc (with nothing changed) if it cannot be, and
  // starts counting the insert's allocations.
  void PrepareInsert();

  void* Allocate(size_t bytes);
  static void Deallocate(void* block) { ::operator delete(block); }

 private:
  void* spare_ = nullptr;
  size_t spare_bytes_ = 0;
  size_t largest_ = 0;  // the largest block the map has asked for
  int insert_allocations_ = 0;
};

// The map's allocator: every node through one NodeReserve.
template <typename T>
class ReserveAllocator {
 public:
  using value_type = T;

  explicit ReserveAllocator(NodeReserve* reserve) : reserve_(reserve) {}
  // Implicit, as allocators are: the map rebinds it to its node type.
  template <typename U>
  ReserveAllocator(const ReserveAllocator<U>& other)
      : reserve_(other.reserve()) {}

  T* allocate(size_t n) {
    return static_cast<T*>(reserve_->Allocate(n * sizeof(T)));
  }
  void deallocate(T* block, size_t) { NodeReserve::Deallocate(block); }
  NodeReserve* reserve() const { return reserve_; }

  template <typename U>
  bool operator==(const ReserveAllocator<U>& other) const {
    return reserve_ == other.reserve();
  }

 private:
  NodeReserve* reserve_;
};

// Holds the reserve in a base class of its own, so that it is built before
// the map and destroyed after it.
struct NodeReserveHolder {
  NodeReserve node_reserve;
};

using AbslBtreeMap = absl::btree_map<
    std::string, std::string, std::less<std::string>,
    ReserveAllocator<std::pair<const std::string, std::string>>>;

class AbslBtreeStore final : private NodeReserveHolder,
                             public SortedMapStore<AbslBtreeMap, AbslBtreeKey> {
 public:
  AbslBtreeStore()
      : SortedMapStore(
            ReserveAllocator<std::pair<const std::string, std::string>>(
                &node_reserve)) {}

  std::string_view Name() const override { return "absl_btree"; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    node_reserve.PrepareInsert();
    return SortedMapStore::PutImpl(key, value);
  }
};

// Adds `absl_btree` to `registry`.
void RegisterAbslBtreeStore(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_ABSL_BTREE_STORE_H_
