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

// The number of keys in the tree smaller than `key`: the rank `key` has, or
// would have if it were inserted. O(height), by the subtree sizes
// (exercise 2 of docs/stage1_bst.md).
uint64_t RankOf(const Node* root, std::string_view key);

// The number of keys k with lo <= k < hi; 0 unless lo < hi. O(height).
uint64_t CountRangeOf(const Node* root, std::string_view lo,
                      std::string_view hi);

// KVStore::Scan over the tree under `root`: O(height + visited) time, with
// an explicit stack of at most `height` nodes.
uint64_t ScanTree(const Node* root, std::string_view start,
                  KVStore::ScanVisitor visitor);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_TREE_SEARCH_H_
