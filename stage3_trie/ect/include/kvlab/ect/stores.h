// The `ect` store kind (ect_store.h) for a registry.
//
//   ect:dir=PATH            keep the store in PATH (default: a temporary
//                           directory removed when the store is closed)
//   ect:bucket_size=256     keys per virtual bucket on average
//   ect:hmax=64             largest subtree whose counts are Huffman coded
//   ect:merge_pairs=N       buffer entries that start a merge (1048576)
//   ect:sync=group          none | every | group (durable_store.h)
//   ect:buffer=hyperion     the write buffer's store kind, made through the
//                           same registry when the store is opened
//
// The buffer is named, not linked: this room depends on common/ only, so it
// asks the registry it was added to for the buffer kind at run time. A
// registry without `hyperion` (a stage's own test registry) gets common's
// std_map instead when the option is left at its default; naming a kind the
// registry lacks, an unordered one, or `ect` itself is an error.

#ifndef KVLAB_ECT_STORES_H_
#define KVLAB_ECT_STORES_H_

#include "kvlab/registry.h"

namespace kvlab {

// Adds `ect` to `registry`, which must outlive the stores it makes.
void RegisterEctStores(StoreRegistry* registry);

}  // namespace kvlab

#endif  // KVLAB_ECT_STORES_H_
