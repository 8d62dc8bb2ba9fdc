// The out-of-line parts of the three layouts: invariant checks and the BST
// removal.

#include "absl/strings/str_cat.h"
#include "array_layout.h"
#include "bst_layout.h"
#include "list_layout.h"

namespace kvlab::stage3 {
namespace {

// Checks the subtree of a child tree rooted at `node`: every byte is in
// (low, high), exclusive, with -1 and 256 for "no bound". Recursion is
// bounded by the tree's depth, at most 256.
absl::Status CheckBstOrder(const BstNode* node, int low, int high, int* count) {
  if (node == nullptr) return absl::OkStatus();
  if (node->byte <= low || node->byte >= high) {
    return absl::InternalError(absl::StrCat("child byte ", node->byte,
                                            " is outside its BST interval (",
                                            low, ", ", high, ")"));
  }
  ++*count;
  if (absl::Status s = CheckBstOrder(node->left, low, node->byte, count);
      !s.ok()) {
    return s;
  }
  return CheckBstOrder(node->right, node->byte, high, count);
}

}  // namespace

absl::Status ArrayLayout::CheckChildren(const Node* parent,
                                        int* children) const {
  *children = 0;
  Node* const* slots = Slots(parent);
  for (int slot = 0; slot < alphabet_.size(); ++slot) {
    if (slots[slot] == nullptr) continue;
    if (slots[slot]->byte != alphabet_.ByteAt(slot)) {
      return absl::InternalError(
          absl::StrCat("child with byte ", slots[slot]->byte, " sits in slot ",
                       slot, " of byte ", alphabet_.ByteAt(slot)));
    }
    ++*children;
  }
  return absl::OkStatus();
}

absl::Status ListLayout::CheckChildren(const Node* parent,
                                       int* children) const {
  *children = 0;
  int previous = -1;
  for (const Node* child = parent->first_child; child != nullptr;
       child = child->next) {
    if (child->byte <= previous) {
      return absl::InternalError(absl::StrCat(
          "child list not ascending: ", child->byte, " after ", previous));
    }
    previous = child->byte;
    if (++*children > 256) {
      return absl::InternalError("child list longer than 256 (a cycle?)");
    }
  }
  return absl::OkStatus();
}

absl::Status BstLayout::CheckChildren(const Node* parent, int* children) const {
  *children = 0;
  return CheckBstOrder(parent->children, -1, 256, children);
}

void BstLayout::RemoveChild(Node* parent, Node* child, size_t* bytes) const {
  // handout: BstLayout::RemoveChild -> #3-the-three-node-layouts
  Node** link = LinkTo(parent, child->byte);
  if (child->left == nullptr || child->right == nullptr) {
    *link = child->left != nullptr ? child->left : child->right;
  } else {
    // Two subtrees: the in-order successor (leftmost of the right subtree)
    // takes the child's place in the sibling tree.
    Node** successor_link = &child->right;
    while ((*successor_link)->left != nullptr) {
      successor_link = &(*successor_link)->left;
    }
    Node* successor = *successor_link;
    *successor_link = successor->right;  // may rewrite child->right itself
    successor->left = child->left;
    successor->right = child->right;
    *link = successor;
  }
  FreeNode(child, bytes);
  // handout: end
}

}  // namespace kvlab::stage3
