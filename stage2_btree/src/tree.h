// The B-tree itself, behind BTreeStore: a CLRS-style B-tree of even order m
// (minimum degree t = m / 2) whose child references carry subtree key
// counts. Every key lives in exactly one node, internal or leaf.
//
// Both updates walk down once, from the root, fixing each child before
// entering it, so that no change ever has to travel back up:
//   - Put never enters a full child: it first moves keys into a sibling with
//     room, or splits the child (restructure.h). A split then always finds
//     room for the middle key in the parent.
//   - Delete never enters a child with only t - 1 keys: it first borrows a
//     key from a sibling with more, or merges the child with a sibling.
//     Removing a key from a leaf then always leaves at least t - 1.
// The walk remembers the count field of every child it entered; once it
// knows the number of keys really changed (a Put of a new key, a Delete of a
// present one), it adds or subtracts one from each. The fixes on the way
// kept every count exact by themselves, so a Put that replaces and a Delete
// of a missing key change no count (they may still have restructured).

#ifndef KVLAB_STAGE2_SRC_TREE_H_
#define KVLAB_STAGE2_SRC_TREE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "kvlab/structure.h"
#include "node.h"

namespace kvlab::stage2 {

// A tree of order m >= 4 has at least 2 children per internal node, so a
// tree of height 64 would hold more than 2^63 keys.
inline constexpr int kMaxHeight = 64;

struct Tree {
  Tree(int order, bool prefixes) : layout(order, prefixes) {}
  ~Tree();
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  NodeLayout layout;
  Node* root = nullptr;  // null when empty; never an empty node
  uint64_t size = 0;
  int height = 0;         // levels; 0 when empty, 1 for a lone leaf
  size_t node_bytes = 0;  // malloc'd bytes of all nodes
  size_t pair_bytes = 0;  // malloc'd bytes of all pairs
  // Put moves keys into a neighbour with room before splitting a full node.
  bool share_on_insert = true;
};

// Inserts or replaces; returns true if `key` was present (tree_insert.cc).
// Throws std::bad_alloc if memory runs out, with the same pairs as before
// and a valid tree (splits and moves made on the way down may remain).
bool Put(Tree* tree, std::string_view key, std::string_view value);

// Removes `key`, or the pair of rank `rank` (tree_delete.cc). Return false
// if there is no such pair.
bool Delete(Tree* tree, std::string_view key);
bool DeleteNth(Tree* tree, uint64_t rank);

// Lookups (tree_read.cc).
const Pair* Find(const Tree& tree, std::string_view key);
const Pair* FindNth(const Tree& tree, uint64_t rank);  // null if >= size
uint64_t Scan(
    const Tree& tree, std::string_view start,
    absl::FunctionRef<bool(std::string_view, std::string_view)> visitor);

// Index of the first key of `node` that is >= `key`; `*found` tells whether
// it is equal. `prefix` is layout.PrefixFor(key).
int SearchNode(const NodeLayout& layout, const Node* node, uint64_t prefix,
               std::string_view key, bool* found);

// Where rank `*rank` of `node`'s subtree is: returns i, with `*found` true if
// it is key i of `node` itself, or false if it lies in child i, in which case
// `*rank` becomes its rank within that child.
int LocateRank(const NodeLayout& layout, const Node* node, uint64_t* rank,
               bool* found);

// The invariants of tree.h and btree_store.h, checked in O(n) (tree_check.cc).
absl::Status CheckTree(const Tree& tree);

// The tree level by level, one line per level (tree_debug.cc).
std::string DrawTree(const Tree& tree, size_t max_nodes);

// The structure export of BTreeStore::ExportStructure (tree_export.cc):
// nodes breadth first with their keys and child counts, identified by
// address. O(nodes): the summary counts every node.
absl::Status ExportTree(const Tree& tree, const StructureOptions& options,
                        StructureGraph* graph);

}  // namespace kvlab::stage2

#endif  // KVLAB_STAGE2_SRC_TREE_H_
