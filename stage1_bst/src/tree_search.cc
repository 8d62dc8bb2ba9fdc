#include "tree_search.h"

#include "absl/container/inlined_vector.h"

namespace kvlab::stage1 {

const Node* FindNode(const Node* root, std::string_view key) {
  // handout: FindNode -> #2-search-and-insert
  const Node* node = root;
  while (node != nullptr) {
    const int c = CompareKeys(key, KeyOf(node));
    if (c == 0) return node;
    node = c < 0 ? node->left : node->right;
  }
  return nullptr;
  // handout: end
}

const Node* SelectNode(const Node* root, uint64_t n) {
  // handout: SelectNode -> #5-subtree-sizes-and-the-n-th-key
  const Node* node = root;
  while (true) {
    const uint64_t left_size = SizeOf(node->left);
    if (n == left_size) return node;
    if (n < left_size) {
      node = node->left;
    } else {
      n -= left_size + 1;  // skip the left subtree and this node
      node = node->right;
    }
  }
  // handout: end
}

uint64_t RankOf(const Node* root, std::string_view key) {
  // handout: RankOf -> #10-exercises
  uint64_t rank = 0;
  for (const Node* node = root; node != nullptr;) {
    const int c = CompareKeys(key, KeyOf(node));
    if (c == 0) return rank + SizeOf(node->left);
    if (c < 0) {
      node = node->left;
    } else {
      rank += SizeOf(node->left) + 1;  // the left subtree and this node
      node = node->right;
    }
  }
  return rank;
  // handout: end
}

uint64_t CountRangeOf(const Node* root, std::string_view lo,
                      std::string_view hi) {
  // handout: CountRangeOf -> #10-exercises
  if (CompareKeys(lo, hi) >= 0) return 0;
  return RankOf(root, hi) - RankOf(root, lo);
  // handout: end
}

uint64_t ScanTree(const Node* root, std::string_view start,
                  KVStore::ScanVisitor visitor) {
  // The stack holds the nodes still to visit whose left subtrees are done,
  // deepest on top: popping gives ascending order. 64 entries cover any AVL
  // tree without a heap allocation; a deep plain BST spills to the heap.
  absl::InlinedVector<const Node*, 64> stack;
  // Seed it with the search path for `start`, keeping the nodes >= start.
  for (const Node* node = root; node != nullptr;) {
    if (CompareKeys(KeyOf(node), start) >= 0) {
      stack.push_back(node);
      node = node->left;
    } else {
      node = node->right;
    }
  }
  uint64_t visited = 0;
  while (!stack.empty()) {
    const Node* node = stack.back();
    stack.pop_back();
    ++visited;
    if (!visitor(KeyOf(node), ValueOf(node))) break;
    // Next come the right subtree's nodes, smallest (leftmost) first.
    for (const Node* n = node->right; n != nullptr; n = n->left) {
      stack.push_back(n);
    }
  }
  return visited;
}

}  // namespace kvlab::stage1
