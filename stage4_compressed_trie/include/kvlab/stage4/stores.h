// Stage 4 of kvlab: the compressed trie.
//
//   ctrie  CTrieStore, a radix trie with subtree counts, a node pool and
//          selectable locking (ctrie_store.h); options compress, alloc,
//          lock, find.

#ifndef KVLAB_STAGE4_STORES_H_
#define KVLAB_STAGE4_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `ctrie` to `registry`.
void RegisterStage4Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE4_STORES_H_
