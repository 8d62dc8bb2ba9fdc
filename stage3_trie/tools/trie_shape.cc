// trie_shape: loads keys into a trie and prints its shape as one JSON line,
// for the nodes-per-depth histogram in docs/stage3_trie.md.
//
//   trie_shape course N [SEED]     N distinct course-style keys: 1-64 random
//                                  letters [a-zA-Z], length uniform
//   trie_shape words FILE...       the distinct lines of the word lists
//
// The shape (nodes, children and keys per depth) depends only on the key
// set, not on the child container, so one trie_list serves all three
// layouts: a layout's node bytes times `nodes` is its node memory. The
// course keys are drawn here with std::mt19937_64, the same distribution as
// kvbench's course data set but not the same bytes.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/stage3/trie_store.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: trie_shape course N [SEED]\n"
               "       trie_shape words FILE...\n");
  return 2;
}

std::string JsonList(const std::vector<uint64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ","), "]");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return Usage();
  const std::string_view source = argv[1];
  std::unique_ptr<kvlab::TrieStore> trie = kvlab::NewListTrie();
  std::string label;
  if (source == "course") {
    const uint64_t n = std::strtoull(argv[2], nullptr, 10);
    const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 42;
    std::mt19937_64 rng(seed);
    static constexpr std::string_view kLetters =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::string key;
    while (trie->Size() < n) {
      key.resize(1 + rng() % 64);
      for (char& c : key) c = kLetters[rng() % kLetters.size()];
      if (!trie->Put(key, "").ok()) return 1;
    }
    label = absl::StrCat("course n=", n, " seed=", seed);
  } else if (source == "words") {
    for (int i = 2; i < argc; ++i) {
      std::ifstream in(argv[i]);
      if (!in) {
        std::fprintf(stderr, "trie_shape: cannot read %s\n", argv[i]);
        return 1;
      }
      for (std::string line; std::getline(in, line);) {
        if (!trie->Put(line, "").ok()) return 1;
      }
    }
    label = absl::StrCat("words n=", trie->Size());
  } else {
    return Usage();
  }
  const kvlab::TrieShape shape = trie->Shape();
  uint64_t key_bytes = 0;
  for (size_t d = 0; d < shape.values_at_depth.size(); ++d) {
    key_bytes += d * shape.values_at_depth[d];
  }
  std::printf(
      "{\"keys\":\"%s\",\"n\":%llu,\"key_bytes\":%llu,\"nodes\":%llu,"
      "\"nodes_at_depth\":%s,\"children_at_depth\":%s,"
      "\"values_at_depth\":%s,\"fanout_histogram\":%s}\n",
      label.c_str(), static_cast<unsigned long long>(trie->Size()),
      static_cast<unsigned long long>(key_bytes),
      static_cast<unsigned long long>(shape.nodes),
      JsonList(shape.nodes_at_depth).c_str(),
      JsonList(shape.children_at_depth).c_str(),
      JsonList(shape.values_at_depth).c_str(),
      JsonList(shape.fanout_histogram).c_str());
  return 0;
}
