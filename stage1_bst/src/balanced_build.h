// Building a perfectly balanced tree from sorted pairs (AvlStore::LoadSorted,
// exercise 3 of docs/stage1_bst.md).

#ifndef KVLAB_STAGE1_SRC_BALANCED_BUILD_H_
#define KVLAB_STAGE1_SRC_BALANCED_BUILD_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "node.h"

namespace kvlab::stage1 {

// The tree of pairs[begin, end), whose keys ascend strictly and are within
// the limits: every level full but the last, so each node's subtrees differ
// in size by at most one and in height by at most one. Every node's size and
// height are set, so the result is a valid AVL tree. O(end - begin), no key
// comparison. Adds the nodes' bytes to `*bytes`; if memory runs out, frees
// what it built, restores `*bytes` and throws std::bad_alloc.
Node* BuildBalanced(
    const std::vector<std::pair<std::string, std::string>>& pairs, size_t begin,
    size_t end, size_t* bytes);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_BALANCED_BUILD_H_
