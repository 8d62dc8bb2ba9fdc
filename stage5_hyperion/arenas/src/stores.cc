#include "kvlab/stage5/stores.h"

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"

namespace kvlab {
namespace {

// The options of `hyperion`, as kvbench --list prints them.
std::vector<OptionInfo> HyperionOptionInfo() {
  return {
      {"inline_value",
       "longest value stored inline in its node, 0..255 (default "
       "255); longer values get a chunk of their own"},
      {"embed",
       "embedded containers are ejected past this many bytes, "
       "16..255 (default 144)"},
      {"eject_above",
       "an embedded container growing inside a container of more "
       "than this many bytes is ejected, 0..2^24 (default 16384; "
       "0: only by size)"},
      {"jump_successor",
       "T-nodes with more than this many S-children get a jump "
       "successor, 0..256 (default 2; the paper's threshold is 1 here; "
       "256: none)"},
      {"tnode_table",
       "T-nodes with a jump successor and more than this many "
       "S-children get a T-node jump table, 0..256 (default 32; "
       "256: none)"},
      {"tnode_table_keys",
       "... if they also have this many keys at and below them, "
       "0..2^24 (default 960)"},
      {"jump_table",
       "a Put or Delete walking past more than this many T-nodes "
       "of a container rebuilds the container's jump table, 0..254 "
       "(default 8; 0: no container jump tables)"},
      {"jump_table_min",
       "containers of fewer used bytes never get a jump table, "
       "0..2^24 (default 1024)"},
      {"compact",
       "compact the memory manager's bins when their free chunks "
       "pass this percentage of the bytes held, 0..1000 (default 0: "
       "never)"},
      {"split_above",
       "a container below the root passing this many bytes is cut "
       "in two at a T-node, 0..2^24 (default 8192; 0: never)"},
      {"split_large_above",
       "... or this many bytes while holding large_node bytes per "
       "key or more, 0..2^24 (default 2048; 0: only split_above)"},
      {"large_node",
       "bytes per key from which split_large_above applies, "
       "1..2^24 (default 64)"},
      {"read_ahead",
       "a search entering a container or directory of at most this "
       "many bytes asks for all its cache lines, 0..2^24 (default "
       "2304; 0: never)"},
      {"arenas",
       "split the store into this many arenas by first key byte "
       "(round-robin), each its own trie, memory manager and lock, "
       "so that threads work in parallel; 1..256 (default: none, "
       "not thread-safe)"},
      {"lock",
       "with arenas: each arena's lock, spin (the paper's, default), "
       "rw (reader-writer), mutex, or leftright (two copies per "
       "arena: reads never wait, writes apply twice, twice the "
       "memory)"},
      {"partition",
       "with arenas: byte (the paper's, default: first byte b to "
       "arena b mod N) or balanced (contiguous key ranges split at "
       "stored keys, chosen again as the store grows: skewed keys "
       "spread too)"},
      {"preprocess",
       "1: store keys with two zero bits injected after every six "
       "bits of bytes 1-3 (the paper's key pre-processing, for "
       "random keys), 0..1 (default 0)"},
  };
}

// `hyperion` with `options`: one trie, or arenas if the options name them.
absl::StatusOr<std::unique_ptr<KVStore>> MakeHyperion(
    const StoreOptions& options) {
  absl::StatusOr<stage5::HyperionOptions> o =
      stage5::HyperionOptions::FromStoreOptions(options);
  if (!o.ok()) return o.status();
  if (!options.Has("arenas")) {
    for (const char* needs : {"lock", "partition"}) {
      if (options.Has(needs)) {
        return absl::InvalidArgumentError(
            absl::StrCat("hyperion: option ", needs, " needs arenas"));
      }
    }
    return stage5::NewHyperionStore(*o);
  }
  absl::StatusOr<stage5::ArenaOptions> a =
      stage5::ArenaOptions::FromStoreOptions(options);
  if (!a.ok()) return a.status();
  return stage5::NewHyperionArenaStore(*o, *a);
}

}  // namespace

void RegisterStage5Stores(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "hyperion",
      .description = "Hyperion: 65,536-ary trie of exact-fit containers "
                     "with delta-encoded T/S nodes, embedded containers and "
                     "path compression, on its own memory manager",
      .origin = "stage5",
      .options = HyperionOptionInfo(),
      .ordered = true,
      .linear_nth = false,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory = MakeHyperion,
  });
}

}  // namespace kvlab
