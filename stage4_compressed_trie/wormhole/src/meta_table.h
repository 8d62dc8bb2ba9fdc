// MetaTrieHT: the trie of anchors, stored as a hash table from every anchor
// and every prefix of one to its trie node (MetaNode).
//
// A node records which bytes continue its prefix to a longer node (a
// 256-bit child bitmap), whether an anchor ends exactly here (anchor_leaf:
// the paper's smallest token, kept as a field of the node rather than as a
// byte, so it never collides with a real \0), and the left-most and
// right-most leaves whose anchors lie below it. The table holds every prefix
// of every anchor, so prefix presence is monotone in the length: a binary
// search over lengths finds a key's longest prefix in the table.
//
// The table is open addressing over 64-byte slots of 8 entries; an entry is
// (16-bit tag << 48) | node address, the tag being the top 16 bits of the
// prefix's CRC-32C. Probing compares tags inside the slot first and touches
// a node only on a tag match. A key's home slot is its hash's low bits; an
// insert that finds the slot full marks it overflowed and tries the next
// one, and a lookup goes on past a slot only if it is marked.
//
// Thread safety: lookups may run concurrently with each other; updates need
// exclusive use of this copy (the store keeps two and updates the one no
// reader sees).

#ifndef KVLAB_STAGE4_WORMHOLE_SRC_META_TABLE_H_
#define KVLAB_STAGE4_WORMHOLE_SRC_META_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kvlab::stage4::wormhole {

struct Leaf;

struct MetaNode {
  uint32_t hash = 0;  // CRC-32C of the prefix
  uint32_t size = 0;  // prefix length
  Leaf* anchor_leaf = nullptr;
  Leaf* lmost = nullptr;
  Leaf* rmost = nullptr;
  uint64_t bitmap[4] = {0, 0, 0, 0};

  const char* bytes() const { return reinterpret_cast<const char*>(this + 1); }
  std::string_view prefix() const { return {bytes(), size}; }
  bool HasChild(uint8_t b) const { return (bitmap[b >> 6] >> (b & 63)) & 1; }
  void SetChild(uint8_t b) { bitmap[b >> 6] |= uint64_t{1} << (b & 63); }
  void ClearChild(uint8_t b) { bitmap[b >> 6] &= ~(uint64_t{1} << (b & 63)); }
  bool HasChildren() const {
    return (bitmap[0] | bitmap[1] | bitmap[2] | bitmap[3]) != 0;
  }
  // The largest child byte below `b`, or -1.
  int ChildBelow(int b) const;
  // The smallest and largest child bytes, or -1 if none.
  int FirstChild() const;
  int LastChild() const;
};

// A node for `prefix` with hash `hash`, in one block; throws std::bad_alloc.
MetaNode* NewMetaNode(std::string_view prefix, uint32_t hash);
void FreeMetaNode(MetaNode* node);
size_t MetaNodeBytes(const MetaNode* node);

class MetaTable {
 public:
  struct alignas(64) Slot {
    uint64_t entries[8];
  };
  // Slot storage allocated ahead of an update (Prepare), installed by
  // Install, which cannot fail.
  struct Storage {
    Slot* slots = nullptr;
    uint8_t* overflowed = nullptr;
    size_t slot_count = 0;
  };

  MetaTable() = default;
  ~MetaTable();  // frees the slots, not the nodes
  MetaTable(const MetaTable&) = delete;
  MetaTable& operator=(const MetaTable&) = delete;

  // A node whose 16-bit tag matches `hash`'s, found without touching any
  // node: it may be another prefix's (the caller verifies the final answer
  // of a search once, length and bytes).
  const MetaNode* FindByTag(uint32_t hash) const;
  // The node of prefix `a` + `b` (hash `hash`), compared byte by byte.
  MetaNode* Find(uint32_t hash, std::string_view a,
                 std::string_view b = {}) const;

  // Storage for `more` nodes beyond the current count, if the table needs
  // more room than it has (else empty storage); throws std::bad_alloc.
  Storage Prepare(size_t more) const;
  // Moves every entry into `storage` (from Prepare, non-empty).
  void Install(Storage storage);
  static void FreeStorage(Storage storage);
  // Adds or removes a node; Insert needs room (Prepare/Install).
  void Insert(MetaNode* node);
  void Erase(const MetaNode* node);

  size_t node_count() const { return count_; }
  size_t slot_count() const { return storage_.slot_count; }
  size_t Bytes() const;

  // Calls `fn(MetaNode*)` for every node.
  template <typename F>
  void ForEach(F fn) const {
    for (size_t s = 0; s < storage_.slot_count; ++s) {
      for (uint64_t e : storage_.slots[s].entries) {
        if (e != 0) fn(NodeOf(e));
      }
    }
  }

  // The MetaTrieHT version this copy holds (one more per split or merge).
  uint64_t version = 0;
  // No anchor is longer than this: the binary search's upper bound.
  uint32_t max_anchor_size = 0;

 private:
  static MetaNode* NodeOf(uint64_t e) {
    return reinterpret_cast<MetaNode*>(e & ((uint64_t{1} << 48) - 1));
  }
  static uint16_t TagOf(uint64_t e) { return static_cast<uint16_t>(e >> 48); }
  void Place(uint64_t entry, uint32_t hash);

  Storage storage_;
  size_t count_ = 0;
};

// A split's or merge's change to the table copy that readers were still
// using when the other copy was made current; applied once they have left.
struct TableChange {
  MetaTable* table = nullptr;
  Leaf* add = nullptr;           // a split: add this leaf's anchor
  Leaf* remove = nullptr;        // a merge: remove this leaf's anchor, free it
  std::vector<MetaNode*> fresh;  // the nodes `add` needs, in length order
  MetaTable::Storage storage;    // larger slot arrays, if needed
  uint64_t version = 0;
};

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_META_TABLE_H_
