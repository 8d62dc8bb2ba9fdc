#include "restructure.h"

#include <cstring>

namespace kvlab::stage2 {
namespace {

// handout: cut
// Copies keys [from, from + k) of `src` to [to, to + k) of `dst`. The ranges
// may overlap when src == dst. Key counts are the caller's business.
void CopyKeys(const NodeLayout& layout, Node* dst, int to, const Node* src,
              int from, int k) {
  if (k <= 0) return;
  if (layout.has_prefixes()) {
    std::memmove(layout.prefixes(dst) + to, layout.prefixes(src) + from,
                 k * sizeof(uint64_t));
  }
  std::memmove(layout.pairs(dst) + to, layout.pairs(src) + from,
               k * sizeof(Pair*));
}

// The same for children and their counts; returns the sum of the counts
// copied, the keys that moved with those children.
uint64_t CopyChildren(const NodeLayout& layout, Node* dst, int to,
                      const Node* src, int from, int k) {
  if (k <= 0) return 0;
  std::memmove(layout.children(dst) + to, layout.children(src) + from,
               k * sizeof(Node*));
  std::memmove(layout.counts(dst) + to, layout.counts(src) + from,
               k * sizeof(uint64_t));
  uint64_t moved = 0;
  for (int j = 0; j < k; ++j) moved += layout.counts(dst)[to + j];
  return moved;
}
// handout: end

}  // namespace

void SplitChild(const NodeLayout& layout, Node* parent, int i,
                size_t* node_bytes) {
  // handout: SplitChild -> #3-insert-step-by-step
  Node* left = layout.children(parent)[i];
  Node* right = NewNode(layout, left->leaf, node_bytes);
  const int middle = left->num_keys / 2;
  const int right_keys = left->num_keys - middle - 1;
  CopyKeys(layout, right, 0, left, middle + 1, right_keys);
  uint64_t right_size = right_keys;
  if (!left->leaf) {
    right_size +=
        CopyChildren(layout, right, 0, left, middle + 1, right_keys + 1);
  }
  right->num_keys = static_cast<uint16_t>(right_keys);
  const Entry up = layout.entry(left, middle);
  left->num_keys = static_cast<uint16_t>(middle);

  // Key i and child i + 1 of the parent open up together.
  InsertEntry(layout, parent, i, up);
  const int children_after = parent->num_keys - (i + 1);  // new key counted
  CopyChildren(layout, parent, i + 2, parent, i + 1, children_after);
  layout.children(parent)[i + 1] = right;
  layout.counts(parent)[i + 1] = right_size;
  layout.counts(parent)[i] -= right_size + 1;
  // handout: end
}

void MergeChildren(const NodeLayout& layout, Node* parent, int i,
                   size_t* node_bytes) {
  // handout: MergeChildren -> #4-delete-step-by-step
  Node* left = layout.children(parent)[i];
  Node* right = layout.children(parent)[i + 1];
  const int left_keys = left->num_keys;
  layout.set_entry(left, left_keys, layout.entry(parent, i));
  CopyKeys(layout, left, left_keys + 1, right, 0, right->num_keys);
  if (!left->leaf) {
    CopyChildren(layout, left, left_keys + 1, right, 0, right->num_keys + 1);
  }
  left->num_keys = static_cast<uint16_t>(left_keys + 1 + right->num_keys);
  layout.counts(parent)[i] += 1 + layout.counts(parent)[i + 1];

  // Key i and child i + 1 of the parent close up together.
  const int keys_after = parent->num_keys - i - 1;
  CopyKeys(layout, parent, i, parent, i + 1, keys_after);
  CopyChildren(layout, parent, i + 1, parent, i + 2, keys_after);
  --parent->num_keys;
  FreeNode(layout, right, node_bytes);
  // handout: end
}

void MoveToLeft(const NodeLayout& layout, Node* parent, int i, int k) {
  // handout: MoveToLeft -> #filling-nodes-share-before-splitting
  Node* left = layout.children(parent)[i];
  Node* right = layout.children(parent)[i + 1];
  const int left_keys = left->num_keys;
  const int right_keys = right->num_keys;
  layout.set_entry(left, left_keys, layout.entry(parent, i));
  CopyKeys(layout, left, left_keys + 1, right, 0, k - 1);
  uint64_t moved = k;
  if (!left->leaf) {
    moved += CopyChildren(layout, left, left_keys + 1, right, 0, k);
    CopyChildren(layout, right, 0, right, k, right_keys + 1 - k);
  }
  layout.set_entry(parent, i, layout.entry(right, k - 1));
  CopyKeys(layout, right, 0, right, k, right_keys - k);
  left->num_keys = static_cast<uint16_t>(left_keys + k);
  right->num_keys = static_cast<uint16_t>(right_keys - k);
  layout.counts(parent)[i] += moved;
  layout.counts(parent)[i + 1] -= moved;
  // handout: end
}

void MoveToRight(const NodeLayout& layout, Node* parent, int i, int k) {
  // handout: MoveToRight -> #filling-nodes-share-before-splitting
  Node* left = layout.children(parent)[i];
  Node* right = layout.children(parent)[i + 1];
  const int left_keys = left->num_keys;
  const int right_keys = right->num_keys;
  // Open k slots at the front of the right node, then fill them.
  CopyKeys(layout, right, k, right, 0, right_keys);
  layout.set_entry(right, k - 1, layout.entry(parent, i));
  CopyKeys(layout, right, 0, left, left_keys - k + 1, k - 1);
  uint64_t moved = k;
  if (!left->leaf) {
    CopyChildren(layout, right, k, right, 0, right_keys + 1);
    moved += CopyChildren(layout, right, 0, left, left_keys - k + 1, k);
  }
  layout.set_entry(parent, i, layout.entry(left, left_keys - k));
  left->num_keys = static_cast<uint16_t>(left_keys - k);
  right->num_keys = static_cast<uint16_t>(right_keys + k);
  layout.counts(parent)[i] -= moved;
  layout.counts(parent)[i + 1] += moved;
  // handout: end
}

}  // namespace kvlab::stage2
