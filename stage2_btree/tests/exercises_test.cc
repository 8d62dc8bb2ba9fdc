// The exercises of docs/stage2_btree.md whose answer a test can check
// (`make stage2 exercises`): 7, sharing a full node with a neighbour never
// loops (the proof is yours; this runs the claim on every small order, with
// inputs that fill nodes from the left, from the right, in the middle and
// at random, and checks that each Put returns with the invariants
// holding); 8 and 9, the greatest and least height of a tree of n keys
// (src/exercises.cc), checked on hand-computed values and on real trees.

#include "exercises.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage2/btree_store.h"

namespace kvlab {
namespace {

std::string Key(uint64_t i) {
  std::string key = std::to_string(i);
  return std::string(8 - key.size(), '0') + key;
}

// Key order i of `n`, for each input shape.
using Order = std::function<uint64_t(uint64_t i, uint64_t n)>;

void PutAllChecking(int order, const Order& key_at, uint64_t n) {
  BTreeStore store(order);
  for (uint64_t i = 0; i < n; ++i) {
    absl::StatusOr<bool> replaced = store.Put(Key(key_at(i, n)), "v");
    ASSERT_TRUE(replaced.ok()) << replaced.status();
    if (i % 16 == 0 || i + 1 == n) {
      ASSERT_TRUE(store.CheckInvariants().ok())
          << "order " << order << " after " << i + 1
          << " puts: " << store.CheckInvariants();
    }
  }
  EXPECT_EQ(store.Size(), n);
}

TEST(Exercise7Test, SharingNeverLoopsAtAnySmallOrder) {
  const uint64_t n = 600;
  std::vector<uint64_t> shuffled(n);
  for (uint64_t i = 0; i < n; ++i) shuffled[i] = i;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(7));
  const std::vector<std::pair<const char*, Order>> inputs = {
      // Ascending and descending fill the rightmost (leftmost) leaf with a
      // left (right) neighbour that a split left half full.
      {"ascending", [](uint64_t i, uint64_t) { return i; }},
      {"descending", [](uint64_t i, uint64_t n) { return n - 1 - i; }},
      // Into the middle of what is there: full nodes with neighbours on
      // both sides.
      {"inward", [](uint64_t i,
                    uint64_t n) { return i % 2 == 0 ? i / 2 : n - 1 - i / 2; }},
      {"random", [&](uint64_t i, uint64_t) { return shuffled[i]; }},
  };
  for (int order = BTreeStore::kMinOrder; order <= 40; order += 2) {
    for (const auto& [name, key_at] : inputs) {
      SCOPED_TRACE(name);
      PutAllChecking(order, key_at, n);
      if (HasFatalFailure()) return;
    }
  }
}

// Order 4: t = 2, so the thinnest trees of heights 1, 2, 3, 4 hold 1, 3, 7,
// 15 keys and the fullest 3, 15, 63, 255.
TEST(Exercise8Test, MaxHeightByHand) {
  EXPECT_EQ(stage2::MaxHeight(4, 0), 0);
  EXPECT_EQ(stage2::MaxHeight(4, 1), 1);
  EXPECT_EQ(stage2::MaxHeight(4, 2), 1);
  EXPECT_EQ(stage2::MaxHeight(4, 3), 2);
  EXPECT_EQ(stage2::MaxHeight(4, 6), 2);
  EXPECT_EQ(stage2::MaxHeight(4, 7), 3);
  EXPECT_EQ(stage2::MaxHeight(4, 15), 4);
  EXPECT_EQ(stage2::MaxHeight(256, 254), 1);
  EXPECT_EQ(stage2::MaxHeight(256, 255), 2);
  EXPECT_EQ(stage2::MaxHeight(256, 32'766), 2);
  EXPECT_EQ(stage2::MaxHeight(256, 32'767), 3);
  EXPECT_EQ(stage2::MaxHeight(256, 10'000'000), 4);
  EXPECT_EQ(stage2::MaxHeight(4, UINT64_MAX), 64);
}

TEST(Exercise9Test, MinHeightByHand) {
  EXPECT_EQ(stage2::MinHeight(4, 0), 0);
  EXPECT_EQ(stage2::MinHeight(4, 1), 1);
  EXPECT_EQ(stage2::MinHeight(4, 3), 1);
  EXPECT_EQ(stage2::MinHeight(4, 4), 2);
  EXPECT_EQ(stage2::MinHeight(4, 15), 2);
  EXPECT_EQ(stage2::MinHeight(4, 16), 3);
  EXPECT_EQ(stage2::MinHeight(256, 255), 1);
  EXPECT_EQ(stage2::MinHeight(256, 256), 2);
  EXPECT_EQ(stage2::MinHeight(256, 10'000'000), 3);
  EXPECT_EQ(stage2::MinHeight(4, UINT64_MAX), 32);
}

// Every tree the store builds lies between the two bounds, whatever the
// order of its puts and deletes.
TEST(Exercise8Test, RealTreesLieBetweenTheBounds) {
  for (int order : {4, 6, 8, 16, 32}) {
    SCOPED_TRACE(order);
    for (int shape = 0; shape < 3; ++shape) {
      BTreeStore store(order);
      std::mt19937_64 rng(order * 3 + shape);
      for (uint64_t i = 0; i < 3'000; ++i) {
        const uint64_t k = shape == 0 ? i : shape == 1 ? 3'000 - i : rng();
        ASSERT_TRUE(store.Put(Key(k % 100'000'000), "v").ok());
        if (shape == 2 && rng() % 3 == 0) {
          std::string key;
          ASSERT_TRUE(store.GetNth(rng() % store.Size(), &key, nullptr));
          ASSERT_TRUE(store.Delete(key));
        }
        const uint64_t n = store.Size();
        ASSERT_LE(store.Height(), stage2::MaxHeight(order, n)) << n;
        ASSERT_GE(store.Height(), stage2::MinHeight(order, n)) << n;
      }
    }
  }
}

}  // namespace
}  // namespace kvlab
