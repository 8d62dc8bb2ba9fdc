// TrieWrite: one Put or one Delete on a HyperionTrie (hyperion_trie.h), and
// everything that changes the trie's bytes. The trie reads and keeps its
// invariants; a write object is made for one operation, holds that
// operation's path (the real containers it passes and the embedded ones
// around the position it changes), its undo log and the trie's memory
// manager, and owns every step of the change: the splice, ejection, the
// key counts on the path, the jump successors and tables, and splits.
//
// Out of memory: Put and Delete record every change before making it and
// free what they give up only when done (undo_log.h); if an allocation
// fails part way, the records undo the changes newest first, which takes no
// memory, so it cannot fail in turn, and the trie's own fields are set back.
//
// Not thread-safe: one write at a time per trie, as the trie's writes.

#ifndef KVLAB_STAGE5_WRITE_H_
#define KVLAB_STAGE5_WRITE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "hyperion_trie.h"
#include "kvlab/stage5/memory_manager.h"
#include "node.h"
#include "undo_log.h"

namespace kvlab::stage5 {

// True if a T-node of a real container with `children` S-children and
// `keys` keys at and below it carries a T-node jump table (tnode_table.h)
// under `options`.
inline bool WantsTNodeTable(const HyperionOptions& options, uint32_t children,
                            uint64_t keys) {
  return children > options.jump_successor && children > options.tnode_table &&
         keys >= options.tnode_table_keys;
}

class TrieWrite {
 public:
  explicit TrieWrite(HyperionTrie* trie)
      : trie_(*trie), options_(trie->options_), mm_(trie->mm_) {}
  TrieWrite(const TrieWrite&) = delete;
  TrieWrite& operator=(const TrieWrite&) = delete;

  // Stores `value` under `key` (up to kMaxStoredKeySize bytes); true if it
  // replaced a value. Throws std::bad_alloc, the trie as it was, if memory
  // runs out. One call per object.
  bool Put(std::string_view key, std::string_view value);
  // Removes `key`; false if it was not stored. Out of memory as Put.
  bool Delete(std::string_view key);

 private:
  using ChildKind = hyperion::ChildKind;
  using Node = hyperion::Node;
  using NodeType = hyperion::NodeType;
  using Region = hyperion::Region;

  // One real container on the path of the write: `hp`, and where its
  // pointer is stored: at offset `ref` of the previous level's container
  // (level 0 is the root, whose pointer is the trie's root_); its T-nodes
  // hold key byte `depth`; the one on the path (or its insertion point) is
  // at `t_pos`, after a sibling with key byte `t_prev`, found after walking
  // `t_steps` T-nodes. `changed` once a splice touched it (its used bytes
  // were then `used_before`), `ejected` if the write made it from an
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
  // Kept on the stack for paths of usual depth: a write allocates nothing
  // on the heap for its own bookkeeping.
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

  // Runs `write` (Insert or Erase) and commits the undo log. If it throws
  // std::bad_alloc, undoes what it changed, restores the trie's fields and
  // rethrows.
  bool Guarded(absl::FunctionRef<bool()> write);

  // --- Put (insert.cc): finds the key with one descent (descent.h), whose
  // path records the levels and embeds on the way down.
  struct InsertPath;
  bool Insert(std::string_view key, std::string_view value);
  // Put of the empty key, which lives beside the root.
  bool InsertEmptyKey(std::string_view value);
  // Put of a non-empty key into a trie without one: the root container.
  void InsertFirst(std::string_view key, std::string_view value_enc);
  // Put below S-node d.s.node, the key going on by `rest`, which has no
  // child or a suffix (d.stop): adds the child, or replaces the suffix's
  // value (then returns true and sets `*old_chunk` to the old value's
  // chunk, if external), or splits the suffix.
  bool AddBelowS(const hyperion::Descent& d, std::string_view rest,
                 std::string_view value_enc, HyperionPointer* old_chunk);
  // Sets the T-node on `level`'s path to the one search `t` found (or its
  // insertion point).
  static void RecordT(Level* level, const hyperion::SiblingSearch& t) {
    level->t_pos = t.pos;
    level->t_prev = t.prev;
    level->t_steps = t.steps;
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

  // --- memory (values.cc): chunks a write allocates come from
  // AllocateChunk (or NewChunkWith, which also fills one with `bytes`), and
  // chunks it gives up go to undo_.FreeLater; every byte it overwrites in
  // place is saved with undo_.SaveBytes or undo_.SaveSplice first.
  HyperionPointer AllocateChunk(size_t size, Fit fit = Fit::kRoomToGrow) {
    return undo_.Allocate([&] { return mm_.Allocate(size, fit); });
  }
  HyperionPointer NewChunkWith(std::string_view bytes);
  // Sets `*out` to the encoding of `value`; allocates a chunk for a value
  // longer than options_.inline_value.
  void EncodeValue(std::string_view value, EncodedValue* out);

  // --- changing containers (splice.cc)
  uint8_t* Base(size_t i) const {
    return static_cast<uint8_t*>(mm_.Resolve(levels_[i].hp));
  }
  void SetLevelPointer(size_t i, HyperionPointer hp);
  // Adds `delta` to the key counts of every level's container below the
  // root: the pointer child's count, and a piece's entry in its directory.
  void AddToCounts(int delta);
  // Replaces `old_len` bytes at `pos` of the last level's container with
  // `bytes`, moving the tail, resizing the container in 32-byte steps and
  // updating the sizes of embeds_ (outermost first). An embedded container
  // that would pass the budget is ejected first; each ejection appends a
  // level and rebases embeds_ and `pos`.
  void Splice(uint32_t pos, uint32_t old_len, std::string_view bytes);
  // The same at level `li` without the embeds; deeper levels' `ref`s may go
  // stale.
  void RawSpliceAt(size_t li, uint32_t pos, uint32_t old_len,
                   std::string_view bytes);
  void RawSplice(uint32_t pos, uint32_t old_len, std::string_view bytes) {
    RawSpliceAt(levels_.size() - 1, pos, old_len, bytes);
  }
  // Resizes `hp` to `new_size` bytes where it is, which mm_.ResizesInPlace
  // must allow.
  void ResizeInPlace(HyperionPointer hp, size_t new_size);
  // Moves the outermost of embeds_ into a container of its own.
  void Eject(uint32_t* pos);
  // Puts `nodes` (one new sibling with key byte `key` and its subtree,
  // delta-encoded after search.prev) at the insertion point of `search`,
  // and re-encodes the sibling after it to follow `key`.
  void InsertSibling(const hyperion::SiblingSearch& search, uint8_t key,
                     std::string nodes);
  // Brings the jump successors and the jump table of level `i` up to date
  // after a write on `key` that changed the number of keys by `key_delta`
  // (-1, 0, 1). Run deepest level first: a level's pointer lives in the
  // level above, which must not have moved yet. Runs once per level.
  void FinishLevel(size_t i, std::string_view key, int key_delta);

  // --- split containers (split.cc, split.h)
  // The level of the container behind the pointer child at `ref` of
  // `buf`, whose T-nodes hold key[depth]: the piece holding key[depth] if
  // the child is split.
  Level ChildLevel(const uint8_t* buf, uint32_t ref, std::string_view key,
                   size_t depth) const;
  // The size past which a container of `size` bytes holding `keys` keys is
  // cut (before the delay): split_large_above for large nodes.
  uint64_t SplitThreshold(uint32_t size, uint64_t keys) const;
  // The smaller of the two, whatever the key count.
  uint64_t LowestSplitThreshold() const;
  // After a Put, cuts level `i` (below the root) in two if it has passed
  // its split threshold; its pointer (at `ref` of level i-1, which must not
  // have moved since the descent) or its directory entry is replaced.
  void SplitIfLarge(size_t i);
  // After a Delete emptied piece level `i`: drops it from its directory,
  // or, if one piece is left, points the parent at that piece instead.
  void RemovePiece(size_t i);

  // --- jump successors and T-node tables (jump_upkeep.cc)
  // Only the T-node on the key's path (key byte levels_[i].depth, at
  // levels_[i].t_pos) can be stale, or every T-node if the level was just
  // ejected.
  void FinishJumpSuccessors(size_t i, std::string_view key, int key_delta);
  // Rewrites the jump successor of T-node `t` (in level i, decoded there)
  // with stored jump `jump` and `keys` keys.
  void SetJumpSuccessor(size_t i, const Node& t, uint32_t jump, uint64_t keys);
  // A container's node bytes with every T-node's jump successor and T-node
  // jump table added, updated or removed as options_.jump_successor and
  // options_.tnode_table ask.
  std::string WithJumpSuccessors(std::string_view nodes) const;
  // False if T-node `t`, which has a jump successor and now `keys` keys,
  // surely keeps having a table or not (s_added: a Put gave it a child).
  bool TNodeTableMayFlip(const Node& t, bool s_added, uint64_t keys,
                         int key_delta) const;
  // Brings T-node `t`'s table (if any) up to date in place after a write
  // on `key` at `level` that removed no S-child, changed the container by
  // `bytes` and the keys by `key_delta`; false if it must be rebuilt
  // instead.
  static bool UpdateTNodeTable(uint8_t* buf, const Node& t, const Level& level,
                               std::string_view key, int64_t bytes,
                               int key_delta);

  // --- container jump tables (jump_upkeep.cc, jump_table.h)
  // Moves the entries after the path's T-node by the level's change in
  // bytes and keys, drops the entry of a T-node the write removed, and
  // rebuilds the table if the path's lookup walked past more than
  // options_.jump_table T-nodes of a container of options_.jump_table_min
  // bytes or more.
  void FinishJumpTable(size_t i, std::string_view key, int key_delta);
  // Replaces level `i`'s table with one sized for its T-nodes (none for
  // few) whose entries are spread evenly over them.
  void RebuildJumpTable(size_t i);

  // --- Delete (erase.cc): one frame per container level a deletion
  // passes through, and the path that records them (descent.h).
  struct Frame;
  struct ErasePath;
  bool Erase(std::string_view key);
  // What a deletion takes from a frame: the value of its T-node or of its
  // S-node, or the S-node's child.
  enum class Loss { kTValue, kSValue, kSChild };
  // Takes `loss` from frame `frames[f]` (of a deletion's frames, whose
  // levels levels_ holds up to the frame's), removing the nodes that no
  // longer lead to a key; sets `*freed_chunk` to a lost value's external
  // chunk. Returns true if the frame's region is left empty.
  bool RemoveFromFrame(const Frame* frames, size_t f, Loss loss,
                       HyperionPointer* freed_chunk);
  // Removes node `n` of region `r` with its subtree, which ends at `end`,
  // and re-encodes the next sibling (an S-node if `s_level`) against
  // `prev`, the key byte of the sibling before `n`.
  void RemoveNode(const Region& r, const Node& n, uint32_t end, uint8_t prev,
                  bool s_level);

  HyperionTrie& trie_;
  const HyperionOptions& options_;
  MemoryManager& mm_;
  hyperion::UndoLog undo_;
  LevelPath levels_;
  EmbedPath embeds_;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_WRITE_H_
