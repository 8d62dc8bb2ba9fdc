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
// Out of memory: each write records every change before making it and frees
// what it gives up only when it is done (undo_log.h); if an allocation fails
// part way, the records undo the changes newest first, which takes no memory,
// so it cannot fail in turn.

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
#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "container_scan.h"
#include "descent.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/stage5/memory_manager.h"
#include "node.h"
#include "split.h"
#include "undo_log.h"

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
  // One real container on the path of an operation: `hp`, and where its
  // pointer is stored: at offset `ref` of the previous level's container
  // (level 0 is the root, whose pointer is root_); its T-nodes hold key
  // byte `depth`; the one on the path (or its insertion point) is at
  // `t_pos`, after a sibling with key byte `t_prev`, found after walking
  // `t_steps` T-nodes. `changed` once a splice touched it (its used bytes
  // were then `used_before`), `ejected` if the operation made it from an
  // embedded container, `finished` once FinishLevel ran.
  struct Level {
    HyperionPointer hp;
    uint32_t ref = 0;
    size_t depth = 0;
    uint32_t t_pos = 0;
    uint8_t t_prev = 0;
    uint32_t t_steps = 0;
    uint32_t used_before = 0;
    bool changed = false;
    bool ejected = false;
    // A Put added an S-child to the path's T-node, `s_offset` bytes after
    // its first child; a Delete removed one (or the T-node).
    bool s_added = false;
    uint32_t s_offset = 0;
    bool s_removed = false;
    bool finished = false;
    // A piece of a split container: its pointer and key count are entry
    // `piece` of directory `split`, whose pointer is at `ref`.
    HyperionPointer split{};
    uint32_t piece = 0;
  };
  // An embedded container enclosing the position being changed: offsets
  // (in the real container) of its size byte and of its S-node's header,
  // and the key byte its T-nodes hold.
  struct Embed {
    uint32_t size_pos = 0;
    uint32_t node_pos = 0;
    size_t depth = 0;
  };
  // The levels and the enclosing embedded containers of one operation's
  // path, kept on the stack for paths of usual depth: a Put or Delete
  // allocates nothing on the heap for its own bookkeeping.
  using LevelPath = absl::InlinedVector<Level, 8>;
  using EmbedPath = absl::InlinedVector<Embed, 4>;
  // A value's encoding (node.h): a length byte and the bytes inline, or a
  // zero byte and an external chunk's pointer; no bytes for "".
  struct EncodedValue {
    uint8_t bytes[1 + hyperion::kMaxInlineValue];
    uint32_t size = 0;
    std::string_view view() const {
      return std::string_view(reinterpret_cast<const char*>(bytes), size);
    }
  };
  // A key remainder and its encoded value, for building new nodes.
  struct Entry {
    std::string_view key;
    std::string_view value_enc;
  };

  // Put and Delete proper (insert.cc, erase.cc); PutImpl and DeleteImpl
  // (write.cc) run them through Write and add the compaction check. Both, Get
  // and a scan's start find the key with one descent (descent.h); each passes
  // its own path, which records what it needs on the way down.
  bool Insert(std::string_view key, std::string_view value);
  bool Erase(std::string_view key);
  struct ReadPath;
  struct WritePath;
  // Sets the T-node on `level`'s path to the one search `t` found (or its
  // insertion point).
  static void RecordT(Level* level, const hyperion::SiblingSearch& t) {
    level->t_pos = t.pos;
    level->t_prev = t.prev;
    level->t_steps = t.steps;
  }
  // Put, the key going on by `rest` below S-node d.s.node, which has no
  // child or a suffix (d.stop): adds the child, or replaces the suffix's
  // value (then returns true and sets `*old_chunk` to the old value's
  // chunk, if external), or splits the suffix.
  bool AddBelowS(LevelPath* levels, EmbedPath* embeds,
                 const hyperion::Descent& d, std::string_view rest,
                 std::string_view value_enc, HyperionPointer* old_chunk);
  // Runs `write` (Insert or Erase) with a fresh undo log and returns what it
  // returns. If it throws std::bad_alloc, undoes what it changed, restores
  // the members it set, and rethrows.
  bool Write(absl::FunctionRef<bool()> write);

  // --- a write's memory (undo_log.h): chunks a write allocates come from
  // AllocateChunk (or NewChunkWith, which also fills one with `bytes`), and
  // chunks it gives up go to undo_.FreeLater; every byte it overwrites in
  // place is saved with undo_.SaveBytes or undo_.SaveSplice first.
  HyperionPointer AllocateChunk(size_t size, Fit fit = Fit::kRoomToGrow) {
    return undo_.Allocate([&] { return mm_.Allocate(size, fit); });
  }
  HyperionPointer NewChunkWith(std::string_view bytes);  // values.cc
  // Resizes `hp` to `new_size` bytes where it is, which mm_.ResizesInPlace
  // must allow (splice.cc).
  void ResizeInPlace(HyperionPointer hp, size_t new_size);

  // --- compaction (compact.cc; its check after every write in write.cc)
  // Runs Compact() when options_.compact asks for it.
  void CompactIfFragmented();
  // Replaces every pointer stored below `region` by its forward.
  void ForwardRegion(const Region& region);
  // The same for a value encoding, if external.
  void ForwardValue(uint8_t* enc);

  // --- values (values.cc)
  // Sets `*out` to the encoding of `value`; allocates a chunk for a value
  // longer than options_.inline_value (AllocateChunk).
  void EncodeValue(std::string_view value, EncodedValue* out);
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

  // --- building nodes (insert.cc)
  // Appends the T-nodes (and below) for `entries` (sorted, distinct, each
  // longer than `depth`), keys read from byte `depth`; the first T-node's
  // delta counts from `prev`.
  void BuildTLevel(const Entry* entries, size_t n, size_t depth, uint8_t prev,
                   std::string* out);
  // The same for S-nodes, all entries sharing their byte depth-1.
  void BuildSLevel(const Entry* entries, size_t n, size_t depth, uint8_t prev,
                   std::string* out);
  // The child for `entries` (each longer than `depth`, read from `depth`):
  // a suffix, an embedded container or a new container. Returns its kind.
  ChildKind BuildChild(const Entry* entries, size_t n, size_t depth,
                       std::string* out);
  // A container holding `payload` (nodes, after the header), with its free
  // tail under 32 bytes.
  HyperionPointer NewContainer(std::string_view payload,
                               Fit fit = Fit::kRoomToGrow);

  // --- changing containers (splice.cc)
  uint8_t* Base(const LevelPath& levels, size_t i) const {
    return static_cast<uint8_t*>(mm_.Resolve(levels[i].hp));
  }
  void SetLevelPointer(LevelPath* levels, size_t i, HyperionPointer hp);
  // Adds `delta` to the key counts of every level's container below the
  // root: the pointer child's count, and a piece's entry in its directory.
  void AddToCounts(const LevelPath& levels, int delta);

  // --- split containers (split.cc, split.h)
  // The level of the container behind the pointer child at `ref` of
  // `buf`, whose T-nodes hold key[depth]: the piece holding key[depth] if
  // the child is split.
  Level ChildLevel(const uint8_t* buf, uint32_t ref, std::string_view key,
                   size_t depth) const;
  // The container behind pointer `hp` whose T-nodes would hold `t`.
  const uint8_t* ContainerFor(HyperionPointer hp, uint8_t t) const;
  // Resolves a pointer child's target (a container, piece or directory)
  // and asks for all its cache lines if it has at most options_.read_ahead
  // bytes.
  const uint8_t* ResolveAhead(HyperionPointer hp) const;
  // The size past which a container of `size` bytes holding `keys` keys is
  // cut (before the delay): split_large_above for large nodes.
  uint64_t SplitThreshold(uint32_t size, uint64_t keys) const;
  // The smaller of the two, whatever the key count.
  uint64_t LowestSplitThreshold() const;
  // After a Put, cuts level `i` (below the root) in two if it has passed
  // its split threshold; its pointer (at `ref` of level i-1, which must not
  // have moved since the descent) or its directory entry is replaced.
  void SplitIfLarge(LevelPath* levels, size_t i);
  // After a Delete emptied piece level `i`: drops it from its directory,
  // or, if one piece is left, points the parent at that piece instead.
  void RemovePiece(LevelPath* levels, size_t i);
  // Replaces `old_len` bytes at `pos` of the last level's container with
  // `bytes`, moving the tail, resizing the container in 32-byte steps and
  // updating the sizes of `embeds` (outermost first). An embedded container
  // that would pass the budget is ejected first; each ejection appends a
  // level and rebases `embeds` and `pos`.
  void Splice(LevelPath* levels, EmbedPath* embeds, uint32_t pos,
              uint32_t old_len, std::string_view bytes);
  void RawSplice(LevelPath* levels, uint32_t pos, uint32_t old_len,
                 std::string_view bytes) {
    RawSpliceAt(levels, levels->size() - 1, pos, old_len, bytes);
  }
  // The same at level `li`; deeper levels' `ref`s may go stale.
  void RawSpliceAt(LevelPath* levels, size_t li, uint32_t pos, uint32_t old_len,
                   std::string_view bytes);
  void Eject(LevelPath* levels, EmbedPath* embeds, uint32_t* pos);
  // Puts `nodes` (one new sibling with key byte `key` and its subtree,
  // delta-encoded after search.prev) at the insertion point of `search`,
  // and re-encodes the sibling after it to follow `key`.
  void InsertSibling(LevelPath* levels, EmbedPath* embeds,
                     const hyperion::SiblingSearch& search, uint8_t key,
                     std::string nodes);

  // Brings the jump successors and the jump table of level `i` up to date
  // after an operation on `key` that changed the number of keys by
  // `key_delta` (-1, 0, 1). Run deepest level first: a level's pointer
  // lives in the level above, which must not have moved yet. Runs once per
  // level.
  void FinishLevel(LevelPath* levels, size_t i, std::string_view key,
                   int key_delta);

  // --- jump successors (jump_upkeep.cc)
  // Only the T-node on the key's path (key byte levels[i].depth, at
  // levels[i].t_pos) can be stale, or every T-node if the level was just
  // ejected.
  void FinishJumpSuccessors(LevelPath* levels, size_t i, std::string_view key,
                            int key_delta);
  // Rewrites the jump successor of T-node `t` (in level i, decoded there)
  // with stored jump `jump` and `keys` keys.
  void SetJumpSuccessor(LevelPath* levels, size_t i, const Node& t,
                        uint32_t jump, uint64_t keys);
  // A container's node bytes with every T-node's jump successor and T-node
  // jump table added, updated or removed as options_.jump_successor and
  // options_.tnode_table ask.
  std::string WithJumpSuccessors(std::string_view nodes) const;

  // --- T-node jump tables (tnode_table.h; upkeep in jump_upkeep.cc)
  // True if a T-node of a real container with `children` S-children and
  // `keys` keys at and below it carries a table.
  bool WantsTNodeTable(uint32_t children, uint64_t keys) const;
  // False if T-node `t`, which has a jump successor and now `keys` keys,
  // surely keeps having a table or not (s_added: a Put gave it a child).
  bool TNodeTableMayFlip(const Node& t, bool s_added, uint64_t keys,
                         int key_delta) const;
  // Brings T-node `t`'s table (if any) up to date in place after an
  // operation on `key` at `level` that removed no S-child, changed the
  // container by `bytes` and the keys by `key_delta`; false if it must be
  // rebuilt instead.
  static bool UpdateTNodeTable(uint8_t* buf, const Node& t, const Level& level,
                               std::string_view key, int64_t bytes,
                               int key_delta);

  // --- container jump tables (jump_table.cc, jump_table.h)
  // Moves the entries after the path's T-node by the level's change in
  // bytes and keys, drops the entry of a T-node the operation removed, and
  // rebuilds the table if the path's lookup walked past more than
  // options_.jump_table T-nodes of a container of options_.jump_table_min
  // bytes or more.
  void FinishJumpTable(LevelPath* levels, size_t i, std::string_view key,
                       int key_delta);
  // Replaces level `i`'s table with one sized for its T-nodes (none for
  // few) whose entries are spread evenly over them.
  void RebuildJumpTable(LevelPath* levels, size_t i);

  // --- reading (read.cc)
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

  // --- erasing (erase.cc): one frame per container level a deletion
  // passes through, and the path that records them (descent.h).
  struct Frame;
  struct ErasePath;
  // What a deletion takes from a frame: the value of its T-node or of its
  // S-node, or the S-node's child.
  enum class Loss { kTValue, kSValue, kSChild };
  // Takes `loss` from frame `frames[f]` (of a deletion's frames, which
  // `levels` holds up to the frame's), removing the nodes that no longer
  // lead to a key; sets `*freed_chunk` to a lost value's external chunk.
  // Returns true if the frame's region is left empty.
  bool RemoveFromFrame(LevelPath* levels, const Frame* frames, size_t f,
                       Loss loss, HyperionPointer* freed_chunk);
  // Removes node `n` of region `r` with its subtree, which ends at `end`,
  // and re-encodes the next sibling (an S-node if `s_level`) against
  // `prev`, the key byte of the sibling before `n`.
  void RemoveNode(LevelPath* levels, EmbedPath* embeds, const Region& r,
                  const Node& n, uint32_t end, uint8_t prev, bool s_level);

  // --- checking (debug/check.cc): the checker walks the trie once, reading the
  // members above.
  class Checker;

  const HyperionOptions options_;
  mutable MemoryManager mm_;
  hyperion::UndoLog undo_;  // of the write in progress
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
