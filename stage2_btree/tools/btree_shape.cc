// btree_shape: the shape of a B-tree of each order after n random inserts,
// with no timing and so no noise: height, and node bytes per key (from
// MemoryUsage minus the pair blocks), from which the fill factor follows.
//
//   build/s2-release/stage2_btree/btree_shape [n]   (default 1,000,000)

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "kvlab/stage2/btree_store.h"

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const size_t empty = *kvlab::BTreeStore().MemoryUsage();
  std::printf("n = %llu random 8-byte keys, empty values\n",
              static_cast<unsigned long long>(n));
  std::printf("%6s %8s %8s %14s %14s\n", "order", "share", "height",
              "node B/key", "fill %");
  for (int order : {4, 8, 16, 32, 64, 128, 256}) {
    for (bool share : {true, false}) {
      kvlab::BTreeStore store(order, kvlab::BTreeStore::KeyLayout::kPrefix,
                              share);
      std::mt19937_64 rng(42);
      uint64_t pair_bytes = 0;
      while (store.Size() < n) {
        const uint64_t k = rng();
        if (!*store.Put(std::string(reinterpret_cast<const char*>(&k), 8),
                        "")) {
          pair_bytes += 4 + 8;  // a new pair block: lengths and key
        }
      }
      const double node_bytes =
          static_cast<double>(*store.MemoryUsage() - empty - pair_bytes);
      // Fill: node bytes per key if every node were a full leaf (8 + 16
      // (order - 1) bytes for order - 1 keys) over the real figure. Close to
      // the leaf fill at large orders; internal nodes lower it at small ones.
      const double full_leaf_per_key = (8.0 + 16.0 * (order - 1)) / (order - 1);
      std::printf("%6d %8s %8d %14.1f %14.0f\n", order, share ? "yes" : "no",
                  store.Height(), node_bytes / n,
                  100.0 * full_leaf_per_key / (node_bytes / n));
    }
  }
  return 0;
}
