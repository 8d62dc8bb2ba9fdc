// The B-tree node and its layout, which depends on the tree's order.
//
// A node of a tree of order m (at most m children, so at most m - 1 keys) is
// one malloc'd block: an 8-byte header, then arrays whose lengths follow
// from m. With the `prefix` key layout (the default):
//
//   offset 0            num_keys (2 bytes), leaf (1 byte), padding
//          8            prefix[m - 1]    8-byte key prefixes (pair.h)
//          8 + 8(m-1)   pair[m - 1]      Pair* of each key, in key order
//   internal nodes only:
//          8 + 16(m-1)  child[m]         Node*
//          8 + 16(m-1) + 8m  count[m]    keys in child[i]'s subtree
//
// The `pointer` layout has no prefix array: every comparison follows the
// pair pointer. Leaves stop after the pair array, since they have no
// children; they hold almost all keys, so that matters for memory.
//
// Keys and their child references are kept in parallel arrays rather than
// as an array of structs, so that a binary search over the prefixes reads
// eight of them per cache line.

#ifndef KVLAB_STAGE2_SRC_NODE_H_
#define KVLAB_STAGE2_SRC_NODE_H_

#include <cstddef>
#include <cstdint>

#include "pair.h"

namespace kvlab::stage2 {

struct Node {
  uint16_t num_keys;
  bool leaf;
};

// One key slot: its prefix (0 in the pointer layout) and its pair.
struct Entry {
  uint64_t prefix;
  Pair* pair;
};

inline constexpr size_t kNodeHeaderBytes = 8;
static_assert(sizeof(Node) <= kNodeHeaderBytes, "the header fits 8 bytes");

// Where the arrays of a node of a given order are, and the fill bounds.
// Every function below takes the tree's layout; none keeps state.
class NodeLayout {
 public:
  NodeLayout(int order, bool prefixes);

  int order() const { return order_; }
  bool has_prefixes() const { return has_prefixes_; }
  int max_keys() const { return order_ - 1; }
  // Half of order, less one: the fewest keys a node other than the root
  // holds (CLRS's t - 1 for minimum degree t = order / 2).
  int min_keys() const { return order_ / 2 - 1; }
  size_t node_bytes(bool leaf) const {
    return leaf ? leaf_bytes_ : internal_bytes_;
  }

  uint64_t* prefixes(Node* node) const {
    return reinterpret_cast<uint64_t*>(Base(node) + kNodeHeaderBytes);
  }
  const uint64_t* prefixes(const Node* node) const {
    return prefixes(const_cast<Node*>(node));
  }
  Pair** pairs(Node* node) const {
    return reinterpret_cast<Pair**>(Base(node) + pairs_offset_);
  }
  Pair* const* pairs(const Node* node) const {
    return pairs(const_cast<Node*>(node));
  }
  Node** children(Node* node) const {
    return reinterpret_cast<Node**>(Base(node) + children_offset_);
  }
  Node* const* children(const Node* node) const {
    return children(const_cast<Node*>(node));
  }
  uint64_t* counts(Node* node) const {
    return reinterpret_cast<uint64_t*>(Base(node) + counts_offset_);
  }
  const uint64_t* counts(const Node* node) const {
    return counts(const_cast<Node*>(node));
  }

  Entry entry(const Node* node, int i) const {
    return {has_prefixes_ ? prefixes(node)[i] : 0, pairs(node)[i]};
  }
  void set_entry(Node* node, int i, Entry e) const {
    if (has_prefixes_) prefixes(node)[i] = e.prefix;
    pairs(node)[i] = e.pair;
  }
  // The prefix stored for `key` (0 when the layout keeps none).
  uint64_t PrefixFor(std::string_view key) const {
    return has_prefixes_ ? KeyPrefix(key) : 0;
  }

 private:
  static char* Base(Node* node) { return reinterpret_cast<char*>(node); }

  int order_;
  bool has_prefixes_;
  size_t pairs_offset_;
  size_t children_offset_;
  size_t counts_offset_;
  size_t leaf_bytes_;
  size_t internal_bytes_;
};

// Node blocks are malloc'd; `*bytes` is the tree's tally as for pairs.
Node* NewNode(const NodeLayout& layout, bool leaf, size_t* bytes);
void FreeNode(const NodeLayout& layout, Node* node, size_t* bytes);

// Frees `node`, its subtree and every pair in it.
void FreeSubtree(const NodeLayout& layout, Node* node, size_t* node_bytes,
                 size_t* pair_bytes);

// Keys in `node`'s subtree: its own plus its children's counts.
uint64_t SubtreeSize(const NodeLayout& layout, const Node* node);

// Inserts `e` as key i of `node`, which has room, shifting keys i.. right.
void InsertEntry(const NodeLayout& layout, Node* node, int i, Entry e);

// Removes key i of a leaf, shifting the keys after it left.
void RemoveLeafEntry(const NodeLayout& layout, Node* node, int i);

}  // namespace kvlab::stage2

#endif  // KVLAB_STAGE2_SRC_NODE_H_
