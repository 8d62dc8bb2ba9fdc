// The exercises of docs/stage2_btree.md whose answer a test can check
// (`make stage2 exercises`): 7, sharing a full node with a neighbour never
// loops. The proof is yours; this runs the claim on every small order, with
// inputs that fill nodes from the left, from the right, in the middle and
// at random, and checks that each Put returns with the invariants holding.

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

}  // namespace
}  // namespace kvlab
