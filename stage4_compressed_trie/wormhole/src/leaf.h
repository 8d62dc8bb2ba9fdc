// The LeafList's nodes: a leaf holds at most `capacity` key-value pairs in
// two arrays over the same items.
//
//   by_tag  every item as (16-bit tag << 48) | address, ascending by tag
//           (the top 16 bits of the key's CRC-32C). A point lookup jumps to
//           where its tag should sit if tags were uniform (tag x size /
//           2^16), steps to the first entry with its tag, and compares keys
//           only of entries with that tag: about one key comparison.
//   by_key  every item; [0, sorted) in key order, the rest in insertion
//           order. Inserting appends; the array is put in order only when a
//           range operation (Scan, GetNth, a split or a merge) needs it, so a
//           burst of inserts pays for one sort, not one shift each, and a
//           few inserts between range reads cost a binary search each.
//
// Items are single blocks: an 8-byte header, the key, the value.
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

struct Item {
  uint16_t key_size;
  uint16_t value_size;
  uint16_t tag;
  uint16_t unused;

  const char* bytes() const { return reinterpret_cast<const char*>(this + 1); }
  std::string_view key() const { return {bytes(), key_size}; }
  std::string_view value() const { return {bytes() + key_size, value_size}; }
};

inline size_t ItemBytes(const Item* item) {
  return sizeof(Item) + item->key_size + item->value_size;
}

// The tag of a key with CRC-32C `hash`.
inline uint16_t TagOf(uint32_t hash) {
  return static_cast<uint16_t>(hash >> 16);
}

// A new item; throws std::bad_alloc.
Item* NewItem(std::string_view key, std::string_view value, uint16_t tag);
void FreeItem(Item* item);

struct Leaf : RankNode {
  uint32_t lock = 0;
  uint32_t size = 0;
  uint32_t capacity = 0;
  std::atomic<uint32_t> sorted{0};
  std::atomic<uint32_t> sorting{0};
  // Set (under the exclusive lock) when a merge emptied this leaf into its
  // left neighbour; it is freed once no reader can reach it.
  bool dead = false;
  // The MetaTrieHT version in which this leaf's key range last changed
  // (split or merge); a reader that found it through an older table retries.
  std::atomic<uint64_t> version{0};
  std::atomic<Leaf*> prev{nullptr};
  std::atomic<Leaf*> next{nullptr};
  // Keys of this leaf are >= anchor (and < the next leaf's anchor).
  std::string anchor;
  uint64_t* by_tag = nullptr;
  Item** by_key = nullptr;

  static Item* ItemOf(uint64_t entry) {
    return reinterpret_cast<Item*>(entry & ((uint64_t{1} << 48) - 1));
  }
  static uint64_t EntryOf(const Item* item) {
    return (uint64_t{item->tag} << 48) | reinterpret_cast<uintptr_t>(item);
  }
};

// A leaf with room for `capacity` pairs and the given anchor, in one block
// with its arrays; throws std::bad_alloc.
Leaf* NewLeaf(uint32_t capacity, std::string_view anchor);
// Frees the leaf (not its items).
void FreeLeaf(Leaf* leaf);
size_t LeafBytes(const Leaf* leaf);

// The index in by_tag of the item whose key is `key` (tag `tag`), or -1.
int FindInLeaf(const Leaf& leaf, std::string_view key, uint16_t tag);
// Adds `item` (its key absent, size < capacity).
void InsertInLeaf(Leaf* leaf, Item* item);
// Puts `item` in place of the one at by_tag index `at` (same key); returns
// the old one.
Item* ReplaceInLeaf(Leaf* leaf, int at, Item* item);
// Takes out the item at by_tag index `at` and returns it.
Item* RemoveFromLeaf(Leaf* leaf, int at);

// Sorts by_key; the caller holds the exclusive lock.
void SortLeaf(Leaf* leaf);
// Sorts by_key if needed; the caller holds the lock, shared or exclusive.
void EnsureSorted(Leaf* leaf);
// With by_key sorted: the index of the first key >= `key`.
uint32_t LowerBoundInLeaf(const Leaf& leaf, std::string_view key);

// With `from` sorted and `to` empty: moves by_key[at, size) of `from` to
// `to`, both staying sorted.
void MoveTail(Leaf* from, uint32_t at, Leaf* to);
// With both sorted, every key of `from` above those of `to`, and the sum of
// sizes within to's capacity: moves all of `from` to the end of `to`.
void MoveAll(Leaf* from, Leaf* to);

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_LEAF_H_
