// The exercises of docs/stage3_trie.md whose answer a test can check
// (`make stage3 exercises`): 7, counting from the shape the nodes a
// compressed trie keeps. The count needs the branching points (nodes with
// two children or more) and the key ends (nodes with a value); this checks
// that the shape's histograms give exactly those, against a count made from
// the keys alone, on every layout.

#include <cstdint>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage3/stores.h"
#include "kvlab/stage3/trie_store.h"

namespace kvlab {
namespace {

std::unique_ptr<TrieStore> MakeTrie(std::string_view spec) {
  StoreRegistry registry;
  RegisterStage3Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  return std::unique_ptr<TrieStore>(dynamic_cast<TrieStore*>(store->release()));
}

// What the keys alone say about their trie: every prefix is a node (the
// empty one is the root); a prefix is a branching point when the keys
// continue it with two different bytes or more.
struct KeyCount {
  uint64_t nodes = 0;
  uint64_t branching = 0;  // nodes with two children or more
  uint64_t leaves = 0;     // keys that are no other key's prefix
};

KeyCount CountFromKeys(const std::set<std::string>& keys) {
  std::map<std::string, std::set<char>> next;  // prefix -> following bytes
  for (const std::string& key : keys) {
    for (size_t d = 0; d <= key.size(); ++d) {
      std::set<char>& bytes = next[key.substr(0, d)];
      if (d < key.size()) bytes.insert(key[d]);
    }
  }
  KeyCount count;
  for (const auto& entry : next) {
    const std::set<char>& bytes = entry.second;
    ++count.nodes;
    const bool branching = bytes.size() >= 2;
    count.branching += branching;
    count.leaves += bytes.empty();
  }
  return count;
}

uint64_t Sum(const std::vector<uint64_t>& v, size_t from = 0) {
  return std::accumulate(v.begin() + std::min(from, v.size()), v.end(),
                         uint64_t{0});
}

std::set<std::string> RandomKeys(uint64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  while (keys.size() < n) {
    // A small alphabet and short keys, so that keys often end where others
    // branch and inside one-child chains.
    std::string key(1 + rng() % 9, 'a');
    for (char& c : key) c = static_cast<char>('a' + rng() % 5);
    keys.insert(key);
  }
  return keys;
}

TEST(Exercise7Test, TheShapeCountsBranchingPointsAndKeyEnds) {
  for (const char* spec : {"trie_array", "trie_list", "trie_bst"}) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(std::string(spec) + " seed " + std::to_string(seed));
      std::set<std::string> keys = RandomKeys(2'000, seed);
      if (seed == 3) keys.insert("");  // the root's own value
      std::unique_ptr<TrieStore> trie = MakeTrie(spec);
      ASSERT_NE(trie, nullptr);
      for (const std::string& key : keys) {
        ASSERT_TRUE(trie->Put(key, "v").ok());
      }
      const KeyCount want = CountFromKeys(keys);
      const TrieShape shape = trie->Shape();
      EXPECT_EQ(shape.nodes, want.nodes);
      EXPECT_EQ(Sum(shape.fanout_histogram, 2), want.branching);
      EXPECT_EQ(shape.fanout_histogram[0], want.leaves);
      EXPECT_EQ(Sum(shape.values_at_depth), keys.size());
    }
  }
}

}  // namespace
}  // namespace kvlab
