// CTrieStore: the store `ctrie`, a compressed (radix, Patricia) trie with
// subtree counts, a node pool and three selectable locking designs.
//
// Every chain of single-child nodes without a value is folded into one edge
// label; a node splits when a new key diverges inside its label and merges
// back with its only child when a delete leaves it with one child and no
// value. Each node keeps, next to each child pointer, the number of keys in
// that child's subtree, so GetNth and DeleteNth walk one root-to-key path,
// O(depth x fan-out). Nodes are exact-size blocks from a pool of per-size-
// class free lists carved from 2 MiB slabs, which go back to the system once
// nothing in them is live (src/node_pool.h); a change to a node's label,
// value or child set builds a replacement node and swaps one pointer (copy
// on write), which is what the lock-free readers rely on.
//
// Out of memory (kv_store.h): a write allocates only while it builds its
// replacement nodes, before it changes anything, so a failed allocation
// leaves the store as it was. A delete builds one node, smaller than the
// ones it frees, from the pool's free blocks; under rcu a writer short of
// memory first frees the nodes earlier writes retired. So deleting keeps
// working, and freeing memory, when the system has none left to give.
//
// Options (spec "ctrie:opt=v:opt=v"):
//   compress=full|suffix  full (default): every single-child chain is one
//                         label. suffix: the student report's first version,
//                         only a key's unique suffix is a label; shared
//                         prefixes keep one node per byte.
//   alloc=pool|malloc     pool (default) or operator new/delete per node.
//   lock=rcu|global|node|none
//                         rcu (default): one writer at a time (a mutex);
//                         Get never blocks: it reads through an epoch-
//                         protected section (kvlab/stage4/epoch.h) while the
//                         writer swaps in new nodes; GetNth validates a
//                         sequence counter and retries, then falls back to the
//                         mutex; Scan holds the mutex. Why it is the default:
//                         docs/stage4_compressed_trie.md, "Why rcu is the
//                         default".
//                         global: one std::shared_mutex, readers shared.
//                         node: a reader-writer spin lock in every inner node;
//                         readers couple locks top-down (child, then release
//                         parent); writers hold their whole path (counts on
//                         it all change). none: not thread-safe.
//   find=simd|binary      child search: SSE2 16-byte compare (default) or
//                         binary search over the sorted branch bytes.
//
// Invariants (CheckInvariants): children strictly ascending by branch byte;
// each stored count equals the keys in that subtree and the root's total is
// Size(); no non-root node is empty; full: a non-root node without a value
// has >= 2 children; suffix: only leaves have labels and a non-root subtree
// holding one key is a single leaf; the pool's live objects are exactly the
// reachable nodes plus those awaiting reclamation.
//
// Thread safety: every method may be called concurrently unless lock=none.
// A Scan visitor must not call into the store.

#ifndef KVLAB_STAGE4_CTRIE_STORE_H_
#define KVLAB_STAGE4_CTRIE_STORE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/store_options.h"

namespace kvlab {
namespace stage4 {
struct Node;
class NodePool;
class EpochReclaimer;
}  // namespace stage4

struct CTrieOptions {
  enum class Compress { kFull, kSuffix };
  enum class Alloc { kPool, kMalloc };
  enum class Lock { kRcu, kGlobal, kNode, kNone };
  enum class Find { kSimd, kBinary };
  Compress compress = Compress::kFull;
  Alloc alloc = Alloc::kPool;
  Lock lock = Lock::kRcu;
  Find find = Find::kSimd;

  // From spec options (compress, alloc, lock, find); InvalidArgument on a
  // bad value.
  static absl::StatusOr<CTrieOptions> FromStoreOptions(
      const StoreOptions& options);
};

class CTrieStore final : public KVStore {
 public:
  explicit CTrieStore(const CTrieOptions& options = {});
  ~CTrieStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "ctrie"; }

  // sizeof(CTrieStore) plus what the pool holds: its slabs in full (used or
  // not) and its tables; in malloc mode the requested bytes of live nodes.
  // Plus the writer's scratch and (rcu) the list of retired nodes. A store
  // emptied by deletes holds at most one slab more than a new one (under
  // rcu: unless a reader still holds nodes it retired).
  std::optional<size_t> MemoryUsage() const override;
  bool IsThreadSafe() const override;

  const CTrieOptions& options() const { return options_; }

  // The trie drawn one node per line (at most `max_nodes`), then the pool's
  // statistics. Format: "'b' \"label\" =value [count]" per node.
  std::string DebugString(size_t max_nodes = 64) const;
  // The pool's statistics alone (NodePool::DebugString).
  std::string PoolDebugString() const;

  struct PoolStats {
    size_t slabs = 0;
    size_t bytes_reserved = 0;
    size_t bytes_live = 0;
    uint64_t live_objects = 0;
    uint64_t free_objects = 0;
    uint64_t pending_reclaim = 0;  // retired, not yet freed (lock=rcu)
  };
  PoolStats GetPoolStats() const;

  // Nodes in the trie (root included) and the longest root-to-node path.
  struct Shape {
    uint64_t nodes = 0;
    uint64_t inner_nodes = 0;
    int max_depth = 0;
  };
  Shape GetShape() const;

  // OK if every invariant above holds, else the first violation. O(n); holds
  // the write side of the lock meanwhile.
  absl::Status CheckInvariants() const override;

  // Every node with its compressed edge label, value and pool block, and
  // the node pool's size classes and free lists (src/export.cc). Holds the
  // write side of the lock meanwhile.
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  using Node = stage4::Node;
  // lock=rcu: retired nodes are freed in batches of about this many.
  static constexpr size_t kRetiredPerCollect = 256;
  // A path holds at most one node per key byte plus the root; a write
  // replaces at most the nodes on its path plus two (a merged child and a
  // deleted leaf), and builds at most one node per key byte plus three (a
  // suffix-mode split's chain).
  static constexpr size_t kMaxNodesPerWrite = kMaxKeySize + 3;
  struct PathStep {
    Node* node;
    size_t child;  // index in `node` of the next node on the path
  };
  enum class NthResult { kFound, kOutOfRange, kInconsistent };

  // Reads (read.cc).
  bool FindWalk(std::string_view key, std::string* value, bool couple) const;
  NthResult NthWalk(uint64_t n, std::string* key, std::string* value,
                    bool couple) const;
  bool ScanNode(const Node* x, std::string* prefix, std::string_view start,
                bool bounded, ScanVisitor visitor, uint64_t* visited) const;

  // Runs `write` under the write side of the configured lock.
  template <typename Write>
  auto WithWriteLock(Write write);

  // Writes (write.cc); the caller holds the write side of the lock. A write
  // descends, builds the replacement nodes (the only step that allocates),
  // then publishes them; if building throws std::bad_alloc, the WriteScope
  // frees what was built and releases the locks, and nothing has changed.
  class WriteScope;
  bool PutLocked(std::string_view key, std::string_view value);
  bool DeleteLocked(std::string_view key);
  void* AllocateNode(size_t bytes, bool align8);
  Node* NewNode(size_t children, std::string_view label, bool has_value,
                std::string_view value);
  Node* CopyWithValue(const Node* x, bool has_value, std::string_view value);
  Node* CopyWithLabel(const Node* x, std::string_view label);
  Node* CopyWithChildInserted(const Node* x, size_t at, uint8_t branch,
                              Node* child, uint32_t count);
  Node* CopyWithoutChild(const Node* x, size_t at);
  Node* MergeWithChild(const Node* x, size_t child);
  Node* BuildSplit(Node* x, uint32_t x_count, size_t common,
                   std::string_view rest, std::string_view value);
  uint32_t CountOf(size_t depth) const;
  void WriteLock(Node* x);
  void Publish(Node* replacement, int64_t delta);
  void Replace(Node* replacement, int64_t delta);
  void EndWrite(bool published);
  void CollectRetired();  // lock=rcu: frees the retired nodes no reader holds
  void Discard(Node* x);  // frees a node built by this write, never published
  void FreeNode(void* x, size_t bytes);

  // Debugging (debug.cc); the caller excludes writers.
  std::string TreeString(size_t max_nodes) const;
  absl::Status CheckNode(const Node* x, bool is_root, size_t key_length,
                         uint64_t* keys, uint64_t* nodes) const;

  const CTrieOptions options_;
  std::unique_ptr<stage4::NodePool> pool_;
  std::unique_ptr<stage4::EpochReclaimer> epochs_;  // lock=rcu only

  // The root: always present, empty label; replaced by copy on write like
  // any node. Its lock in lock=node is root_lock_ (the root has no parent).
  std::atomic<Node*> root_{nullptr};
  std::atomic<uint64_t> size_{0};

  mutable std::shared_mutex global_mutex_;      // lock=global
  mutable std::mutex writer_mutex_;             // lock=rcu writers
  alignas(64) mutable uint32_t root_lock_ = 0;  // lock=node, as atomic_ref
  // lock=rcu: odd while the writer changes counts; GetNth validates it.
  alignas(64) std::atomic<uint64_t> sequence_{0};

  // Writer scratch, used only while the write lock is held. Each is reserved
  // for the longest key when the store is made, so a write never has to
  // grow one (and so cannot fail half-way for want of memory).
  std::vector<PathStep> path_;
  std::vector<Node*> write_locked_;  // lock=node: inner nodes locked
  std::vector<Node*> fresh_;         // built by this write, not yet published
  std::vector<Node*> retired_;       // replaced by this write
  std::string scratch_;              // a merged label
  std::string nth_key_;              // DeleteNth's key
};

}  // namespace kvlab

#endif  // KVLAB_STAGE4_CTRIE_STORE_H_
