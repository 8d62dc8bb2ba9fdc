// HyperionTrie: the trie behind HyperionStore (kvlab/stage5/hyperion_store.h,
// which states the contract; design in docs/stage5_hyperion.md). Internal
// to the stage: the store's users get one from NewHyperionStore.
//
// A 65,536-ary trie of containers. Each container holds the internal
// two-level trie for two key bytes: T-nodes (first byte) and their S-node
// children (second byte), in pre-order, siblings sorted and delta encoded
// (node.h). An S-node's child continues the key: a pointer to another
// container, a small container embedded in place, or a path-compressed
// suffix. The empty key lives beside the root (has_empty_key_).
//
// Invariants (checked by CheckInvariants after every operation in tests):
//   - siblings strictly increasing, deltas canonical (explicit key byte
//     exactly when the difference is 0 or > 7);
//   - every node leads to a key: a T-node ends a key or has S-children, an
//     S-node ends a key or has a child; no container, embedded container or
//     suffix is empty; the root is null iff no non-empty key is stored;
//   - a container's header matches its chunk, its free tail (< 32 bytes) is
//     zero; embedded sizes match their nodes, and stay within the budget;
//   - a T-node of a real container has a jump successor exactly when it has
//     more than options.jump_successor S-children, and it holds the bytes
//     up to the next sibling (0 if more than 65,535); T-nodes of embedded
//     containers have none, so an embedded container moves as plain bytes;
//   - a T-node has a T-node jump table exactly when it has a jump
//     successor, more than options.tnode_table S-children and at least
//     options.tnode_table_keys keys, and the table equals the one its
//     children build (tnode_table.h);
//   - a real container's jump table entries are sorted by key byte, each
//     at the T-node with its key byte and with the keys before it; unused
//     entries are zero and come last; embedded containers have no table;
//   - each pointer child's count equals the keys below it;
//   - a split directory (split.h) has 2..kMaxPieces non-empty pieces, each
//     an ordinary container (never split itself) whose T-nodes lie in its
//     entry's key range, with its count of keys; the root is never split;
//   - every chunk the memory manager holds is reachable exactly once.
//
// Reads and the invariants live here; every Put and Delete runs in a write
// object (write.h), which holds the operation's path and undo log and
// changes the bytes: a write that runs out of memory leaves the trie
// exactly as it was.

#ifndef KVLAB_STAGE5_HYPERION_TRIE_H_
#define KVLAB_STAGE5_HYPERION_TRIE_H_

#include <cassert>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/status/statusor.h"
#include "container_scan.h"
#include "descent.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/stage5/memory_manager.h"
#include "node.h"
#include "split.h"

namespace kvlab::stage5 {

// The longest key the trie stores: a caller's longest key and one byte a
// layer above may add (key pre-processing's transform does). The trie is
// the same for every key length; only the buffers that hold a whole key
// (the scan's) are sized by it.
inline constexpr size_t kMaxStoredKeySize = kMaxKeySize + 1;

class HyperionTrie final : public HyperionStore {
 public:
  using ChildKind = hyperion::ChildKind;
  using Node = hyperion::Node;
  using NodeType = hyperion::NodeType;
  using Region = hyperion::Region;

  // inline_value and embed_limit past 255 act as 255 (FromStoreOptions
  // rejects them).
  explicit HyperionTrie(const HyperionOptions& options = {});

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return size_; }
  std::string_view Name() const override { return "hyperion"; }
  // The memory manager's footprint without its cache of empty segments
  // (the bins' pages that hold a chunk in use, heap blocks, descriptors),
  // plus this object. O(bins + chunks in use).
  std::optional<size_t> MemoryUsage() const override;

  // HyperionStore's interface, there described.
  CompactionStats Compact(const CompactionPolicy& policy = {}) override;
  uint64_t compactions() const override { return compactions_; }
  uint64_t splits() const override { return splits_; }
  std::string DebugString() const override;
  std::string DumpContainer(HyperionPointer hp) const override;
  HyperionPointer root() const override { return root_; }
  const MemoryManager& memory() const override { return mm_; }

  // OK if every invariant above holds, else Internal naming the first
  // violation.
  absl::Status CheckInvariants() const override;
  // Each container a box of its annotated bytes (debug/export.cc);
  // max_nodes and max_depth count containers; from_key is refused
  // (InvalidArgument).
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

  // KVStore's operations without its checks: public so that a layer above
  // (preprocess/preprocessed_trie.h) can hand the trie keys of up to
  // kMaxStoredKeySize bytes.
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Every write runs in a write object (write.h), which changes the
  // trie's bytes and fields.
  friend class TrieWrite;

  // --- compaction (compact.cc; its check after every write in write.cc)
  // Runs Compact() when options_.compact asks for it.
  void CompactIfFragmented();

  // --- values (values.cc)
  std::string_view ValueAt(const uint8_t* enc) const {
    return hyperion::IsExternal(enc) ? ExternalValueAt(enc)
                                     : hyperion::InlineValue(enc);
  }
  std::string_view ExternalValueAt(const uint8_t* enc) const;
  // The value of node `n` of `buf`, which ends a key ("" if it has none).
  std::string_view NodeValue(const uint8_t* buf, const Node& n) const {
    if (n.type != NodeType::kLeafValue) return std::string_view();
    if (hyperion::IsBareLeaf(n.header)) {
      return hyperion::BareValue(buf + n.value_pos);
    }
    return ValueAt(buf + n.value_pos);
  }
  // The value of suffix `sx` of `buf` ("" if it has none).
  std::string_view SuffixValue(const uint8_t* buf,
                               const hyperion::Suffix& sx) const {
    return sx.has_value ? ValueAt(buf + sx.value_pos) : std::string_view();
  }

  // --- split containers (split.cc, split.h)
  // The container behind pointer `hp` whose T-nodes would hold `t`.
  const uint8_t* ContainerFor(HyperionPointer hp, uint8_t t) const;
  // Resolves a pointer child's target (a container, piece or directory)
  // and asks for all its cache lines if it has at most options_.read_ahead
  // bytes.
  const uint8_t* ResolveAhead(HyperionPointer hp) const;
  // --- reading (read.cc): Get finds the key with one descent
  // (descent.h), whose path records nothing.
  struct ReadPath;
  // The n-th key below `region`: appends its bytes to `*key` and sets
  // `*value` (if non-null) to its value; false if there are no n+1 keys.
  bool NthInRegion(const Region& region, uint64_t n, std::string* key,
                   std::string* value) const;

  // --- scanning (scan.cc). ScanFrom and Emit return false once the
  // visitor does; Walk then returns at once. The key being rebuilt (in a fixed
  // buffer of kMaxStoredKeySize bytes, written in place), the walk's stack of
  // container levels, the visitor and the pairs it was given.
  struct ScanState {
    // One container level of the walk, as the span of nodes [p, end),
    // whose keys extend the `base` key bytes above them. No default member
    // initialisers (scan.cc says why).
    struct Span {
      const uint8_t* p;  // the next node
      const uint8_t* end;
      uint32_t base;
      uint8_t prev_t;  // key byte of the current T-node
      uint8_t prev_s;  // of the last S-node under it (0: none yet)
      // In a piece of a split container: its directory, and the piece
      // the span moves on to when its nodes end (null: none).
      const uint8_t* split;
      uint32_t next_piece;
    };

    explicit ScanState(ScanVisitor v) : visitor(v) {}
    void Enter(const uint8_t* p, const uint8_t* end, uint32_t base,
               uint8_t prev_t = 0, uint8_t prev_s = 0,
               const uint8_t* split = nullptr, uint32_t next_piece = 0);
    void Push(const Span& span);
    // Appends `n` bytes to the key: a suffix, mostly a few bytes long.
    // Out of line (scan.cc says why).
    ABSL_ATTRIBUTE_NOINLINE void Append(const uint8_t* bytes, size_t n);
    std::string_view Key() const { return std::string_view(key, length); }

    char key[kMaxStoredKeySize];
    size_t length = 0;
    // The bound: every entry is one container level (real or embedded; a
    // piece of a split container carries its directory in its own entry,
    // never in one of its own), and the entries' bases strictly increase
    // from the bottom of the stack up to the walk's current level. ScanFrom
    // enters one level per container on the start key's path, each two key
    // bytes deeper than the one before; the walk pushes its current level
    // only to enter a child two bytes deeper, and pops it before it goes
    // back up. A level holds keys longer than its base, which is even, so
    // the bases are the even numbers below the longest stored key's length
    // (kMaxStoredKeySize): 0, 2,
    // ..., 1024 for 1,025 bytes, (kMaxStoredKeySize + 1) / 2 entries.
    Span levels[(kMaxStoredKeySize + 1) / 2];
    size_t depth = 0;
    ScanVisitor visitor;
    uint64_t visited = 0;
  };
  // Descends along `bound` (non-empty) from the root container `root`
  // (descent.h): emits a suffix on the path that is in range, and enters
  // for the walk what follows the path at each level.
  struct ScanPath;
  bool ScanFrom(const Region& root, std::string_view bound,
                ScanState* state) const;
  // Visits every key of the levels entered in `state`, the top one first.
  void Walk(ScanState* state) const;
  // Looks at the next kPrefetchLookahead nodes from `p` (before `end`) for
  // an S-node with a pointer child and starts loading that container's
  // first bytes: called as the walk enters a pointer child, so the next one
  // at the same level is in cache by the time the walk gets there.
  void PrefetchNextChild(const uint8_t* p, const uint8_t* end) const;
  // The span of piece `piece` of split container `split`, whose keys
  // extend `base` key bytes (returned by value: scan.cc says why).
  ScanState::Span PieceSpan(const uint8_t* split, uint32_t piece,
                            uint32_t base) const;
  static constexpr int kPrefetchLookahead = 16;
  // Passes the key being rebuilt and its value to the visitor.
  bool Emit(std::string_view value, ScanState* state) const;
  // The value of the node whose header is `header` and whose value (if
  // any) starts at `*p`, which moves past it ("" if the node has none).
  std::string_view LeafValue(uint8_t header, const uint8_t** p) const;
  // The span of the nodes of container `c` (its first piece's if split),
  // whose keys extend `base` key bytes.
  ScanState::Span ContainerSpan(const uint8_t* c, uint32_t base) const;

  // --- checking (debug/check.cc): the checker walks the trie once, reading the
  // members above.
  class Checker;

  const HyperionOptions options_;
  mutable MemoryManager mm_;
  HyperionPointer root_;
  bool has_empty_key_ = false;
  HyperionPointer empty_value_;  // the empty key's value, null if empty
  uint64_t size_ = 0;
  uint64_t writes_since_compaction_ = 0;
  uint64_t compactions_ = 0;
  uint64_t splits_ = 0;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_HYPERION_TRIE_H_
