// A leaf's two arrays: lookups by tag with speculative positioning (colliding
// tags included), lazy sorting, and the moves of a split and a merge.

#include "leaf.h"

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

// Equal tags put the speculative position at either end of the leaf (tag
// 0xffff at the last slot, 0 at the first): the walk must reach every slot
// of the run, the first and the last included, and compare keys there.
TEST(WormholeLeafTest, FindsEveryKeyWhenAllTagsAreEqual) {
  for (const uint16_t tag : {uint16_t{0}, uint16_t{0x8000}, uint16_t{0xffff}}) {
    for (uint32_t n : {1u, 2u, 5u, 16u}) {
      Leaf* leaf = NewLeaf(16, "");
      for (uint32_t i = 0; i < n; ++i) {
        InsertInLeaf(leaf, Make("k" + std::to_string(i), tag));
      }
      for (uint32_t i = 0; i < n; ++i) {
        const std::string key = "k" + std::to_string(i);
        const int at = FindInLeaf(*leaf, key, tag);
        ASSERT_GE(at, 0) << key << " tag " << tag << " n " << n;
        EXPECT_EQ(Leaf::ItemOf(leaf->by_tag[at])->key(), key);
      }
      // Same tag and length as the stored keys, other bytes.
      EXPECT_EQ(FindInLeaf(*leaf, "kx", tag), -1);
      EXPECT_EQ(FindInLeaf(*leaf, "k", tag), -1);
      FreeAll(leaf);
    }
  }
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
