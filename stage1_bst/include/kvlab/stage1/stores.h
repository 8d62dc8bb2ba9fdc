// Stage 1 of kvlab: binary search trees.
//
//   bst  BstStore, a plain binary search tree (bst_store.h)
//   avl  AvlStore, a self-balancing AVL tree (avl_store.h)
//
// Both keep subtree sizes for O(height) GetNth/DeleteNth, take no options,
// and are not thread-safe (LockedStore wraps them).

#ifndef KVLAB_STAGE1_STORES_H_
#define KVLAB_STAGE1_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `bst` and `avl` to `registry`.
void RegisterStage1Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE1_STORES_H_
