// kvlab's front door: every store of every stage, built by name.
//
//   absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
//       kvlab::MakeStore("avl");
//   if (!store.ok()) { ... store.status().message() lists what exists ... }
//   (*store)->Put("key", "value");
//
// Store names are part of the contract: bst, avl (stage 1), btree (stage 2),
// trie_array, trie_list, trie_bst (stage 3), ctrie (stage 4), hyperion
// (stage 5) and the peers (std_map, ...), each as its stage lands.

#ifndef KVLAB_KVLAB_H_
#define KVLAB_KVLAB_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/locked_store.h"
#include "kvlab/registry.h"

namespace kvlab {

// The registry of every built-in store, stages and peers.
const StoreRegistry& BuiltinStores();

// Builds a store from a spec such as "avl" or "btree:order=32", or any of
// them made durable: "durable:dir=PATH:store=btree:inner.order=32"
// (kvlab/durable_store.h).
absl::StatusOr<std::unique_ptr<KVStore>> MakeStore(std::string_view spec);

// The course API's default: the store of the most advanced stage that is
// thread-safe by itself ("ctrie").
std::string_view DefaultStoreSpec();

}  // namespace kvlab

#endif  // KVLAB_KVLAB_H_
