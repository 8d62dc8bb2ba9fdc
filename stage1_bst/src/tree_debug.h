// Debugging aids both stage-1 trees share: a drawing of the tree, its
// height, and a full invariant check. All iterative, like everything else
// in stage 1.

#ifndef KVLAB_STAGE1_SRC_TREE_DEBUG_H_
#define KVLAB_STAGE1_SRC_TREE_DEBUG_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "node.h"

namespace kvlab::stage1 {

// Draws the tree, root first, each child indented under its parent and
// marked L or R, left before right:
//
//   "d" size=5 height=3
//   |-L "b" size=3 height=2
//   | |-L "a" size=1 height=1
//   | `-R "c" size=1 height=1
//   `-R "e" size=1 height=1
//
// Keys are C-escaped; values are not shown. Heights only if `show_height`.
// At most `max_nodes` nodes are drawn, then a line counts the rest, so even
// a list-shaped tree of a million nodes draws quickly.
std::string TreeDebugString(const Node* root, bool show_height,
                            size_t max_nodes);

// The number of nodes on the longest root-to-leaf path; 0 if empty. O(n).
int TreeHeight(const Node* root);

// What CheckTree checks beyond ordering and subtree sizes.
struct CheckOptions {
  bool avl = false;            // heights exact and balance in [-1, 1]
  size_t allocated_bytes = 0;  // must equal the sum of NodeBytes
};

// Checks the tree under `root` node by node, in key order: keys strictly
// ascending, every size equal to 1 + the children's sizes (so, by induction
// from the leaves, equal to the real count), the node count equal to the
// root's size, and the AVL rules if asked. Returns the first violation.
absl::Status CheckTree(const Node* root, const CheckOptions& options);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_TREE_DEBUG_H_
