#include "node.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace kvlab::stage2 {

NodeLayout::NodeLayout(int order, bool prefixes)
    : order_(order), has_prefixes_(prefixes) {
  const size_t keys = static_cast<size_t>(order) - 1;
  pairs_offset_ = kNodeHeaderBytes + (prefixes ? 8 * keys : 0);
  children_offset_ = pairs_offset_ + 8 * keys;
  leaf_bytes_ = children_offset_;
  counts_offset_ = children_offset_ + 8 * static_cast<size_t>(order);
  internal_bytes_ = counts_offset_ + 8 * static_cast<size_t>(order);
}

Node* NewNode(const NodeLayout& layout, bool leaf, size_t* bytes) {
  const size_t size = layout.node_bytes(leaf);
  auto* node = static_cast<Node*>(std::malloc(size));
  if (node == nullptr) throw std::bad_alloc();
  node->num_keys = 0;
  node->leaf = leaf;
  *bytes += size;
  return node;
}

void FreeNode(const NodeLayout& layout, Node* node, size_t* bytes) {
  *bytes -= layout.node_bytes(node->leaf);
  std::free(node);
}

void FreeSubtree(const NodeLayout& layout, Node* node, size_t* node_bytes,
                 size_t* pair_bytes) {
  for (int i = 0; i < node->num_keys; ++i) {
    FreePair(layout.pairs(node)[i], pair_bytes);
  }
  if (!node->leaf) {
    // Recursion is as deep as the tree: at most 64 levels (tree.h).
    for (int i = 0; i <= node->num_keys; ++i) {
      FreeSubtree(layout, layout.children(node)[i], node_bytes, pair_bytes);
    }
  }
  FreeNode(layout, node, node_bytes);
}

uint64_t SubtreeSize(const NodeLayout& layout, const Node* node) {
  uint64_t size = node->num_keys;
  if (!node->leaf) {
    for (int i = 0; i <= node->num_keys; ++i) size += layout.counts(node)[i];
  }
  return size;
}

void InsertEntry(const NodeLayout& layout, Node* node, int i, Entry e) {
  const size_t after = node->num_keys - i;
  if (layout.has_prefixes()) {
    uint64_t* prefixes = layout.prefixes(node);
    std::memmove(prefixes + i + 1, prefixes + i, after * sizeof(uint64_t));
  }
  Pair** pairs = layout.pairs(node);
  std::memmove(pairs + i + 1, pairs + i, after * sizeof(Pair*));
  layout.set_entry(node, i, e);
  ++node->num_keys;
}

void RemoveLeafEntry(const NodeLayout& layout, Node* node, int i) {
  const size_t after = node->num_keys - i - 1;
  if (layout.has_prefixes()) {
    uint64_t* prefixes = layout.prefixes(node);
    std::memmove(prefixes + i, prefixes + i + 1, after * sizeof(uint64_t));
  }
  Pair** pairs = layout.pairs(node);
  std::memmove(pairs + i, pairs + i + 1, after * sizeof(Pair*));
  --node->num_keys;
}

}  // namespace kvlab::stage2
