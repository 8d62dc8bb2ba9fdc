// The LeafList's nodes: a leaf holds at most `capacity` key-value pairs,
// packed into one storage block of its own together with three small arrays
// over them.
//
// Each pair has a slot number in [0, size): the slots are dense, a removal
// moves the last slot into the freed number.
//
//   offsets  per slot: where its pair starts in `data`.
//   by_tag   every slot as (16-bit tag << 16) | slot, ascending (the tag is
//            the top 16 bits of the key's CRC-32C). A point lookup jumps to
//            where its tag should sit if tags were uniform (tag x size /
//            2^16), steps to the first entry with its tag, and compares keys
//            only of entries with that tag: about one key comparison.
//   by_key   every slot; [0, sorted) in key order, the rest in insertion
//            order. Inserting appends; the whole array is sorted only when a
//            range operation (Scan, GetNth, a split or a merge) needs order,
//            so a burst of inserts pays for one sort, not one shift each.
//   data     the pairs, each a key length and a value length (one byte each
//            below 128, else two), the key, the value, appended one after
//            another. A replaced or removed pair leaves dead bytes behind,
//            reclaimed when the block is rebuilt.
//
// The block is sized to the pairs it holds plus some room (a quarter more),
// not to the leaf's capacity: a leaf half full after a split takes half the
// bytes. When an insert finds no room, a new block is allocated before
// anything changes (Reserve, which may throw std::bad_alloc) and the pairs
// are copied into it in key order, dead bytes dropped; so a Scan reads the
// pairs of a leaf mostly in address order.
//
// Thread safety: `lock` is a reader-writer spin lock word
// (kvlab/stage4/rw_spin_lock.h). Everything but `prev`, `next` and
// `version` is read under the lock, shared at least, and changed under it
// held exclusively, except that a holder of the shared lock may sort
// by_key while it holds `sorting` (EnsureSorted): readers of by_key order
// first wait until `sorted` equals `size`.

#ifndef KVLAB_STAGE4_WORMHOLE_SRC_LEAF_H_
#define KVLAB_STAGE4_WORMHOLE_SRC_LEAF_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rank_tree.h"

namespace kvlab::stage4::wormhole {

// The tag of a key with CRC-32C `hash`.
inline uint16_t TagOf(uint32_t hash) {
  return static_cast<uint16_t>(hash >> 16);
}

// The bytes a pair takes in a leaf's data.
inline uint32_t PairBytes(size_t key_size, size_t value_size) {
  return static_cast<uint32_t>((key_size < 128 ? 1 : 2) +
                               (value_size < 128 ? 1 : 2) + key_size +
                               value_size);
}

// A pair stored in a leaf's data, decoded.
struct Pair {
  std::string_view key;
  std::string_view value;
  uint32_t bytes() const { return PairBytes(key.size(), value.size()); }
};

// Storage for a leaf: arrays for `slots` pairs and `data_size` bytes of
// pairs, in one allocation.
struct Block {
  char* memory = nullptr;
  uint32_t slots = 0;
  uint32_t data_size = 0;
};

// Throws std::bad_alloc.
Block NewBlock(uint32_t slots, uint32_t data_size);
void FreeBlock(Block block);
size_t BlockBytes(const Block& block);

// Cache-line aligned, with what a point lookup reads (the lock, the size,
// the version and the arrays) in the lines right after the rank node.
struct alignas(64) Leaf : RankNode {
  uint32_t lock = 0;
  uint32_t size = 0;
  // The MetaTrieHT version in which this leaf's key range last changed
  // (split or merge); a reader that found it through an older table retries.
  std::atomic<uint64_t> version{0};
  uint32_t* by_tag = nullptr;
  uint32_t* offsets = nullptr;
  char* data = nullptr;
  uint16_t* by_key = nullptr;
  Block block;             // empty while the leaf holds no pair
  uint32_t data_used = 0;  // bytes of data written, dead ones included
  uint32_t data_dead = 0;  // of which no pair uses any more
  uint32_t capacity = 0;
  std::atomic<uint32_t> sorted{0};
  std::atomic<uint32_t> sorting{0};
  // Set (under the exclusive lock) when a merge emptied this leaf into its
  // left neighbour; it is freed once no reader can reach it.
  bool dead = false;
  std::atomic<Leaf*> prev{nullptr};
  std::atomic<Leaf*> next{nullptr};
  // Keys of this leaf are >= anchor (and < the next leaf's anchor).
  std::string anchor;
  // Keys added (+) and removed (-) since the rank treap last counted this
  // leaf: its treap count plus rank_delta is its size. Changed by the
  // leaf's writers (with the leaf locked), taken by the treap's users
  // (under its mutex). A leaf with a delta is on the store's list of
  // leaves to count (rank_dirty set, linked through dirty_next).
  std::atomic<int32_t> rank_delta{0};
  std::atomic<bool> rank_dirty{false};
  Leaf* dirty_next = nullptr;

  static uint16_t TagAt(uint32_t entry) {
    return static_cast<uint16_t>(entry >> 16);
  }
  static uint32_t SlotAt(uint32_t entry) { return entry & 0xffff; }

  // The pair in slot `slot`.
  Pair PairIn(uint32_t slot) const;
  std::string_view KeyIn(uint32_t slot) const;
  // The pair at index `i` of by_tag and of by_key.
  Pair PairByTag(uint32_t i) const { return PairIn(SlotAt(by_tag[i])); }
  Pair PairByKey(uint32_t i) const { return PairIn(by_key[i]); }
};

// A leaf for up to `capacity` pairs with the given anchor, without storage
// yet; throws std::bad_alloc.
Leaf* NewLeaf(uint32_t capacity, std::string_view anchor);
// Frees the leaf and its storage.
void FreeLeaf(Leaf* leaf);
// sizeof(Leaf), its storage block and its anchor's bytes.
size_t LeafBytes(const Leaf* leaf);

// The index in by_tag of the pair whose key is `key` (tag `tag`), or -1.
int FindInLeaf(const Leaf& leaf, std::string_view key, uint16_t tag);

// Makes room for `slots` more pairs (0 or 1) and `bytes` more bytes of
// pairs, rebuilding the storage if needed; returns the change of
// LeafBytes. Throws std::bad_alloc with nothing changed.
int64_t Reserve(Leaf* leaf, uint32_t slots, uint32_t bytes);
// Adds a pair whose key is absent (tag `tag`); Reserve made room.
void InsertInLeaf(Leaf* leaf, std::string_view key, std::string_view value,
                  uint16_t tag);
// Gives the pair at by_tag index `at` the value `value`; Reserve made room
// for a pair of `value`'s size unless it fits where the old value is.
void ReplaceInLeaf(Leaf* leaf, int at, std::string_view value);
// True if `value` replaces the pair at `at` without more room.
bool ReplacesInPlace(const Leaf& leaf, int at, std::string_view value);
// Takes out the pair at by_tag index `at`; its bytes stay in data, dead,
// until the storage is rebuilt (or freed, when the leaf becomes empty:
// returns the change of LeafBytes). Never allocates.
int64_t RemoveFromLeaf(Leaf* leaf, int at);
// Rebuilds the storage without dead bytes if they are more than half of
// it; returns the change of LeafBytes. Skips the rebuild if memory runs
// out (the leaf stays as it is).
int64_t MaybeShrink(Leaf* leaf);

// Sorts by_key; the caller holds the exclusive lock.
void SortLeaf(Leaf* leaf);
// Sorts by_key if needed; the caller holds the lock, shared or exclusive.
void EnsureSorted(Leaf* leaf);
// With by_key sorted: the index of the first key >= `key`.
uint32_t LowerBoundInLeaf(const Leaf& leaf, std::string_view key);

// The storage a split of `from` at by_key index `at` gives each half, with
// room for one more pair of `extra` bytes on either side; throws
// std::bad_alloc. `from` is sorted.
void PrepareSplit(const Leaf& from, uint32_t at, uint32_t extra, Block* left,
                  Block* right);
// With `from` sorted and `to` empty: moves by_key[at, size) of `from` to
// `to`, both staying sorted, into the storage PrepareSplit made (the old
// block of `from` is freed). Returns the change of both LeafBytes.
int64_t MoveTail(Leaf* from, uint32_t at, Leaf* to, Block left, Block right);
// The storage a merge of `from` into `to` needs: an empty block if `to`
// has room already or either leaf is empty, else a new one; throws
// std::bad_alloc.
Block PrepareMerge(const Leaf& from, const Leaf& to);
// With both sorted, every key of `from` above those of `to`, and the sum of
// sizes within to's capacity: moves all of `from` to the end of `to`, using
// `block` from PrepareMerge. Returns the change of both LeafBytes.
int64_t MoveAll(Leaf* from, Leaf* to, Block block);

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_LEAF_H_
