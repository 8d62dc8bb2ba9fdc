// The AVL rebalancing step: the four rotation cases, and the walk back up a
// search path that applies them after an insert or a delete.
//
// Heights count nodes: a leaf has height 1, an empty subtree 0. A node is
// balanced when its children's heights differ by at most 1.

#ifndef KVLAB_STAGE1_SRC_AVL_REBALANCE_H_
#define KVLAB_STAGE1_SRC_AVL_REBALANCE_H_

#include <cassert>

#include "node.h"

namespace kvlab::stage1 {

// The links from the root down to (not including) a changed node: the walk
// back up rebalances what each link points to. Heights are at most
// 1.44 log2(n + 2) < 47 for n <= kMaxPairs, so 64 links always suffice.
class AvlPath {
 public:
  static constexpr int kCapacity = 64;

  void Push(Node** link) {
    assert(depth_ < kCapacity);
    links_[depth_++] = link;
  }
  int depth() const { return depth_; }
  Node**& operator[](int i) { return links_[i]; }

 private:
  Node** links_[kCapacity];
  int depth_ = 0;
};

// Recomputes `node`'s height and size from its children.
void UpdateNode(Node* node);

// Rotations; each returns the new subtree root, with the heights and sizes
// of the two nodes that moved brought up to date. Writing a subtree as
// root(left, right), with A, B and C whole subtrees:
//   RotateRight: n(l(A, B), C) becomes l(A, n(B, C))
//   RotateLeft:  n(A, r(B, C)) becomes r(n(A, B), C)
// Both keep the in-order sequence: A l B n C, and A n B r C.
Node* RotateRight(Node* node);
Node* RotateLeft(Node* node);

// Updates `node` and, if its children's heights differ by 2, rotates it
// back into balance (LL, LR, RR or RL case). Returns the subtree's new root.
// Requires both subtrees to be balanced already.
Node* Rebalance(Node* node);

// Rebalances every node the links of `path` point to, deepest first, and
// re-links the results: the fix-up after a node below was added or removed.
void RebalancePath(AvlPath* path);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_AVL_REBALANCE_H_
