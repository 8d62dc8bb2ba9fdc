// A leaf's arrays and storage: lookups by tag with speculative positioning
// (colliding tags included), lazy sorting, the moves of a split and a
// merge, and storage that grows with the pairs and drops dead bytes.

#include "leaf.h"

#include <random>
#include <set>
#include <string>
#include <vector>

#include "crc32c.h"
#include "gtest/gtest.h"

namespace kvlab::stage4::wormhole {
namespace {

void Insert(Leaf* leaf, const std::string& key, uint16_t tag,
            const std::string& value = "") {
  const std::string v = value.empty() ? "v" + key : value;
  Reserve(leaf, 1, PairBytes(key.size(), v.size()));
  InsertInLeaf(leaf, key, v, tag);
}

std::vector<std::string> KeysInOrder(const Leaf& leaf) {
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < leaf.size; ++i) {
    keys.emplace_back(leaf.PairByKey(i).key);
  }
  return keys;
}

TEST(WormholeLeafTest, FindsEveryKeyEvenWhenTagsCollide) {
  Leaf* leaf = NewLeaf(64, "");
  std::vector<std::string> keys;
  for (int i = 0; i < 64; ++i) {
    keys.push_back("key" + std::to_string(i * 7919 % 1000));
    // Every fourth key shares tag 0x8000: comparisons must tell them apart.
    const uint16_t tag = i % 4 == 0 ? 0x8000 : TagOf(Crc32c(keys.back()));
    Insert(leaf, keys.back(), tag);
  }
  for (int i = 0; i < 64; ++i) {
    const uint16_t tag = i % 4 == 0 ? 0x8000 : TagOf(Crc32c(keys[i]));
    const int at = FindInLeaf(*leaf, keys[i], tag);
    ASSERT_GE(at, 0) << keys[i];
    EXPECT_EQ(leaf->PairByTag(at).key, keys[i]);
    EXPECT_EQ(leaf->PairByTag(at).value, "v" + keys[i]);
  }
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0x8000), -1);
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0), -1);
  EXPECT_EQ(FindInLeaf(*leaf, "absent", 0xffff), -1);
  FreeLeaf(leaf);
}

// Equal tags put the speculative position at either end of the leaf (tag
// 0xffff at the last slot, 0 at the first): the walk must reach every slot
// of the run, the first and the last included, and compare keys there.
TEST(WormholeLeafTest, FindsEveryKeyWhenAllTagsAreEqual) {
  for (const uint16_t tag : {uint16_t{0}, uint16_t{0x8000}, uint16_t{0xffff}}) {
    for (uint32_t n : {1u, 2u, 5u, 16u}) {
      Leaf* leaf = NewLeaf(16, "");
      for (uint32_t i = 0; i < n; ++i) {
        Insert(leaf, "k" + std::to_string(i), tag);
      }
      for (uint32_t i = 0; i < n; ++i) {
        const std::string key = "k" + std::to_string(i);
        const int at = FindInLeaf(*leaf, key, tag);
        ASSERT_GE(at, 0) << key << " tag " << tag << " n " << n;
        EXPECT_EQ(leaf->PairByTag(at).key, key);
      }
      // Same tag and length as the stored keys, other bytes.
      EXPECT_EQ(FindInLeaf(*leaf, "kx", tag), -1);
      EXPECT_EQ(FindInLeaf(*leaf, "k", tag), -1);
      FreeLeaf(leaf);
    }
  }
}

TEST(WormholeLeafTest, SortsLazilyAndKeepsOrderThroughRemovals) {
  Leaf* leaf = NewLeaf(16, "");
  // Ascending inserts keep the key array sorted as they come.
  for (const char* k : {"a", "b", "c"}) Insert(leaf, k, 1);
  EXPECT_EQ(leaf->sorted.load(), 3u);
  // One out of order: the sorted part stops growing until a sort.
  Insert(leaf, std::string("a\0", 2), 2);
  Insert(leaf, "", 3);
  EXPECT_EQ(leaf->sorted.load(), 3u);
  EnsureSorted(leaf);
  EXPECT_EQ(leaf->sorted.load(), 5u);
  EXPECT_EQ(KeysInOrder(*leaf), (std::vector<std::string>{
                                    "", "a", std::string("a\0", 2), "b", "c"}));
  EXPECT_EQ(LowerBoundInLeaf(*leaf, "a\x01"), 3u);
  RemoveFromLeaf(leaf, FindInLeaf(*leaf, "a", 1));
  EXPECT_EQ(leaf->sorted.load(), 4u);
  EXPECT_EQ(KeysInOrder(*leaf),
            (std::vector<std::string>{"", std::string("a\0", 2), "b", "c"}));
  // The last slot took the removed one's number: everything is still found.
  for (const auto& [key, tag] : std::vector<std::pair<std::string, uint16_t>>{
           {"", 3}, {std::string("a\0", 2), 2}, {"b", 1}, {"c", 1}}) {
    const int at = FindInLeaf(*leaf, key, tag);
    ASSERT_GE(at, 0);
    EXPECT_EQ(leaf->PairByTag(at).value, "v" + key);
  }
  FreeLeaf(leaf);
}

// SortLeaf sorts the unsorted tail and merges it with the sorted head;
// whatever the tail's length, the result is key order, any bytes.
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
        Insert(leaf, key, static_cast<uint16_t>(model.size()));
        --count;
      }
    };
    insert_random(128 - tail);
    SortLeaf(leaf);
    insert_random(tail);
    ASSERT_LT(leaf->sorted.load(), leaf->size) << "tail " << tail;
    EnsureSorted(leaf);
    ASSERT_EQ(leaf->sorted.load(), leaf->size);
    EXPECT_EQ(KeysInOrder(*leaf),
              std::vector<std::string>(model.begin(), model.end()))
        << "tail " << tail;
    FreeLeaf(leaf);
  }
}

TEST(WormholeLeafTest, MoveTailAndMoveAllKeepBothArrays) {
  Leaf* left = NewLeaf(8, "");
  for (const char* k : {"d", "b", "a", "c", "e", "f"}) {
    Insert(left, k, static_cast<uint16_t>(k[0] * 300));
  }
  SortLeaf(left);
  Leaf* right = NewLeaf(8, "d");
  Block left_block;
  Block right_block;
  PrepareSplit(*left, 3, 0, &left_block, &right_block);
  MoveTail(left, 3, right, left_block, right_block);
  ASSERT_EQ(left->size, 3u);
  ASSERT_EQ(right->size, 3u);
  EXPECT_EQ(KeysInOrder(*right), (std::vector<std::string>{"d", "e", "f"}));
  EXPECT_GE(FindInLeaf(*right, "f", 'f' * 300), 0);
  EXPECT_EQ(FindInLeaf(*left, "f", 'f' * 300), -1);
  EXPECT_GE(FindInLeaf(*left, "a", 'a' * 300), 0);
  MoveAll(right, left, PrepareMerge(*right, *left));
  EXPECT_EQ(left->size, 6u);
  EXPECT_EQ(right->size, 0u);
  EXPECT_EQ(right->block.memory, nullptr);
  EXPECT_EQ(KeysInOrder(*left),
            (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  for (const char* k : {"a", "b", "c", "d", "e", "f"}) {
    const int at = FindInLeaf(*left, k, static_cast<uint16_t>(k[0] * 300));
    ASSERT_GE(at, 0) << k;
    EXPECT_EQ(left->PairByTag(at).value, std::string("v") + k);
  }
  FreeLeaf(right);
  FreeLeaf(left);
}

TEST(WormholeLeafTest, StorageGrowsWithThePairsAndDropsDeadBytes) {
  Leaf* leaf = NewLeaf(128, "");
  EXPECT_EQ(leaf->block.memory, nullptr);
  Insert(leaf, "k0", 0);
  // Room for a few pairs, not for the leaf's capacity.
  EXPECT_LT(leaf->block.slots, 8u);
  for (int i = 1; i < 40; ++i) {
    Insert(leaf, "k" + std::to_string(i), static_cast<uint16_t>(i));
  }
  EXPECT_GE(leaf->block.slots, 40u);
  EXPECT_LT(leaf->block.slots, 64u);
  // A value of the same size is rewritten in place; a longer one is
  // appended and the old pair's bytes are dead.
  const int at = FindInLeaf(*leaf, "k7", 7);
  ASSERT_TRUE(ReplacesInPlace(*leaf, at, "V7V"));
  ReplaceInLeaf(leaf, at, "V7V");
  EXPECT_EQ(leaf->data_dead, 0u);
  const std::string longer(1000, 'x');
  ASSERT_FALSE(ReplacesInPlace(*leaf, at, longer));
  Reserve(leaf, 0, PairBytes(2, longer.size()));
  ReplaceInLeaf(leaf, FindInLeaf(*leaf, "k7", 7), longer);
  EXPECT_EQ(leaf->data_dead, PairBytes(2, 3));
  EXPECT_EQ(leaf->PairByTag(FindInLeaf(*leaf, "k7", 7)).value, longer);
  // Removing the long pair makes most of the data dead: the leaf shrinks.
  const size_t before = LeafBytes(leaf);
  RemoveFromLeaf(leaf, FindInLeaf(*leaf, "k7", 7));
  EXPECT_LT(MaybeShrink(leaf), 0);
  EXPECT_LT(LeafBytes(leaf), before);
  EXPECT_EQ(leaf->data_dead, 0u);
  for (int i = 0; i < 40; ++i) {
    if (i == 7) continue;
    const std::string key = "k" + std::to_string(i);
    const int found = FindInLeaf(*leaf, key, static_cast<uint16_t>(i));
    ASSERT_GE(found, 0) << key;
    EXPECT_EQ(leaf->PairByTag(found).value, "v" + key);
  }
  // Empty, the leaf gives its storage back.
  while (leaf->size > 0) RemoveFromLeaf(leaf, 0);
  EXPECT_EQ(leaf->block.memory, nullptr);
  EXPECT_EQ(LeafBytes(leaf), sizeof(Leaf));
  FreeLeaf(leaf);
}

TEST(WormholeLeafTest, LongKeysAndValuesTakeTwoByteLengths) {
  Leaf* leaf = NewLeaf(4, "");
  const std::string key(1000, 'k');
  const std::string value(4096, 'v');
  EXPECT_EQ(PairBytes(key.size(), value.size()), 2 + 2 + 1000 + 4096u);
  EXPECT_EQ(PairBytes(127, 127), 1 + 1 + 254u);
  EXPECT_EQ(PairBytes(128, 0), 2 + 1 + 128u);
  Insert(leaf, key, 5, value);
  Insert(leaf, std::string(127, 'a'), 6, std::string(128, 'b'));
  EXPECT_EQ(leaf->PairByTag(FindInLeaf(*leaf, key, 5)).value, value);
  EXPECT_EQ(leaf->PairByTag(FindInLeaf(*leaf, std::string(127, 'a'), 6)).value,
            std::string(128, 'b'));
  FreeLeaf(leaf);
}

}  // namespace
}  // namespace kvlab::stage4::wormhole
