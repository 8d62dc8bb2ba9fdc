// The exercises of docs/stage3_trie.md whose answer a test can check
// (`make stage3 exercises`): 7, the nodes a compressed trie keeps
// (CompressedNodes in src/exercises.cc), and 8, the one-child nodes
// (SingleChildNodes), each on the chapter's keys and against the shape of
// every layout; and the property exercise 7 rests on, that the shape's
// histograms count the branching points, the leaves and the key ends
// exactly, against a count made from the keys alone.

#include "exercises.h"

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

// Keys that end where others branch or continue.
TEST(Exercise7Test, CompressedNodesByHand) {
  EXPECT_EQ(stage3::CompressedNodes({}), 1u);
  EXPECT_EQ(stage3::CompressedNodes({""}), 1u);
  EXPECT_EQ(stage3::CompressedNodes({"abc"}), 2u);
  EXPECT_EQ(stage3::CompressedNodes({"abc", "abd"}), 4u);  // ab, abc, abd
  EXPECT_EQ(stage3::CompressedNodes({"ab", "abcd"}), 3u);  // ab, abcd
  EXPECT_EQ(stage3::CompressedNodes(
                {"t", "te", "tea", "ted", "ten", "to", "i", "in", "inn"}),
            10u);
}

TEST(Exercise8Test, SingleChildNodesByHand) {
  EXPECT_EQ(stage3::SingleChildNodes({}), 0u);
  EXPECT_EQ(stage3::SingleChildNodes({"abc"}), 3u);         // root, a, ab
  EXPECT_EQ(stage3::SingleChildNodes({"abc", "abd"}), 2u);  // root, a
  EXPECT_EQ(stage3::SingleChildNodes({"", "x"}), 1u);       // the root
  EXPECT_EQ(stage3::SingleChildNodes(
                {"t", "te", "tea", "ted", "ten", "to", "i", "in", "inn"}),
            2u);  // i, in
}

TEST(Exercise7Test, CountsMatchTheShapeOfEveryLayout) {
  for (const char* spec : {"trie_array", "trie_list", "trie_bst"}) {
    SCOPED_TRACE(spec);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      std::unique_ptr<TrieStore> trie = MakeTrie(spec);
      ASSERT_NE(trie, nullptr);
      const std::set<std::string> keys = RandomKeys(300 * seed, seed);
      for (const std::string& key : keys) {
        ASSERT_TRUE(trie->Put(key, "v").ok());
      }
      const TrieShape shape = trie->Shape();
      // Kept: the root, every key end, every branching point; a key end
      // that branches counts once.
      uint64_t branching_non_keys = 0;
      std::map<std::string, std::set<char>> next;
      for (const std::string& key : keys) {
        for (size_t d = 1; d <= key.size(); ++d) {
          std::set<char>& bytes = next[key.substr(0, d)];
          if (d < key.size()) bytes.insert(key[d]);
        }
      }
      for (const auto& [prefix, bytes] : next) {
        branching_non_keys += bytes.size() >= 2 && keys.count(prefix) == 0;
      }
      EXPECT_EQ(stage3::CompressedNodes(keys),
                1 + Sum(shape.values_at_depth, 1) + branching_non_keys);
      ASSERT_GT(shape.fanout_histogram.size(), 1u);
      EXPECT_EQ(stage3::SingleChildNodes(keys), shape.fanout_histogram[1]);
    }
  }
}

}  // namespace
}  // namespace kvlab
