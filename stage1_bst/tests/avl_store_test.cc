// AvlStore: the four rotation cases, the height bound, memory accounting
// and invariants.

#include "kvlab/stage1/avl_store.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"
#include "stage1_test_util.h"

namespace kvlab {
namespace {

using stage1_testing::NumberedKey;
using stage1_testing::PutKeys;
using testing::Scaled;

// The AVL bound, with the constant rounded down as in the textbooks.
double MaxAvlHeight(uint64_t n) { return 1.44 * std::log2(n + 2.0); }

TEST(AvlStoreTest, DebugStringDrawsAFiveKeyTree) {
  AvlStore store;
  EXPECT_EQ(store.DebugString(), "(empty)\n");
  EXPECT_EQ(store.Height(), 0);
  PutKeys(&store, {"d", "b", "e", "a", "c"});
  EXPECT_EQ(store.DebugString(),
            "\"d\" size=5 height=3\n"
            "|-L \"b\" size=3 height=2\n"
            "| |-L \"a\" size=1 height=1\n"
            "| `-R \"c\" size=1 height=1\n"
            "`-R \"e\" size=1 height=1\n");
  EXPECT_EQ(store.Height(), 3);
}

// Three keys in each of the four unbalanced orders all end as b(a, c).
TEST(AvlStoreTest, ThreeKeysInAnyOrderBalance) {
  const std::string balanced =
      "\"b\" size=3 height=2\n"
      "|-L \"a\" size=1 height=1\n"
      "`-R \"c\" size=1 height=1\n";
  for (std::string order : {"cba", "abc", "cab", "acb"}) {  // LL RR LR RL
    AvlStore store;
    for (char c : order) PutKeys(&store, {std::string(1, c)});
    EXPECT_EQ(store.DebugString(), balanced) << "insert order " << order;
  }
}

// What Put answers: false for a new key, true for one it replaced, whose
// value changes while the tree keeps its shape (no rotation on a replace).
TEST(AvlStoreTest, InsertReportsNewKeysAndReplacements) {
  AvlStore store;
  for (const char* key : {"b", "a", "c"}) {
    absl::StatusOr<bool> replaced = store.Put(key, "old");
    ASSERT_TRUE(replaced.ok()) << replaced.status();
    EXPECT_FALSE(*replaced) << key << " is new";
  }
  const std::string shape = store.DebugString();
  for (const char* key : {"a", "b", "c"}) {
    absl::StatusOr<bool> replaced = store.Put(key, std::string(key) + "!");
    ASSERT_TRUE(replaced.ok()) << replaced.status();
    EXPECT_TRUE(*replaced) << key << " was there";
  }
  EXPECT_EQ(store.Size(), 3u);
  EXPECT_EQ(store.DebugString(), shape);
  for (const char* key : {"a", "b", "c"}) {
    std::string value;
    ASSERT_TRUE(store.Get(key, &value)) << key;
    EXPECT_EQ(value, std::string(key) + "!");
  }
}

// The rotation cases again with subtrees around them, so that the test also
// sees where each moved subtree is re-attached.
TEST(AvlStoreTest, InsertLeftLeftRotatesRight) {
  AvlStore store;
  PutKeys(&store, {"50", "30", "70", "20", "40", "10"});
  EXPECT_EQ(store.DebugString(),
            "\"30\" size=6 height=3\n"
            "|-L \"20\" size=2 height=2\n"
            "| `-L \"10\" size=1 height=1\n"
            "`-R \"50\" size=3 height=2\n"
            "  |-L \"40\" size=1 height=1\n"
            "  `-R \"70\" size=1 height=1\n");
}

TEST(AvlStoreTest, InsertRightRightRotatesLeft) {
  AvlStore store;
  PutKeys(&store, {"20", "10", "40", "30", "50", "60"});
  EXPECT_EQ(store.DebugString(),
            "\"40\" size=6 height=3\n"
            "|-L \"20\" size=3 height=2\n"
            "| |-L \"10\" size=1 height=1\n"
            "| `-R \"30\" size=1 height=1\n"
            "`-R \"50\" size=2 height=2\n"
            "  `-R \"60\" size=1 height=1\n");
}

TEST(AvlStoreTest, InsertLeftRightRotatesTwice) {
  AvlStore store;
  PutKeys(&store, {"50", "20", "70", "10", "30", "25"});
  EXPECT_EQ(store.DebugString(),
            "\"30\" size=6 height=3\n"
            "|-L \"20\" size=3 height=2\n"
            "| |-L \"10\" size=1 height=1\n"
            "| `-R \"25\" size=1 height=1\n"
            "`-R \"50\" size=2 height=2\n"
            "  `-R \"70\" size=1 height=1\n");
}

TEST(AvlStoreTest, InsertRightLeftRotatesTwice) {
  AvlStore store;
  PutKeys(&store, {"20", "10", "50", "60", "40", "45"});
  EXPECT_EQ(store.DebugString(),
            "\"40\" size=6 height=3\n"
            "|-L \"20\" size=2 height=2\n"
            "| `-L \"10\" size=1 height=1\n"
            "`-R \"50\" size=3 height=2\n"
            "  |-L \"45\" size=1 height=1\n"
            "  `-R \"60\" size=1 height=1\n");
}

// What Delete and DeleteNth answer and which pair they remove, not only the
// shape they leave: an absent key or rank removes nothing and says so.
TEST(AvlStoreTest, DeleteReportsAndRemovesExactlyTheNamedPair) {
  AvlStore store;
  PutKeys(&store, {"d", "b", "f", "a", "c", "e", "g"});
  const std::string shape = store.DebugString();
  EXPECT_FALSE(store.Delete("bb"));
  EXPECT_FALSE(store.Delete(""));
  EXPECT_FALSE(store.DeleteNth(7));
  EXPECT_EQ(store.Size(), 7u);
  EXPECT_EQ(store.DebugString(), shape) << "nothing was removed";

  EXPECT_TRUE(store.Delete("c"));
  EXPECT_FALSE(store.Get("c", nullptr));
  EXPECT_FALSE(store.Delete("c")) << "deleted already";
  EXPECT_TRUE(store.DeleteNth(3));  // a b d [e] f g
  EXPECT_FALSE(store.Get("e", nullptr));
  EXPECT_TRUE(store.DeleteNth(0));  // [a] b d f g
  EXPECT_TRUE(store.DeleteNth(3));  // b d f [g]
  std::string key;
  std::vector<std::string> left;
  for (uint64_t n = 0; store.GetNth(n, &key, nullptr); ++n) left.push_back(key);
  EXPECT_EQ(left, (std::vector<std::string>{"b", "d", "f"}));
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// After a delete the taller child can be balanced (balance 0), which never
// happens after an insert: a single rotation must be used, not a double.
TEST(AvlStoreTest, DeleteWithBalancedSiblingRotatesOnce) {
  AvlStore store;
  PutKeys(&store, {"20", "10", "30", "25", "35"});
  ASSERT_TRUE(store.Delete("10"));
  EXPECT_EQ(store.DebugString(),
            "\"30\" size=4 height=3\n"
            "|-L \"20\" size=2 height=2\n"
            "| `-R \"25\" size=1 height=1\n"
            "`-R \"35\" size=1 height=1\n");
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(AvlStoreTest, DeleteWithBalancedSiblingRotatesOnceMirrored) {
  AvlStore store;
  PutKeys(&store, {"20", "30", "10", "15", "05"});
  ASSERT_TRUE(store.Delete("30"));
  EXPECT_EQ(store.DebugString(),
            "\"10\" size=4 height=3\n"
            "|-L \"05\" size=1 height=1\n"
            "`-R \"20\" size=2 height=2\n"
            "  `-L \"15\" size=1 height=1\n");
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(AvlStoreTest, DeleteCanNeedADoubleRotation) {
  AvlStore store;
  PutKeys(&store, {"20", "10", "30", "25"});
  ASSERT_TRUE(store.Delete("10"));
  EXPECT_EQ(store.DebugString(),
            "\"25\" size=3 height=2\n"
            "|-L \"20\" size=1 height=1\n"
            "`-R \"30\" size=1 height=1\n");
}

// A minimal AVL tree of height 5 (a Fibonacci tree, fewest nodes for its
// height). Deleting from its short side makes one rotation lower the right
// subtree, which unbalances the root: the walk up must rotate at two levels.
TEST(AvlStoreTest, DeleteRebalancesAllTheWayUp) {
  AvlStore store;
  // Level by level, so that no insert rotates.
  PutKeys(&store, {"08", "05", "11", "03", "07", "10", "12", "02", "04", "06",
                   "09", "01"});
  ASSERT_EQ(store.Height(), 5);
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  // "11"(10(09), -) rotates right into 10(09, 11); then the root 08 has
  // heights 4 and 2 and rotates right too.
  ASSERT_TRUE(store.Delete("12"));
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_EQ(store.DebugString(),
            "\"05\" size=11 height=4\n"
            "|-L \"03\" size=4 height=3\n"
            "| |-L \"02\" size=2 height=2\n"
            "| | `-L \"01\" size=1 height=1\n"
            "| `-R \"04\" size=1 height=1\n"
            "`-R \"08\" size=6 height=3\n"
            "  |-L \"07\" size=2 height=2\n"
            "  | `-L \"06\" size=1 height=1\n"
            "  `-R \"10\" size=3 height=2\n"
            "    |-L \"09\" size=1 height=1\n"
            "    `-R \"11\" size=1 height=1\n");
}

// Deleting a node with two children moves its successor up; the heights
// below the successor's old place change, and the path must be rebuilt
// through the successor rather than the freed node.
TEST(AvlStoreTest, DeleteWithTwoChildrenRebalancesBelowTheSuccessor) {
  AvlStore store;
  PutKeys(&store, {"08", "05", "11", "03", "07", "10", "12", "02", "04", "06",
                   "09", "01"});
  // The successor of "08" is "09", leftmost under "11"; taking it out
  // leaves "10" a leaf, and "11"(10, 12) stays balanced at height 2.
  ASSERT_TRUE(store.Delete("08"));
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  // Now the root "09" has heights 4 and 2: rotate right at the root.
  EXPECT_EQ(store.DebugString(),
            "\"05\" size=11 height=4\n"
            "|-L \"03\" size=4 height=3\n"
            "| |-L \"02\" size=2 height=2\n"
            "| | `-L \"01\" size=1 height=1\n"
            "| `-R \"04\" size=1 height=1\n"
            "`-R \"09\" size=6 height=3\n"
            "  |-L \"07\" size=2 height=2\n"
            "  | `-L \"06\" size=1 height=1\n"
            "  `-R \"11\" size=3 height=2\n"
            "    |-L \"10\" size=1 height=1\n"
            "    `-R \"12\" size=1 height=1\n");
}

TEST(AvlStoreTest, AscendingInsertsOfTwoToTheKMinusOneKeysArePerfect) {
  AvlStore store;
  for (int k = 1; k <= 12; ++k) {
    for (uint64_t i = store.Size(); i < (uint64_t{1} << k) - 1; ++i) {
      PutKeys(&store, {NumberedKey(i)});
    }
    EXPECT_EQ(store.Height(), k) << store.Size() << " keys";
  }
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(AvlStoreTest, HeightStaysLogarithmic) {
  const uint64_t n = Scaled(100'000, 2'000);
  std::vector<uint64_t> shuffled(n);
  for (uint64_t i = 0; i < n; ++i) shuffled[i] = i;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(42));

  AvlStore ascending, descending, random;
  for (uint64_t i = 0; i < n; ++i) {
    PutKeys(&ascending, {NumberedKey(i)});
    PutKeys(&descending, {NumberedKey(n - 1 - i)});
    PutKeys(&random, {NumberedKey(shuffled[i])});
    if ((i & (i + 1)) == 0 || i == n - 1) {  // at sizes 2^k and at the end
      for (const AvlStore* store : {&ascending, &descending, &random}) {
        ASSERT_LE(store->Height(), MaxAvlHeight(i + 1)) << i + 1 << " keys:\n"
                                                        << store->DebugString();
      }
    }
  }
  for (const AvlStore* store : {&ascending, &descending, &random}) {
    ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
  }

  // Deleting in random order keeps the bound as the trees shrink.
  for (uint64_t i = 0; i < n / 2; ++i) {
    ASSERT_TRUE(ascending.Delete(NumberedKey(shuffled[i])));
    ASSERT_TRUE(random.DeleteNth(random.Size() / 3));
  }
  EXPECT_LE(ascending.Height(), MaxAvlHeight(ascending.Size()));
  EXPECT_LE(random.Height(), MaxAvlHeight(random.Size()));
  ASSERT_TRUE(ascending.CheckInvariants().ok()) << ascending.CheckInvariants();
  ASSERT_TRUE(random.CheckInvariants().ok()) << random.CheckInvariants();
}

TEST(AvlStoreTest, MemoryUsageIsExact) {
  AvlStore store;
  const size_t empty = sizeof(AvlStore);
  EXPECT_EQ(store.MemoryUsage(), empty);
  // The AVL node has the same 24-byte header as the plain one.
  ASSERT_TRUE(store.Put("abc", "hello").ok());
  EXPECT_EQ(store.MemoryUsage(), empty + 24 + 3 + 5);
  PutKeys(&store, {"a", "b", "c", "d"});  // rotations move, never copy
  EXPECT_EQ(store.MemoryUsage(), empty + 32 + 4 * 25);
  ASSERT_TRUE(store.Put("b", std::string(100, 'v')).ok());
  EXPECT_EQ(store.MemoryUsage(), empty + 32 + 3 * 25 + 125);
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  while (store.Size() > 0) ASSERT_TRUE(store.DeleteNth(store.Size() / 2));
  EXPECT_EQ(store.MemoryUsage(), empty);
}

// Random operations on a small key pool, every invariant checked after each.
TEST(AvlStoreTest, InvariantsHoldAfterEveryOperation) {
  struct Run {
    uint64_t seed, key_pool, operations;
  };
  // Small pools revisit keys often; the larger one grows deeper trees.
  for (const Run& run :
       {Run{1, 200, 20'000}, Run{2, 200, 20'000}, Run{3, 2'000, 6'000}}) {
    AvlStore store;
    testing::DifferentialOptions options;
    options.seed = run.seed;
    options.operations = Scaled(run.operations, 500);
    options.key_pool = run.key_pool;
    options.after_each_operation = [&store](const KVStore&) {
      absl::Status status = store.CheckInvariants();
      ASSERT_TRUE(status.ok()) << status << "\n" << store.DebugString();
      ASSERT_LE(store.Height(), MaxAvlHeight(store.Size()));
    };
    testing::RunDifferential(&store, options);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace kvlab
