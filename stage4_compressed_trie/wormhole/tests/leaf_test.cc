// A leaf's two arrays: lookups by tag with speculative positioning (colliding
// tags included), lazy sorting, and the moves of a split and a merge.

#include "leaf.h"

#include <random>
#include <set>
#include <string>
#include <vector>

#include "crc32c.h"
#include "gtest/gtest.h"

namespace kvlab::stage4::wormhole {
namespace {

Item* Make(const std::string& key, uint16_t tag) {
  return NewItem(key, "v" + key, tag);
}

void FreeAll(Leaf* leaf) {
  for (uint32_t i = 0; i < leaf->size; ++i) FreeItem(leaf->by_key[i]);
  FreeLeaf(leaf);
}

TEST(WormholeLeafTest, FindsEveryKeyEvenWhenTagsCollide) {
  Leaf* leaf = NewLeaf(64, "");
  std::vector<std::string> keys;
  for (int i = 0; i < 64; ++i) {
    keys.push_back("key" + std::to_string(i * 7919 % 1000));
    // Every fourth key shares tag 0x8000: comparisons must tell them apart.
    const uint16_t tag = i % 4 == 0 ? 0x8000 : TagOf(Crc32c(keys.back()));
    InsertInLeaf(leaf, Make(keys.back(), tag));
  }
  for (int i = 0; i < 64; ++i) {
    const uint16_t tag = i % 4 == 0 ? 0x8000 : TagOf(Crc32c(keys[i]));
    const int at = FindInLeaf(*leaf, keys[i], tag);
    ASSERT_GE(at, 0) << keys[i];
    EXPECT_EQ(Leaf::ItemOf(leaf->by_tag[at])->key(), keys[i]);
  }
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0x8000), -1);
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0), -1);
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0xffff), -1);
  FreeAll(leaf);
}

TEST(WormholeLeafTest, SortsLazilyAndKeepsOrderThroughRemovals) {
  Leaf* leaf = NewLeaf(16, "");
  // Ascending inserts keep the key array sorted as they come.
  for (const char* k : {"a", "b", "c"}) InsertInLeaf(leaf, Make(k, 1));
  EXPECT_EQ(leaf->sorted.load(), 3u);
  // One out of order: the sorted part stops growing until a sort.
  InsertInLeaf(leaf, Make(std::string("a\0", 2), 2));
  InsertInLeaf(leaf, Make("", 3));
  EXPECT_EQ(leaf->sorted.load(), 3u);
  EnsureSorted(leaf);
  EXPECT_EQ(leaf->sorted.load(), 5u);
  std::vector<std::string> got;
  for (uint32_t i = 0; i < leaf->size; ++i) {
    got.emplace_back(leaf->by_key[i]->key());
  }
  EXPECT_EQ(got, (std::vector<std::string>{"", "a", std::string("a\0", 2), "b",
                                           "c"}));
  EXPECT_EQ(LowerBoundInLeaf(*leaf, "a\x01"), 3u);
  FreeItem(RemoveFromLeaf(leaf, FindInLeaf(*leaf, "a", 1)));
  EXPECT_EQ(leaf->sorted.load(), 4u);
  EXPECT_EQ(leaf->by_key[1]->key(), std::string("a\0", 2));
  FreeAll(leaf);
}

// SortLeaf has two ways: a short unsorted tail is inserted into the sorted
// head, a long one sorted with it. Both must give key order, any bytes.
TEST(WormholeLeafTest, SortsAShortTailAndALongTailIntoKeyOrder) {
  std::mt19937_64 random(7);
  for (uint32_t tail : {1u, 3u, 10u, 40u, 100u}) {
    Leaf* leaf = NewLeaf(128, "");
    std::set<std::string> model;
    auto insert_random = [&](uint32_t count) {
      while (count > 0) {
        std::string key(1 + random() % 6, '\0');
        for (char& c : key) c = static_cast<char>(random() % 4);
        if (!model.insert(key).second) continue;
        InsertInLeaf(leaf, Make(key, model.size()));
        --count;
      }
    };
    insert_random(128 - tail);
    SortLeaf(leaf);
    insert_random(tail);
    ASSERT_LT(leaf->sorted.load(), leaf->size) << "tail " << tail;
    EnsureSorted(leaf);
    ASSERT_EQ(leaf->sorted.load(), leaf->size);
    std::vector<std::string> got;
    for (uint32_t i = 0; i < leaf->size; ++i) {
      got.emplace_back(leaf->by_key[i]->key());
    }
    EXPECT_EQ(got, std::vector<std::string>(model.begin(), model.end()))
        << "tail " << tail;
    FreeAll(leaf);
  }
}

TEST(WormholeLeafTest, MoveTailAndMoveAllKeepBothArrays) {
  Leaf* left = NewLeaf(8, "");
  for (const char* k : {"d", "b", "a", "c", "e", "f"}) {
    InsertInLeaf(left, Make(k, static_cast<uint16_t>(k[0] * 300)));
  }
  SortLeaf(left);
  Leaf* right = NewLeaf(8, "d");
  MoveTail(left, 3, right);
  ASSERT_EQ(left->size, 3u);
  ASSERT_EQ(right->size, 3u);
  EXPECT_EQ(right->by_key[0]->key(), "d");
  EXPECT_GE(FindInLeaf(*right, "f", 'f' * 300), 0);
  EXPECT_EQ(FindInLeaf(*left, "f", 'f' * 300), -1);
  EXPECT_GE(FindInLeaf(*left, "a", 'a' * 300), 0);
  MoveAll(right, left);
  EXPECT_EQ(left->size, 6u);
  EXPECT_EQ(right->size, 0u);
  EXPECT_EQ(left->by_key[5]->key(), "f");
  EXPECT_GE(FindInLeaf(*left, "e", 'e' * 300), 0);
  FreeAll(right);
  FreeAll(left);
}

}  // namespace
}  // namespace kvlab::stage4::wormhole
