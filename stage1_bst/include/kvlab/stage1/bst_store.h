// BstStore: the store `bst`, a plain (unbalanced) binary search tree.
//
// Every node carries the size of its subtree, so GetNth and DeleteNth take
// O(height) time like Get, Put and Delete. The height is O(log n) on random
// input but n on sorted input, where the tree degenerates into a list: then
// every operation is O(n) and building the tree O(n^2). That cost is the
// lesson of this store (see docs/stage1_bst.md); `avl` removes it.
//
// Because the height can be n, no algorithm here recurses: lookups, inserts,
// deletes, scans, the invariant check, the drawing and the destructor all
// loop, with an explicit stack where one is needed, so a tree of a million
// sorted keys cannot overflow the call stack.

#ifndef KVLAB_STAGE1_BST_STORE_H_
#define KVLAB_STAGE1_BST_STORE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/kv_store.h"

namespace kvlab {
namespace stage1 {
struct Node;
}  // namespace stage1

// Invariants (checked by CheckInvariants):
//   - in-order, the keys are strictly ascending (unsigned byte order);
//   - every node's size is 1 + the sizes of its children, so the root's size
//     is Size();
//   - MemoryUsage() is sizeof(BstStore) plus the bytes of every node.
//
// Not thread-safe: wrap it in a LockedStore to share it between threads.
class BstStore final : public KVStore {
 public:
  BstStore() = default;
  ~BstStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "bst"; }

  // sizeof(BstStore) plus, per pair, the bytes requested from malloc for its
  // node: a 24-byte header plus the key and value bytes. malloc's own
  // headers and rounding are not counted (kvbench measures the process).
  std::optional<size_t> MemoryUsage() const override;

  // A drawing of the tree, root first, each child indented under its
  // parent and marked L or R; keys C-escaped, values not shown:
  //   "b" size=3
  //   |-L "a" size=1
  //   `-R "c" size=1
  // At most `max_nodes` nodes are drawn, then a line counts the rest.
  std::string DebugString(size_t max_nodes = 64) const;

  // Nodes on the longest root-to-leaf path; 0 when empty. O(n).
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

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Adds `delta` to the size of every node on the search path of `key`,
  // down to the node holding it (exclusive) or to the end of the path.
  void AddToPathSizes(std::string_view key, int delta);

  // Removes the node `*link` points to; the sizes of its ancestors must
  // already count one node fewer.
  void Unlink(stage1::Node** link);

  stage1::Node* root_ = nullptr;
  size_t node_bytes_ = 0;  // sum of the allocation sizes of all nodes
};

}  // namespace kvlab

#endif  // KVLAB_STAGE1_BST_STORE_H_
