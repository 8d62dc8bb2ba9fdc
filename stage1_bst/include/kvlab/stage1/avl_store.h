// AvlStore: the store `avl`, an AVL tree with subtree sizes.
//
// An AVL tree is a binary search tree that rebalances itself: after every
// insert or delete, rotations restore the rule that the two subtrees of any
// node differ in height by at most one. That bounds the height by
// 1.44 log2(n + 2), so Put, Get, Delete, GetNth and DeleteNth are all
// O(log n) whatever the order of the keys; sorted input costs no more than
// random input. Subtree sizes, kept up to date through every rotation, make
// GetNth and DeleteNth walk one root-to-node path.
//
// The node layout is the same 24-byte header as BstStore's: the height
// (at most 47 here) takes 8 bits of the word that holds the key and value
// lengths. Scan keeps an explicit stack of at most `height` nodes rather
// than parent pointers, which would cost 8 bytes in every node and one more
// link to repair in every rotation, for a stack that fits in 64 entries.

#ifndef KVLAB_STAGE1_AVL_STORE_H_
#define KVLAB_STAGE1_AVL_STORE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "kvlab/kv_store.h"

namespace kvlab {
namespace stage1 {
struct Node;
}  // namespace stage1

// Invariants (checked by CheckInvariants): those of BstStore (bst_store.h),
// ordered keys, exact subtree sizes and MemoryUsage, and
//   - every node's height is 1 + the larger height of its children (a leaf
//     has height 1), and the two heights differ by at most 1.
//
// Not thread-safe: wrap it in a LockedStore to share it between threads.
class AvlStore final : public KVStore {
 public:
  AvlStore() = default;
  ~AvlStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "avl"; }

  // As BstStore's: sizeof(AvlStore) plus each node's 24-byte header, key
  // and value bytes.
  std::optional<size_t> MemoryUsage() const override;

  // BstStore's drawing with each node's height added:
  //   "b" size=3 height=2
  //   |-L "a" size=1 height=1
  //   `-R "c" size=1 height=1
  std::string DebugString(size_t max_nodes = 64) const;

  // Nodes on the longest root-to-leaf path; 0 when empty. O(1): the root's
  // height.
  int Height() const;

  // OK if every invariant above holds, otherwise the first violation. O(n).
  absl::Status CheckInvariants() const override;

  // Every node: its key, subtree size, value and (avl) height and balance.
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

  // The number of keys smaller than `key` (its rank, if present), and the
  // number of keys k with lo <= k < hi (0 unless lo < hi). O(height), by the
  // subtree sizes: exercise 2 of docs/stage1_bst.md.
  uint64_t Rank(std::string_view key) const;
  uint64_t CountRange(std::string_view lo, std::string_view hi) const;

  // Fills an empty store with `pairs`, whose keys ascend strictly, in O(n)
  // time, with no comparison of keys in the tree and no rotation: a
  // perfectly balanced tree, every level full but the last (exercise 3 of
  // docs/stage1_bst.md). FailedPrecondition if the store is not empty,
  // InvalidArgument if the keys do not ascend or a key or value exceeds its
  // limit, ResourceExhausted if memory runs out; the store is then as it
  // was.
  absl::Status LoadSorted(
      const std::vector<std::pair<std::string, std::string>>& pairs);

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  stage1::Node* root_ = nullptr;
  size_t node_bytes_ = 0;  // sum of the allocation sizes of all nodes
};

}  // namespace kvlab

#endif  // KVLAB_STAGE1_AVL_STORE_H_
