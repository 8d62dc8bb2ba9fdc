// What the list and BST layouts (list_layout.h, bst_layout.h) share: each
// child is linked from node to node rather than from a slot of its parent,
// so every node has one fixed size, the header plus its links, and any key
// byte can branch. The array layout (array_layout.h) has neither property.
//
// LinkedLayout<N>, for nodes of type N, holds the part of the Layout
// contract (trie_store_impl.h) that does not depend on how the links are
// walked: the node size, key validation and allocation. The list and BST
// layouts derive from it and add the walks.

#ifndef KVLAB_STAGE3_SRC_LINKED_LAYOUT_H_
#define KVLAB_STAGE3_SRC_LINKED_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "trie_node.h"

namespace kvlab::stage3 {

template <class N>
class LinkedLayout {
 public:
  using Node = N;

  size_t NodeBytes() const { return sizeof(Node); }

  // Every byte can label a child.
  absl::Status ValidateKey(std::string_view) const { return absl::OkStatus(); }

  Node* NewNode(uint8_t byte, size_t* bytes) const {
    Node* node = static_cast<Node*>(AllocateNode(sizeof(Node), bytes));
    node->byte = byte;
    return node;
  }
  void FreeNode(Node* node, size_t* bytes) const {
    FreeNodeMemory(node, sizeof(Node), bytes);
  }
};

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_LINKED_LAYOUT_H_
