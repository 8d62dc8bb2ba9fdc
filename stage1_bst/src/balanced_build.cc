#include "balanced_build.h"

#include <algorithm>
#include <new>

namespace kvlab::stage1 {

Node* BuildBalanced(
    const std::vector<std::pair<std::string, std::string>>& pairs, size_t begin,
    size_t end, size_t* bytes) {
  // handout: BuildBalanced -> #10-exercises
  if (begin == end) return nullptr;
  // The middle pair is the root; recursion is as deep as the tree, at most
  // 33 levels for kMaxPairs pairs.
  const size_t middle = begin + (end - begin) / 2;
  Node* left = BuildBalanced(pairs, begin, middle, bytes);
  Node* node;
  Node* right;
  try {
    node = NewNode(pairs[middle].first, pairs[middle].second, bytes);
    try {
      right = BuildBalanced(pairs, middle + 1, end, bytes);
    } catch (const std::bad_alloc&) {
      FreeNode(node, bytes);
      throw;
    }
  } catch (const std::bad_alloc&) {
    FreeTree(left, bytes);
    throw;
  }
  node->left = left;
  node->right = right;
  node->size = static_cast<uint32_t>(end - begin);
  node->height = 1 + std::max(left == nullptr ? 0 : left->height,
                              right == nullptr ? 0 : right->height);
  return node;
  // handout: end
}

}  // namespace kvlab::stage1
