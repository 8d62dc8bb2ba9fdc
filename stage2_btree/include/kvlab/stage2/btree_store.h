// BTreeStore: the store `btree`, a B-tree with subtree key counts.
//
// A B-tree of order m keeps up to m - 1 keys in a node, sorted, and up to m
// children between them; every leaf is at the same depth, and every node
// but the root is at least half full (m/2 - 1 keys or more). So a tree of n
// keys has height at most log_{m/2}(n) + 1 however the keys arrive, and a
// walk from the root reads that few nodes, each a handful of cache lines.
//
// This is a B-tree, not a B+-tree: each key is stored exactly once, in an
// internal node or a leaf. Keys and values live outside the nodes, one
// malloc'd block per pair (4 bytes of lengths, then the bytes); a node slot
// holds a pointer to the block and, in the default `prefix` layout, the
// key's first 8 bytes as a number, so that a search compares numbers and
// follows one pointer per node only on a hit. Each child reference carries
// its subtree's key count, making GetNth and DeleteNth O(m log n).
//
// Order m must be even: a walk down splits a full node of m - 1 keys into
// two of m/2 - 1 around its middle key (see docs/stage2_btree.md).
//
// Invariants (CheckInvariants):
//   - all leaves are at depth Height() - 1;
//   - every node but the root holds m/2 - 1 to m - 1 keys; the root holds at
//     least one, and there is no root when the store is empty;
//   - keys ascend strictly within a node, and every key of child i lies
//     between keys i - 1 and i of its parent;
//   - each child reference's count is the number of keys in its subtree, and
//     the root's subtree holds Size() keys;
//   - each stored prefix is the prefix of its key;
//   - MemoryUsage() is exactly the bytes of the live node and pair blocks
//     plus the store itself.
//
// Not thread-safe: wrap it in a LockedStore to share it between threads.

#ifndef KVLAB_STAGE2_BTREE_STORE_H_
#define KVLAB_STAGE2_BTREE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/kv_store.h"

namespace kvlab {
namespace stage2 {
struct Tree;
}  // namespace stage2

class BTreeStore final : public KVStore {
 public:
  // How node slots refer to keys.
  enum class KeyLayout {
    kPrefix,   // an 8-byte key prefix beside each pair pointer (default)
    kPointer,  // only the pair pointer; every comparison follows it
  };

  static constexpr int kMinOrder = 4;
  static constexpr int kMaxOrder = 1024;
  static constexpr int kDefaultOrder = 256;

  // `order` must be even and in [kMinOrder, kMaxOrder]; the factory in
  // stores.cc checks that for specs. With `share_on_insert` false, a full
  // node is always split instead of first lending keys to a neighbour
  // (kept for the fill-factor measurement in the docs).
  explicit BTreeStore(int order = kDefaultOrder,
                      KeyLayout layout = KeyLayout::kPrefix,
                      bool share_on_insert = true);
  ~BTreeStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "btree"; }

  // sizeof(BTreeStore) and its tree header, plus the bytes requested from
  // malloc for every node and every pair block. malloc's own headers and
  // rounding are not counted (kvbench measures the process for those).
  std::optional<size_t> MemoryUsage() const override;

  int order() const;
  // Levels of nodes; 0 when empty, 1 for a single leaf. O(1).
  int Height() const;

  // The tree level by level, at most `max_nodes` nodes; see
  // src/tree_debug.cc for the format.
  std::string DebugString(size_t max_nodes = 64) const;

  // OK if every invariant above holds, otherwise the first violation. O(n).
  absl::Status CheckInvariants() const override;

  // Every node: its keys and each child's key count (stage2 tree_export.cc).
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  std::unique_ptr<stage2::Tree> tree_;
};

}  // namespace kvlab

#endif  // KVLAB_STAGE2_BTREE_STORE_H_
