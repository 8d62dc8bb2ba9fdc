#include "kvlab/stage4/stores.h"

#include <memory>

#include "kvlab/stage4/ctrie_store.h"

namespace kvlab {

void RegisterStage4Stores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "ctrie",
      .description =
          "compressed (radix) trie with subtree counts, a node "
          "pool and selectable locking (one lock, lock-free reads, per-node)",
      .origin = "stage4",
      .options =
          {
              {"compress",
               "full (default): every single-child chain is one label; "
               "suffix: only unique suffixes (the report's first version)"},
              {"alloc",
               "pool (default): size-class free lists on 2 MiB "
               "slabs; malloc: new/delete per node"},
              {"lock",
               "rcu (default): one writer, readers never block; global: "
               "one reader-writer lock; node: per-node locks, lock "
               "coupling; none: not thread-safe"},
              {"find", "child search: simd (default) or binary"},
          },
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = [](const StoreOptions& options)
          -> absl::StatusOr<std::unique_ptr<KVStore>> {
        absl::StatusOr<CTrieOptions> o =
            CTrieOptions::FromStoreOptions(options);
        if (!o.ok()) return o.status();
        return std::make_unique<CTrieStore>(*o);
      },
  });
}

}  // namespace kvlab
