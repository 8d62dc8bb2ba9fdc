// Stage 3 of kvlab: pointer tries (trie_store.h).
//
//   trie_array  child array per node; option alphabet=bytes|letters
//   trie_list   children in a sorted singly linked list
//   trie_bst    children in a binary search tree per node
//
// All keep subtree key counts for GetNth/DeleteNth in O(key length x
// fan-out) and are not thread-safe (LockedStore wraps them).

#ifndef KVLAB_STAGE3_STORES_H_
#define KVLAB_STAGE3_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `trie_array`, `trie_list` and `trie_bst` to `registry`.
void RegisterStage3Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE3_STORES_H_
