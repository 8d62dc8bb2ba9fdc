// The four ways a B-tree changes shape, each acting on two neighbouring
// children of `parent` and the key between them, and each keeping every
// count exact: the parent's counts for the two children change by what moved
// between them, and the parent's own subtree size does not change.
//
//           parent: ... K ...              split, merge and the two moves
//                      /   \               only ever touch the children
//            child[i]        child[i+1]    i and i+1 and key K = key i
//
// Splits and moves make room before an insert descends; moves and merges
// refill a child before a delete descends (see tree.h).

#ifndef KVLAB_STAGE2_SRC_RESTRUCTURE_H_
#define KVLAB_STAGE2_SRC_RESTRUCTURE_H_

#include <cstddef>

#include "node.h"

namespace kvlab::stage2 {

// child[i] is full (max_keys) and `parent` is not. Moves child[i]'s middle
// key up into `parent` as key i and its upper half into a new child[i + 1].
// Each half keeps min_keys keys, since max_keys = 2 * min_keys + 1. Throws
// std::bad_alloc, having changed nothing, if the new node cannot be had.
void SplitChild(const NodeLayout& layout, Node* parent, int i,
                size_t* node_bytes);

// child[i] and child[i + 1] together hold at most max_keys - 1 keys. Moves
// key i of `parent` and all of child[i + 1] into child[i] and frees
// child[i + 1]. The parent loses one key; if it was the root it may now be
// empty, which the caller handles.
void MergeChildren(const NodeLayout& layout, Node* parent, int i,
                   size_t* node_bytes);

// Rotates `k` keys (k >= 1) from child[i + 1] to child[i] through key i of
// `parent`: key i goes down to the end of child[i], child[i + 1]'s k-th key
// comes up, and with internal children, child[i + 1]'s first k children go
// along. child[i] must have room for k more keys.
void MoveToLeft(const NodeLayout& layout, Node* parent, int i, int k);

// The mirror image: `k` keys from child[i] to child[i + 1].
void MoveToRight(const NodeLayout& layout, Node* parent, int i, int k);

}  // namespace kvlab::stage2

#endif  // KVLAB_STAGE2_SRC_RESTRUCTURE_H_
