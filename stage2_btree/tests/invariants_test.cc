// Randomized runs with CheckInvariants after every single operation: the
// differential runner's mixed operations, then sequences built to drive the
// tree through every split, move, borrow, merge and root change.

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage2/btree_store.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::Scaled;

struct Shape {
  int order;
  BTreeStore::KeyLayout keys;
  bool share;
};

std::string Describe(const Shape& shape) {
  return "order" + std::to_string(shape.order) +
         (shape.keys == BTreeStore::KeyLayout::kPrefix ? "_prefix"
                                                       : "_pointer") +
         (shape.share ? "_share" : "_split");
}

std::string ShapeName(const ::testing::TestParamInfo<Shape>& info) {
  return Describe(info.param);
}

// Without it gtest prints the struct's bytes, padding included, which
// valgrind rightly reports as uninitialised.
void PrintTo(const Shape& shape, std::ostream* os) { *os << Describe(shape); }

class InvariantsTest : public ::testing::TestWithParam<Shape> {
 protected:
  BTreeStore store_{GetParam().order, GetParam().keys, GetParam().share};
};

void ExpectValid(const KVStore& store) {
  absl::Status status = static_cast<const BTreeStore&>(store).CheckInvariants();
  ASSERT_TRUE(status.ok()) << status << "\n"
                           << static_cast<const BTreeStore&>(store).DebugString(
                                  40);
}

// All six operations, random keys that share long prefixes (so the prefix
// comparison often ties), checked against std::map and for invariants.
TEST_P(InvariantsTest, RandomOperationsKeepInvariants) {
  testing::DifferentialOptions options;
  options.seed = 7 + GetParam().order;
  options.operations = Scaled(8'000, 1'000);
  options.key_pool = 400;
  options.after_each_operation = ExpectValid;
  testing::RunDifferential(&store_, options);
}

// Grows to a few levels, then deletes every key in random order, checking
// after each step: every borrow, merge and root shrink happens on the way.
TEST_P(InvariantsTest, GrowThenDeleteEverythingKeepsInvariants) {
  const int n = static_cast<int>(Scaled(1'500, 300));
  std::mt19937_64 rng(GetParam().order);
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(std::to_string(rng()));
  for (const std::string& key : keys) {
    ASSERT_TRUE(store_.Put(key, key).ok());
    ASSERT_NO_FATAL_FAILURE(ExpectValid(store_));
  }
  ASSERT_GE(store_.Height(), 3);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const std::string& key : keys) {
    ASSERT_TRUE(store_.Delete(key)) << key;
    ASSERT_NO_FATAL_FAILURE(ExpectValid(store_));
  }
  EXPECT_EQ(store_.Size(), 0u);
  EXPECT_EQ(store_.Height(), 0);
  EXPECT_EQ(*store_.MemoryUsage(), BTreeStore().MemoryUsage());
}

// Sorted inserts always go to the rightmost leaf; deleting by rank from the
// front and the middle exercises the rank-guided walk.
TEST_P(InvariantsTest, SortedInsertAndDeleteNthKeepInvariants) {
  const int n = static_cast<int>(Scaled(1'000, 200));
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) {
    char buffer[16];
    std::snprintf(buffer, sizeof(buffer), "k%07d", i);
    keys.push_back(buffer);
    ASSERT_TRUE(store_.Put(keys.back(), "v").ok());
    ASSERT_NO_FATAL_FAILURE(ExpectValid(store_));
  }
  std::mt19937_64 rng(3);
  while (!keys.empty()) {
    const uint64_t rank = keys.size() % 3 == 0 ? 0 : rng() % keys.size();
    std::string key;
    ASSERT_TRUE(store_.GetNth(rank, &key, nullptr));
    ASSERT_EQ(key, keys[rank]);
    ASSERT_TRUE(store_.DeleteNth(rank));
    keys.erase(keys.begin() + static_cast<ptrdiff_t>(rank));
    ASSERT_EQ(store_.Size(), keys.size());
    ASSERT_NO_FATAL_FAILURE(ExpectValid(store_));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, InvariantsTest,
    ::testing::Values(Shape{4, BTreeStore::KeyLayout::kPrefix, true},
                      Shape{4, BTreeStore::KeyLayout::kPrefix, false},
                      Shape{6, BTreeStore::KeyLayout::kPointer, true},
                      Shape{8, BTreeStore::KeyLayout::kPrefix, true},
                      Shape{8, BTreeStore::KeyLayout::kPointer, false},
                      Shape{16, BTreeStore::KeyLayout::kPrefix, false}),
    ShapeName);

}  // namespace
}  // namespace kvlab
