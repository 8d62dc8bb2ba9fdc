// Stage 2 of kvlab: the B-tree.
//
//   btree  BTreeStore, a B-tree with subtree key counts (btree_store.h)
//
// Options (spec "btree:order=64:keys=pointer"):
//   order     even node order 4..1024, the most children a node has
//   keys      prefix | pointer: what a node slot holds besides the pair
//             pointer (btree_store.h)
//   overflow  share | split: whether Put first moves keys from a full node
//             to a neighbour with room, or always splits it
//
// Not thread-safe (LockedStore wraps it).

#ifndef KVLAB_STAGE2_STORES_H_
#define KVLAB_STAGE2_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `btree` to `registry`.
void RegisterStage2Stores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_STAGE2_STORES_H_
