// The list layout of `trie_list`: a node's children form a singly linked
// list sorted by byte, and each node is its own list cell.
//
//   +----------------+-------------+-------------+
//   | header (16 B)  | first_child | next        |   32 bytes a node
//   +----------------+-------------+-------------+
//
//   parent --first_child--> [a] --next--> [k] --next--> [z] --next--> null
//
// Memory is proportional to the number of nodes, not to the alphabet: each
// node is pointed to exactly once. Finding a child walks the list, up to
// the node's fan-out steps, each possibly a cache miss; sorting the list
// lets a miss stop at the first larger byte and gives key order for free.

#ifndef KVLAB_STAGE3_SRC_LIST_LAYOUT_H_
#define KVLAB_STAGE3_SRC_LIST_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "linked_layout.h"
#include "trie_node.h"

namespace kvlab::stage3 {

struct ListNode : NodeHeader {
  ListNode* first_child;  // the child with the smallest byte
  ListNode* next;         // the sibling with the next larger byte
};

static_assert(sizeof(ListNode) == 32, "list node is four words");

class ListLayout : public LinkedLayout<ListNode> {
 public:
  Node* Child(const Node* parent, uint8_t byte) const {
    // handout: ListLayout::Child -> #3-the-three-node-layouts
    Node* child = FirstChildAtLeast(parent, byte);
    return child != nullptr && child->byte == byte ? child : nullptr;
    // handout: end
  }

  Node* FirstChildAtLeast(const Node* parent, uint8_t byte) const {
    Node* child = parent->first_child;
    while (child != nullptr && child->byte < byte) child = child->next;
    return child;
  }

  Node* NextChild(const Node*, const Node* child) const { return child->next; }

  Node* ChildOrAdd(Node* parent, uint8_t byte, size_t* bytes) const {
    // handout: ListLayout::ChildOrAdd -> #3-the-three-node-layouts
    Node** link = LinkAtLeast(parent, byte);
    if (*link != nullptr && (*link)->byte == byte) return *link;
    Node* child = NewNode(byte, bytes);
    child->next = *link;
    *link = child;
    return child;
    // handout: end
  }

  void RemoveChild(Node* parent, Node* child, size_t* bytes) const {
    // handout: ListLayout::RemoveChild -> #3-the-three-node-layouts
    Node** link = LinkAtLeast(parent, child->byte);
    *link = child->next;
    FreeNode(child, bytes);
    // handout: end
  }

  // The structure export of a node's children (kvlab/structure.h): the
  // node's own two links in a field of `out`, an edge from `out` to its
  // first child, and a `next` edge along the sibling list, each child
  // placed under `out`. `id_of` names a child's exported node.
  void ExportChildren(const Node* node,
                      absl::FunctionRef<std::string(const Node*)> id_of,
                      StructureNode* out,
                      std::vector<StructureEdge>* edges) const {
    out->fields.push_back({"links", "first_child, next: 2 x 8 B"});
    const Node* child = node->first_child;
    if (child != nullptr) {
      edges->push_back({out->id, id_of(child), "first_child"});
    }
    for (; child != nullptr; child = child->next) {
      if (child != node->first_child) {
        edges->push_back(
            {out->id, id_of(child), "", StructureEdge::Kind::kLayout});
      }
      if (child->next != nullptr) {
        edges->push_back({id_of(child), id_of(child->next), "next",
                          StructureEdge::Kind::kSibling});
      }
    }
  }

  // Checks that the list is strictly ascending; counts the children.
  absl::Status CheckChildren(const Node* parent, int* children) const;

  // handout: cut
 private:
  // The link (first_child or some next) that points to the first child
  // whose byte is >= `byte`, or that is null at the end of the list.
  Node** LinkAtLeast(Node* parent, uint8_t byte) const {
    Node** link = &parent->first_child;
    while (*link != nullptr && (*link)->byte < byte) link = &(*link)->next;
    return link;
  }
  // handout: end
};

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_LIST_LAYOUT_H_
