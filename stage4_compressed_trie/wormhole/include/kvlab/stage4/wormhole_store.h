// WormholeStore: the store `wormhole`, an ordered index whose lookups cost
// O(log L) hash probes for a key of L bytes, whatever the number of keys
// (Xingbo Wu, Fan Ni, Song Jiang, "Wormhole: A Fast Ordered Index for
// In-memory Data Management", EuroSys 2019).
//
// Pairs live in a LeafList: a doubly linked list of leaves of at most
// `leaf` pairs each (128 by default), in key order, that split and merge
// like B+-tree leaves. Each leaf has an anchor: a key no larger than any of
// its keys and larger than every key of the leaf before it, formed as short
// as possible when the leaf is split off. The anchors, and every prefix of
// each, are the nodes of a trie (MetaTrie) stored in a hash table
// (MetaTrieHT). A lookup finds the longest prefix of its key that is in the
// table by a binary search over prefix lengths, then the leaf from that
// node's sibling information; inside the leaf, 16-bit hash tags find the
// pair with about one key comparison. GetNth and DeleteNth go through a
// treap over the leaves that counts keys per subtree: O(log L + log M) for
// M leaves.
//
// Options (spec "wormhole:leaf=N"):
//   leaf=4..1024   pairs per leaf at most (default 128).
//
// Out of memory (kv_store.h): Put allocates any larger storage for its
// leaf, and for a split the new leaf, the storage of both halves, the new
// table nodes and any larger table arrays of both table copies, before it
// changes anything. Delete and DeleteNth need no memory: the storage they
// would shrink, or a merge, is skipped when an allocation fails.
//
// Invariants (CheckInvariants): the first leaf's anchor is empty; anchors
// ascend strictly along the list and each leaf's keys lie in [its anchor,
// the next anchor); prev and next links agree; no leaf holds more than
// `leaf` pairs; each leaf's tag array is ordered by tag, carries each key's
// tag, and holds the same slots as its key array, whose sorted part is in
// order; a leaf's storage has room for its pairs and counts its dead bytes
// exactly; both table copies hold exactly the prefixes of the anchors, each
// node with the right child bitmap, anchor, left-most and right-most leaf,
// and the same version; the rank treap lists the leaves in order with their
// counts and sums; Size() and MemoryUsage() agree with the contents.
//
// Thread safety: every method may be called concurrently. A reader takes no
// lock on the table: it reads the current copy inside an epoch section,
// then holds its leaf's reader-writer lock; a writer changes one leaf under
// that leaf's lock. A split or merge also holds one mutex for table writers,
// applies the change to the copy no reader sees, makes it current, waits
// until readers of the other copy are gone, and applies it there too. Leaf
// version numbers make a reader that raced a split start over. A Scan
// visitor runs with a leaf's shared lock held and must not call into the
// store.

#ifndef KVLAB_STAGE4_WORMHOLE_STORE_H_
#define KVLAB_STAGE4_WORMHOLE_STORE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/store_options.h"

namespace kvlab {
namespace stage4 {
class EpochReclaimer;
namespace wormhole {
struct Leaf;
struct MetaNode;
class MetaTable;
class RankTree;
struct TableChange;
}  // namespace wormhole
}  // namespace stage4

struct WormholeOptions {
  uint32_t leaf_capacity = 128;

  // From spec options (leaf); InvalidArgument on a bad value.
  static absl::StatusOr<WormholeOptions> FromStoreOptions(
      const StoreOptions& options);
};

class WormholeStore final : public KVStore {
 public:
  explicit WormholeStore(const WormholeOptions& options = {});
  ~WormholeStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "wormhole"; }
  // sizeof(WormholeStore), every leaf with its storage block (the packed
  // pairs and the arrays over them), every table node and both copies'
  // slot arrays.
  std::optional<size_t> MemoryUsage() const override;
  bool IsThreadSafe() const override { return true; }
  // O(n); blocks every writer meanwhile.
  absl::Status CheckInvariants() const override;
  // The leaves (anchor, pairs) in list order and the MetaTrie's nodes with
  // their child, anchor and sibling links (src/export.cc).
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

  const WormholeOptions& options() const { return options_; }

  struct Shape {
    uint64_t leaves = 0;
    uint64_t table_nodes = 0;  // in one copy
    uint64_t largest_leaf = 0;
    uint32_t longest_anchor = 0;
  };
  // Blocks every writer meanwhile.
  Shape GetShape() const;
  // The anchors in list order (the first is ""). Blocks every writer.
  std::vector<std::string> Anchors() const;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  using Leaf = stage4::wormhole::Leaf;
  using MetaNode = stage4::wormhole::MetaNode;
  using MetaTable = stage4::wormhole::MetaTable;

  // The leaf whose range holds `key` in table copy `table`.
  Leaf* FindLeaf(const MetaTable& table, std::string_view key) const;
  // FindLeaf in the current copy, then the leaf locked (shared or
  // exclusive) and checked against the copy's version; retries until both
  // agree. The caller is inside an epoch section.
  Leaf* LockLeafFor(std::string_view key, bool exclusive) const;
  // Under meta_mu_ with `leaf` (full) locked exclusively: splits it, makes
  // the table copy with the new anchor current, and returns the new right
  // leaf, locked exclusively, both halves with room for one more pair of
  // `extra` bytes; `*change` is what the other copy still needs (Finish).
  // Throws std::bad_alloc with nothing changed.
  Leaf* Split(Leaf* leaf, uint32_t extra,
              stage4::wormhole::TableChange* change);
  // Under meta_mu_, no leaf locked, outside any epoch section: waits for the
  // readers of the old copy, then applies `change` to it.
  void Finish(stage4::wormhole::TableChange* change);
  // Under meta_mu_, after a delete left the leaf of `key` small: merges it
  // with a neighbour if both fit in one leaf.
  void MaybeMerge(std::string_view key);
  // Makes `table` (the copy no reader sees) current and returns the other
  // one, which readers may still use until epochs_->Synchronize().
  MetaTable* Publish(MetaTable* table);
  void AddAnchor(MetaTable* table, Leaf* leaf,
                 std::vector<MetaNode*>::iterator fresh);
  void RemoveAnchor(MetaTable* table, std::string_view anchor);
  void RecomputeEnds(const MetaTable& table, MetaNode* node) const;
  // With `leaf` locked exclusively: counts `delta` keys more in it for the
  // rank treap, which learns of it at the next FlushRanks. A Put or Delete
  // thus never touches the treap or its mutex.
  void CountKeys(Leaf* leaf, int32_t delta) const;
  // Under rank_mu_: gives the treap every leaf's pending count.
  void FlushRanks() const;
  void LockAllLeaves() const;
  void UnlockAllLeaves() const;
  absl::Status CheckLocked() const;
  absl::Status CheckTable(const MetaTable& table) const;

  const WormholeOptions options_;
  Leaf* head_;  // the first leaf, anchor "": never merged away
  std::unique_ptr<MetaTable> tables_[2];
  std::atomic<MetaTable*> current_;
  std::unique_ptr<stage4::EpochReclaimer> epochs_;
  std::unique_ptr<stage4::wormhole::RankTree> rank_;
  mutable std::mutex meta_mu_;  // table writers: splits and merges
  mutable std::mutex rank_mu_;  // rank_
  // Leaves whose counts the treap has yet to learn (Leaf::rank_delta): a
  // stack pushed without a lock, taken whole under rank_mu_.
  mutable std::atomic<Leaf*> dirty_{nullptr};
  std::atomic<uint64_t> size_{0};
  std::atomic<int64_t> bytes_{0};
};

}  // namespace kvlab

#endif  // KVLAB_STAGE4_WORMHOLE_STORE_H_
