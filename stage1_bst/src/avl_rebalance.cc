#include "avl_rebalance.h"

#include <algorithm>

namespace kvlab::stage1 {
namespace {

// handout: cut
int HeightOf(const Node* node) { return node == nullptr ? 0 : node->height; }

// Left height minus right height; in [-1, 1] for a balanced node.
int BalanceOf(const Node* node) {
  return HeightOf(node->left) - HeightOf(node->right);
}
// handout: end

}  // namespace

void UpdateNode(Node* node) {
  // handout: UpdateNode -> #6-the-avl-tree
  node->height = 1 + std::max(HeightOf(node->left), HeightOf(node->right));
  node->size =
      static_cast<uint32_t>(1 + SizeOf(node->left) + SizeOf(node->right));
  // handout: end
}

Node* RotateRight(Node* node) {
  // handout: RotateRight -> #6-the-avl-tree
  Node* left = node->left;
  node->left = left->right;
  left->right = node;
  UpdateNode(node);  // first: it is now the child
  UpdateNode(left);
  return left;
  // handout: end
}

Node* RotateLeft(Node* node) {
  // handout: RotateLeft -> #6-the-avl-tree
  Node* right = node->right;
  node->right = right->left;
  right->left = node;
  UpdateNode(node);
  UpdateNode(right);
  return right;
  // handout: end
}

Node* Rebalance(Node* node) {
  // handout: Rebalance -> #6-the-avl-tree
  UpdateNode(node);
  const int balance = BalanceOf(node);
  if (balance > 1) {
    // Left-heavy. If the left child leans right (LR case), turn it into
    // the left-left shape first. A child with balance 0 occurs only after
    // a delete, and the single rotation is the one that fixes it.
    if (BalanceOf(node->left) < 0) node->left = RotateLeft(node->left);
    return RotateRight(node);  // LL case
  }
  if (balance < -1) {
    if (BalanceOf(node->right) > 0) node->right = RotateRight(node->right);
    return RotateLeft(node);  // RR case (RL reduced to it above)
  }
  return node;
  // handout: end
}

void RebalancePath(AvlPath* path) {
  // handout: RebalancePath -> #6-the-avl-tree
  // Each link lives in the parent of the node it points to, which is higher
  // up and not moved by a rotation below it, so the links stay valid.
  for (int i = path->depth() - 1; i >= 0; --i) {
    Node** link = (*path)[i];
    *link = Rebalance(*link);
  }
  // handout: end
}

}  // namespace kvlab::stage1
