// The array layout of `trie_array`: every node holds one child pointer per
// alphabet symbol, indexed by the symbol's slot.
//
//   +----------------+-----------+-----------+-----+-----------+
//   | header (16 B)  | child[0]  | child[1]  | ... | child[A-1]|
//   +----------------+-----------+-----------+-----+-----------+
//                      8 B each, null where no key continues with that byte
//
// A node is 16 + 8A bytes whatever its fan-out: 2,064 for A = 256 (every
// byte), 432 for the report's A = 52 letters. Finding a child is one index,
// the fastest step any of the three layouts has; the price is that a node
// with one child (most deep nodes) wastes A - 1 pointers.

#ifndef KVLAB_STAGE3_SRC_ARRAY_LAYOUT_H_
#define KVLAB_STAGE3_SRC_ARRAY_LAYOUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/stage3/alphabet.h"
#include "trie_node.h"

namespace kvlab::stage3 {

// The header; the child array follows it in the same allocation.
struct ArrayNode : NodeHeader {};

class ArrayLayout {
 public:
  using Node = ArrayNode;

  explicit ArrayLayout(const Alphabet& alphabet) : alphabet_(alphabet) {}

  const Alphabet& alphabet() const { return alphabet_; }

  size_t NodeBytes() const {
    return sizeof(Node) + sizeof(Node*) * alphabet_.size();
  }

  absl::Status ValidateKey(std::string_view key) const {
    return alphabet_.Check(key);
  }

  Node* NewNode(uint8_t byte, size_t* bytes) const {
    Node* node = static_cast<Node*>(AllocateNode(NodeBytes(), bytes));
    node->byte = byte;
    return node;
  }
  void FreeNode(Node* node, size_t* bytes) const {
    FreeNodeMemory(node, NodeBytes(), bytes);
  }

  Node* Child(const Node* parent, uint8_t byte) const {
    // handout: ArrayLayout::Child -> #3-the-three-node-layouts
    const int slot = alphabet_.SlotOf(byte);
    return slot < 0 ? nullptr : Slots(parent)[slot];
    // handout: end
  }

  // The child with the smallest byte >= `byte`, or null.
  Node* FirstChildAtLeast(const Node* parent, uint8_t byte) const {
    return ScanFrom(parent, alphabet_.FirstSlotAtLeast(byte));
  }

  // The next child of `parent` after `child`, in byte order, or null.
  Node* NextChild(const Node* parent, const Node* child) const {
    return ScanFrom(parent, alphabet_.SlotOf(child->byte) + 1);
  }

  // The child labelled `byte`, added (empty) if absent. `byte` is in the
  // alphabet: ValidateKey has passed.
  Node* ChildOrAdd(Node* parent, uint8_t byte, size_t* bytes) const {
    // handout: ArrayLayout::ChildOrAdd -> #3-the-three-node-layouts
    Node*& slot = Slots(parent)[alphabet_.SlotOf(byte)];
    if (slot == nullptr) slot = NewNode(byte, bytes);
    return slot;
    // handout: end
  }

  // Unlinks `child` from `parent` and frees it; it has no children left.
  void RemoveChild(Node* parent, Node* child, size_t* bytes) const {
    // handout: ArrayLayout::RemoveChild -> #3-the-three-node-layouts
    Slots(parent)[alphabet_.SlotOf(child->byte)] = nullptr;
    FreeNode(child, bytes);
    // handout: end
  }

  // The structure export of a node's children (kvlab/structure.h): the
  // slot array summarised in a field of `out` (slots used and null), and
  // an edge from `out` to each used slot's child, labelled with the slot's
  // number. `id_of` names a child's exported node.
  void ExportChildren(const Node* node,
                      absl::FunctionRef<std::string(const Node*)> id_of,
                      StructureNode* out,
                      std::vector<StructureEdge>* edges) const {
    int used = 0;
    for (const Node* child = FirstChildAtLeast(node, 0); child != nullptr;
         child = NextChild(node, child)) {
      ++used;
      edges->push_back({out->id, id_of(child),
                        absl::StrCat("slot ", alphabet_.SlotOf(child->byte))});
    }
    out->fields.push_back(
        {"slots", absl::StrCat(alphabet_.size(), " x 8 B: ", used, " used, ",
                               alphabet_.size() - used, " null")});
  }

  // Checks that each child sits in its byte's slot; counts the children.
  absl::Status CheckChildren(const Node* parent, int* children) const;

 private:
  Node** Slots(const Node* node) const {
    // The array starts right after the 16-byte header, pointer-aligned.
    return reinterpret_cast<Node**>(const_cast<Node*>(node) + 1);
  }

  Node* ScanFrom(const Node* parent, int slot) const {
    Node* const* slots = Slots(parent);
    for (; slot < alphabet_.size(); ++slot) {
      if (slots[slot] != nullptr) return slots[slot];
    }
    return nullptr;
  }

  Alphabet alphabet_;
};

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_ARRAY_LAYOUT_H_
