// The read-only walks both stage-1 trees share: lookup by key, lookup by
// rank (the subtree sizes at work), and ordered scans. All are iterative,
// so a plain BST degraded to a list of depth n is walked without recursion.

#ifndef KVLAB_STAGE1_SRC_TREE_SEARCH_H_
#define KVLAB_STAGE1_SRC_TREE_SEARCH_H_

#include <cstdint>
#include <string_view>

#include "kvlab/kv_store.h"
#include "node.h"

namespace kvlab::stage1 {

// The node holding `key`, or null. O(height).
const Node* FindNode(const Node* root, std::string_view key);

// The node of rank `n` (0-based, in key order); requires n < SizeOf(root).
// At each node the left subtree's size says whether rank n is on the left,
// here, or on the right. O(height).
const Node* SelectNode(const Node* root, uint64_t n);

// KVStore::Scan over the tree under `root`: O(height + visited) time, with
// an explicit stack of at most `height` nodes.
uint64_t ScanTree(const Node* root, std::string_view start,
                  KVStore::ScanVisitor visitor);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_TREE_SEARCH_H_
