// The exercises of docs/stage4_compressed_trie.md whose answer a test can
// check (`make stage4 exercises`): 4, the node count of suffix compression
// (SuffixNodes in src/exercises.cc; full compression's count is given
// here, as the example), and 8, the depth of a fully compressed trie
// (FullMaxDepth), both counted from the keys alone and compared with
// GetShape() on the chapter's examples and on generated words, before and
// after deletes.

#include "exercises.h"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage4/ctrie_store.h"

namespace kvlab {
namespace {

// For each non-empty prefix of the keys: how many keys start with it, and
// with how many different bytes the keys continue it.
struct Prefix {
  uint64_t keys = 0;
  std::set<char> next;
};

std::map<std::string, Prefix> Prefixes(const std::set<std::string>& keys) {
  std::map<std::string, Prefix> prefixes;
  for (const std::string& key : keys) {
    for (size_t d = 1; d <= key.size(); ++d) {
      Prefix& p = prefixes[key.substr(0, d)];
      ++p.keys;
      if (d < key.size()) p.next.insert(key[d]);
    }
  }
  return prefixes;
}

// Full compression keeps the root, every key end and every branching point.
uint64_t FullNodes(const std::set<std::string>& keys) {
  uint64_t nodes = 1;
  for (const auto& [prefix, p] : Prefixes(keys)) {
    nodes += keys.count(prefix) == 1 || p.next.size() >= 2;
  }
  return nodes;
}

using stage4::FullMaxDepth;
using stage4::SuffixNodes;

CTrieOptions WithCompress(CTrieOptions::Compress compress) {
  CTrieOptions options;
  options.compress = compress;
  return options;
}

void CheckCounts(const std::set<std::string>& keys) {
  for (auto compress :
       {CTrieOptions::Compress::kFull, CTrieOptions::Compress::kSuffix}) {
    const bool full = compress == CTrieOptions::Compress::kFull;
    SCOPED_TRACE(full ? "full" : "suffix");
    CTrieStore store(WithCompress(compress));
    std::set<std::string> stored;
    for (const std::string& key : keys) {
      ASSERT_TRUE(store.Put(key, "v").ok());
      stored.insert(key);
    }
    EXPECT_EQ(store.GetShape().nodes,
              full ? FullNodes(stored) : SuffixNodes(stored));
    if (full) {
      EXPECT_EQ(store.GetShape().max_depth, FullMaxDepth(stored));
    }
    // Every other key deleted: merges must leave the same counts.
    bool drop = true;
    for (const std::string& key : keys) {
      if (drop) {
        ASSERT_TRUE(store.Delete(key));
        stored.erase(key);
      }
      drop = !drop;
    }
    EXPECT_EQ(store.GetShape().nodes,
              full ? FullNodes(stored) : SuffixNodes(stored));
    if (full) {
      EXPECT_EQ(store.GetShape().max_depth, FullMaxDepth(stored));
    }
  }
}

TEST(Exercise4Test, TheChaptersExamples) {
  CheckCounts({"abc", "aardvark", "bc", "aid", "abd"});
  CheckCounts({"aardvark", "aardwolf"});
  CheckCounts({"ab", "abcde"});
  EXPECT_EQ(FullNodes({"aardvark", "aardwolf"}), 4u);
  EXPECT_EQ(SuffixNodes({"aardvark", "aardwolf"}), 7u);
  EXPECT_EQ(FullMaxDepth({}), 0);
  EXPECT_EQ(FullMaxDepth({"aardvark", "aardwolf"}), 2);
  EXPECT_EQ(FullMaxDepth({"ab", "abcde"}), 2);
  EXPECT_EQ(FullMaxDepth({"abc", "aardvark", "bc", "aid", "abd"}), 3);
}

// Words: a few hundred stems with endings, so that long prefixes are
// shared and some words are prefixes of others, as in the words data set.
TEST(Exercise4Test, GeneratedWords) {
  std::mt19937_64 rng(4);
  const std::vector<std::string> endings = {"",   "s",   "ed", "ing",
                                            "er", "ers", "ly", "ness"};
  std::set<std::string> words;
  for (int stem = 0; stem < 300; ++stem) {
    std::string s(3 + rng() % 6, 'a');
    for (char& c : s) c = static_cast<char>('a' + rng() % 8);
    for (const std::string& ending : endings) {
      if (rng() % 2 == 0) words.insert(s + ending);
    }
  }
  CheckCounts(words);
}

}  // namespace
}  // namespace kvlab
