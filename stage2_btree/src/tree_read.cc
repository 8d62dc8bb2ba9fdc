// Get, GetNth and Scan: walks that change nothing.

#include "tree.h"

namespace kvlab::stage2 {

const Pair* Find(const Tree& tree, std::string_view key) {
  // handout: Find -> #3-insert-step-by-step
  const NodeLayout& layout = tree.layout;
  const uint64_t prefix = layout.PrefixFor(key);
  const Node* node = tree.root;
  while (node != nullptr) {
    bool found;
    const int i = SearchNode(layout, node, prefix, key, &found);
    if (found) return layout.pairs(node)[i];
    if (node->leaf) return nullptr;
    node = layout.children(node)[i];
  }
  return nullptr;
  // handout: end
}

const Pair* FindNth(const Tree& tree, uint64_t rank) {
  // handout: FindNth -> #5-counts-make-getnth-logarithmic
  if (rank >= tree.size) return nullptr;
  const NodeLayout& layout = tree.layout;
  const Node* node = tree.root;
  for (;;) {
    bool found;
    const int i = LocateRank(layout, node, &rank, &found);
    if (found) return layout.pairs(node)[i];
    node = layout.children(node)[i];
  }
  // handout: end
}

uint64_t Scan(
    const Tree& tree, std::string_view start,
    absl::FunctionRef<bool(std::string_view, std::string_view)> visitor) {
  if (tree.root == nullptr) return 0;
  const NodeLayout& layout = tree.layout;
  // One frame per level: the node and the index of its next key to visit.
  // An internal node's frame sits below the frames of its child `index`,
  // whose keys all come before key `index`.
  struct Frame {
    const Node* node;
    int index;
  };
  Frame stack[kMaxHeight];
  int depth = 0;
  const uint64_t prefix = layout.PrefixFor(start);
  for (const Node* node = tree.root;;) {
    bool found;
    const int i = SearchNode(layout, node, prefix, start, &found);
    stack[depth++] = {node, i};
    if (node->leaf) break;
    node = layout.children(node)[i];
  }
  uint64_t visited = 0;
  while (depth > 0) {
    Frame& frame = stack[depth - 1];
    if (frame.index >= frame.node->num_keys) {
      --depth;
      continue;
    }
    const Pair* pair = layout.pairs(frame.node)[frame.index];
    ++visited;
    if (!visitor(KeyOf(pair), ValueOf(pair))) break;
    ++frame.index;
    if (!frame.node->leaf) {
      // The next keys are those of child `index`, leftmost first.
      const Node* node = layout.children(frame.node)[frame.index];
      for (;;) {
        stack[depth++] = {node, 0};
        if (node->leaf) break;
        node = layout.children(node)[0];
      }
    }
  }
  return visited;
}

}  // namespace kvlab::stage2
