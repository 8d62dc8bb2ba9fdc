// The BST layout of `trie_bst`: a node's children form a binary search tree
// keyed by their byte, and each node is its own tree node.
//
//   +----------------+-----------+-----------+-----------+
//   | header (16 B)  | children  | left      | right     |   40 bytes a node
//   +----------------+-----------+-----------+-----------+
//
//   parent --children--> [m]            the children of `parent`:
//                       /   \           left/right order them by byte;
//                     [c]   [t]         each also has its own `children`
//                       \               tree one trie level down
//                       [f]
//
// Like the list, memory follows the node count (one link points to each
// node) but a node costs 8 bytes more. Finding one of k children takes about
// 2 ln k steps when the children arrived in random order instead of k/2;
// sorted arrival makes the little tree a list again (at most 256 long). The
// trees are not rebalanced: a node has at most 256 children.

#ifndef KVLAB_STAGE3_SRC_BST_LAYOUT_H_
#define KVLAB_STAGE3_SRC_BST_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "linked_layout.h"
#include "trie_node.h"

namespace kvlab::stage3 {

struct BstNode : NodeHeader {
  BstNode* children;  // root of this node's child tree, one level down
  BstNode* left;      // siblings with smaller bytes
  BstNode* right;     // siblings with larger bytes
};

static_assert(sizeof(BstNode) == 40, "BST node is five words");

class BstLayout : public LinkedLayout<BstNode> {
 public:
  Node* Child(const Node* parent, uint8_t byte) const {
    // handout: BstLayout::Child -> #3-the-three-node-layouts
    Node* node = parent->children;
    while (node != nullptr && node->byte != byte) {
      node = byte < node->byte ? node->left : node->right;
    }
    return node;
    // handout: end
  }

  Node* FirstChildAtLeast(const Node* parent, uint8_t byte) const {
    Node* best = nullptr;
    for (Node* node = parent->children; node != nullptr;) {
      if (node->byte >= byte) {
        best = node;  // a candidate; a smaller one may be on the left
        if (node->byte == byte) break;
        node = node->left;
      } else {
        node = node->right;
      }
    }
    return best;
  }

  // The in-order successor, found from the root of the sibling tree: the
  // nodes have no parent links, which would cost 8 more bytes each.
  Node* NextChild(const Node* parent, const Node* child) const {
    if (child->byte == UINT8_MAX) return nullptr;
    return FirstChildAtLeast(parent, static_cast<uint8_t>(child->byte + 1));
  }

  Node* ChildOrAdd(Node* parent, uint8_t byte, size_t* bytes) const {
    // handout: BstLayout::ChildOrAdd -> #3-the-three-node-layouts
    Node** link = LinkTo(parent, byte);
    if (*link == nullptr) *link = NewNode(byte, bytes);
    return *link;
    // handout: end
  }

  void RemoveChild(Node* parent, Node* child, size_t* bytes) const;

  // The structure export of a node's children (kvlab/structure.h): the
  // node's own three links in a field of `out`, an edge from `out` to the
  // root of its child tree, and `left` and `right` edges inside that tree,
  // each child placed under `out`. `id_of` names a child's exported node.
  void ExportChildren(const Node* node,
                      absl::FunctionRef<std::string(const Node*)> id_of,
                      StructureNode* out,
                      std::vector<StructureEdge>* edges) const {
    out->fields.push_back({"links", "children, left, right: 3 x 8 B"});
    if (node->children == nullptr) return;
    edges->push_back({out->id, id_of(node->children), "children"});
    std::vector<const Node*> pending = {node->children};
    while (!pending.empty()) {
      const Node* sibling = pending.back();
      pending.pop_back();
      if (sibling != node->children) {
        edges->push_back(
            {out->id, id_of(sibling), "", StructureEdge::Kind::kLayout});
      }
      for (auto [next, label] : {std::pair{sibling->left, "left"},
                                 std::pair{sibling->right, "right"}}) {
        if (next == nullptr) continue;
        edges->push_back({id_of(sibling), id_of(next), label,
                          StructureEdge::Kind::kSibling});
        pending.push_back(next);
      }
    }
  }

  // Checks the BST order of the child tree; counts the children.
  absl::Status CheckChildren(const Node* parent, int* children) const;

  // handout: cut
 private:
  // The link that points to the child labelled `byte`, or the null link
  // where it would be attached.
  static Node** LinkTo(Node* parent, uint8_t byte) {
    Node** link = &parent->children;
    while (*link != nullptr && (*link)->byte != byte) {
      link = byte < (*link)->byte ? &(*link)->left : &(*link)->right;
    }
    return link;
  }
  // handout: end
};

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_BST_LAYOUT_H_
