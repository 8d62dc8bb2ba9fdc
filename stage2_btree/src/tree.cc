// Navigation inside one node, shared by every walk down the tree.

#include "tree.h"

namespace kvlab::stage2 {

Tree::~Tree() {
  if (root != nullptr) FreeSubtree(layout, root, &node_bytes, &pair_bytes);
}

int SearchNode(const NodeLayout& layout, const Node* node, uint64_t prefix,
               std::string_view key, bool* found) {
  // handout: SearchNode -> #3-insert-step-by-step
  Pair* const* pairs = layout.pairs(node);
  int lo = 0;
  int hi = node->num_keys;
  if (layout.has_prefixes()) {
    const uint64_t* prefixes = layout.prefixes(node);
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      // Unequal prefixes decide without touching the pair; only an equal
      // prefix (a hit, or keys sharing 8 bytes) follows the pointer.
      int c = prefixes[mid] < prefix   ? -1
              : prefixes[mid] > prefix ? 1
                                       : CompareKeys(KeyOf(pairs[mid]), key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        *found = true;
        return mid;
      }
    }
  } else {
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      const int c = CompareKeys(KeyOf(pairs[mid]), key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid;
      } else {
        *found = true;
        return mid;
      }
    }
  }
  *found = false;
  return lo;
  // handout: end
}

int LocateRank(const NodeLayout& layout, const Node* node, uint64_t* rank,
               bool* found) {
  // handout: LocateRank -> #5-counts-make-getnth-logarithmic
  if (node->leaf) {
    *found = true;
    return static_cast<int>(*rank);
  }
  // In key order the subtree is child 0, key 0, child 1, key 1, ...: skip
  // whole children by their counts instead of visiting them.
  const uint64_t* counts = layout.counts(node);
  uint64_t r = *rank;
  for (int i = 0; i < node->num_keys; ++i) {
    if (r < counts[i]) {
      *found = false;
      *rank = r;
      return i;
    }
    r -= counts[i];
    if (r == 0) {
      *found = true;
      return i;
    }
    r -= 1;
  }
  *found = false;
  *rank = r;
  return node->num_keys;
  // handout: end
}

}  // namespace kvlab::stage2
