// The first steps of stage 2 in the order a student builds them
// (tests/groups.txt): search in an empty tree, a lone leaf, then rank.
// Splits, moves, deletes and the invariant runs follow in the other files.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage2/btree_store.h"

namespace kvlab {
namespace {

std::vector<std::string> ScanAll(const KVStore& store) {
  std::vector<std::string> keys;
  store.Scan("", [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  return keys;
}

// Step 1: Find in a tree that has no root yet.
TEST(BTreeSearchTest, EmptyTreeFindsNothing) {
  BTreeStore store(8);
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_FALSE(store.Get("", nullptr));
  EXPECT_FALSE(store.Get("a", nullptr));
  EXPECT_EQ(ScanAll(store), std::vector<std::string>{});
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Step 2: while every key fits in one node (order 8: up to 7 keys), Put
// only inserts into the root leaf, in order, and SearchNode finds the slot.
TEST(BTreeSearchTest, OneLeafKeepsItsKeysSorted) {
  BTreeStore store(8);
  for (const char* key : {"m", "c", "x", "a", "p", "e"}) {
    absl::StatusOr<bool> replaced = store.Put(key, std::string("v") + key);
    ASSERT_TRUE(replaced.ok()) << replaced.status();
    EXPECT_FALSE(*replaced) << key;
  }
  EXPECT_EQ(store.DebugString(), "level 0: [a c e m p x]\n");
  EXPECT_EQ(store.Height(), 1);
  EXPECT_EQ(store.Size(), 6u);
  for (const char* key : {"a", "c", "e", "m", "p", "x"}) {
    std::string value;
    ASSERT_TRUE(store.Get(key, &value)) << key;
    EXPECT_EQ(value, std::string("v") + key);
  }
  for (const char* absent : {"", "b", "mm", "z"}) {
    EXPECT_FALSE(store.Get(absent, nullptr)) << absent;
  }
  absl::StatusOr<bool> replaced = store.Put("p", "new");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_TRUE(*replaced);
  std::string value;
  ASSERT_TRUE(store.Get("p", &value));
  EXPECT_EQ(value, "new");
  EXPECT_EQ(ScanAll(store),
            (std::vector<std::string>{"a", "c", "e", "m", "p", "x"}));
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Step 5: rank by the counts beside each child reference
// (docs/stage2_btree.md, section 5), in the 16-key tree of section 3.
TEST(BTreeRankTest, GetNthSkipsWholeChildrenByTheirCounts) {
  BTreeStore store(4);
  std::vector<std::string> letters;
  for (char c = 'a'; c <= 'p'; ++c) {
    letters.push_back(std::string(1, c));
    ASSERT_TRUE(store.Put(letters.back(), letters.back() + "!").ok());
  }
  ASSERT_EQ(store.DebugString(),
            "level 0: [(5) f (10)]\n"
            "level 1: [(2) c (2)] [(2) i (2) l (1) n (2)]\n"
            "level 2: [a b] [d e] [g h] [j k] [m] [o p]\n");
  for (uint64_t n = 0; n < letters.size(); ++n) {
    std::string key, value;
    ASSERT_TRUE(store.GetNth(n, &key, &value)) << n;
    EXPECT_EQ(key, letters[n]) << n;
    EXPECT_EQ(value, letters[n] + "!") << n;
  }
  EXPECT_FALSE(store.GetNth(letters.size(), nullptr, nullptr));
  EXPECT_FALSE(store.GetNth(UINT64_MAX, nullptr, nullptr));
}

}  // namespace
}  // namespace kvlab
