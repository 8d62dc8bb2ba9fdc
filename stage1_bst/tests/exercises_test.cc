// The exercises of docs/stage1_bst.md whose answer a test can check
// (`make stage1 exercises`): 2, the rank of a key and the count of a range;
// 3, building a perfectly balanced tree from sorted pairs.

#include <bit>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage1/avl_store.h"
#include "kvlab/stage1/bst_store.h"
#include "kvlab/testing/failing_allocator.h"
#include "stage1_test_util.h"

namespace kvlab {
namespace {

using stage1_testing::NumberedKey;
using stage1_testing::PutKeys;

// Exercise 2 on the tree of section 2 (apple ... peach, with banana).
template <typename Store>
void CheckFruitRanks() {
  Store store;
  PutKeys(&store,
          {"mango", "cherry", "peach", "apple", "grape", "lemon", "banana"});
  EXPECT_EQ(store.Rank("apple"), 0u);
  EXPECT_EQ(store.Rank("lemon"), 4u);
  EXPECT_EQ(store.Rank("peach"), 6u);
  EXPECT_EQ(store.Rank(""), 0u);              // before every key
  EXPECT_EQ(store.Rank("b"), 1u);             // between apple and banana
  EXPECT_EQ(store.Rank("zucchini"), 7u);      // after every key
  EXPECT_EQ(store.CountRange("b", "h"), 3u);  // banana cherry grape
  EXPECT_EQ(store.CountRange("apple", "peach"), 6u);
  EXPECT_EQ(store.CountRange("", "\xff"), 7u);
  EXPECT_EQ(store.CountRange("h", "b"), 0u);
  EXPECT_EQ(store.CountRange("grape", "grape"), 0u);
}

TEST(Exercise2Test, RanksOfTheFruitTree) {
  CheckFruitRanks<BstStore>();
  CheckFruitRanks<AvlStore>();
}

template <typename Store>
void CheckRanksAgainstAMap(uint64_t seed) {
  Store store;
  std::map<std::string, std::string> oracle;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 2'000; ++i) {
    const std::string key = NumberedKey(rng() % 5'000);
    oracle[key] = "";
    PutKeys(&store, {key});
  }
  for (int i = 0; i < 1'000; ++i) {
    const std::string key = NumberedKey(rng() % 5'000);
    if (oracle.erase(key) == 1) {
      ASSERT_TRUE(store.Delete(key));
    }
  }
  auto rank = [&](const std::string& key) {
    return static_cast<uint64_t>(
        std::distance(oracle.begin(), oracle.lower_bound(key)));
  };
  for (int i = 0; i < 2'000; ++i) {
    const std::string lo = NumberedKey(rng() % 5'100);
    const std::string hi = NumberedKey(rng() % 5'100);
    ASSERT_EQ(store.Rank(lo), rank(lo)) << lo;
    ASSERT_EQ(store.CountRange(lo, hi), lo < hi ? rank(hi) - rank(lo) : 0)
        << lo << " .. " << hi;
  }
}

TEST(Exercise2Test, RanksMatchAMapAfterPutsAndDeletes) {
  CheckRanksAgainstAMap<BstStore>(1);
  CheckRanksAgainstAMap<AvlStore>(2);
}

std::vector<std::pair<std::string, std::string>> SortedPairs(uint64_t n) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (uint64_t i = 0; i < n; ++i) {
    pairs.emplace_back(NumberedKey(i), "v" + std::to_string(i));
  }
  return pairs;
}

// Exercise 3: every size from 0 to 70 and a larger one; a perfect tree of n
// nodes has the least height possible, bit_width(n).
TEST(Exercise3Test, LoadSortedBuildsAPerfectlyBalancedTree) {
  std::vector<uint64_t> sizes;
  for (uint64_t n = 0; n <= 70; ++n) sizes.push_back(n);
  sizes.push_back(10'000);
  for (uint64_t n : sizes) {
    SCOPED_TRACE(n);
    AvlStore store;
    const auto pairs = SortedPairs(n);
    ASSERT_TRUE(store.LoadSorted(pairs).ok());
    ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
    EXPECT_EQ(store.Size(), n);
    EXPECT_EQ(store.Height(), static_cast<int>(std::bit_width(n)));
    std::vector<std::pair<std::string, std::string>> scanned;
    store.Scan("", [&](std::string_view key, std::string_view value) {
      scanned.emplace_back(key, value);
      return true;
    });
    EXPECT_EQ(scanned, pairs);
  }
}

TEST(Exercise3Test, TheLoadedTreeIsAnOrdinaryAvlTree) {
  AvlStore store;
  ASSERT_TRUE(store.LoadSorted(SortedPairs(1'000)).ok());
  for (uint64_t i = 0; i < 1'000; i += 3) {
    ASSERT_TRUE(store.Delete(NumberedKey(i)));
  }
  PutKeys(&store, {"a", "z", NumberedKey(1'000)});
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  std::string key;
  ASSERT_TRUE(store.GetNth(1, &key, nullptr));
  EXPECT_EQ(key, NumberedKey(1));
}

// Out of memory at any node: the store stays empty, nothing leaks.
TEST(Exercise3Test, OutOfMemoryLeavesTheStoreAsItWas) {
  if (!testing::MallocFailuresInjected()) {
    GTEST_SKIP() << "nodes come from malloc, which this build cannot fail";
  }
  const auto pairs = SortedPairs(20);
  for (uint64_t nth = 1;; ++nth) {
    SCOPED_TRACE(nth);
    AvlStore store;
    absl::Status status;
    uint64_t failures;
    {
      testing::FailingAllocations failing(nth);
      status = store.LoadSorted(pairs);
      failures = failing.failures();
    }
    if (failures == 0) {
      ASSERT_TRUE(status.ok()) << status;
      EXPECT_EQ(store.Size(), pairs.size());
      break;
    }
    EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
    EXPECT_EQ(store.Size(), 0u);
    EXPECT_EQ(store.MemoryUsage(), sizeof(AvlStore));
    ASSERT_TRUE(store.LoadSorted(pairs).ok());  // and it works afterwards
    ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  }
}

TEST(Exercise3Test, LoadSortedRefusesWhatItCannotLoad) {
  AvlStore store;
  auto pairs = SortedPairs(5);
  std::swap(pairs[1], pairs[2]);
  EXPECT_EQ(store.LoadSorted(pairs).code(), absl::StatusCode::kInvalidArgument);
  pairs = SortedPairs(5);
  pairs[3].first = pairs[2].first;  // a duplicate
  EXPECT_EQ(store.LoadSorted(pairs).code(), absl::StatusCode::kInvalidArgument);
  pairs = SortedPairs(5);
  pairs[4].second.assign(kMaxValueSize + 1, 'v');
  EXPECT_EQ(store.LoadSorted(pairs).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_EQ(store.MemoryUsage(), sizeof(AvlStore));
  ASSERT_TRUE(store.LoadSorted(SortedPairs(3)).ok());
  EXPECT_EQ(store.LoadSorted(SortedPairs(3)).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store.Size(), 3u);
}

}  // namespace
}  // namespace kvlab
