// BstStore: shapes, deletion cases, memory accounting and invariants.

#include "kvlab/stage1/bst_store.h"

#include <string>

#include "gtest/gtest.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"
#include "stage1_test_util.h"

namespace kvlab {
namespace {

using stage1_testing::NumberedKey;
using stage1_testing::PutKeys;
using testing::Scaled;

TEST(BstStoreTest, DebugStringDrawsAFiveKeyTree) {
  BstStore store;
  EXPECT_EQ(store.DebugString(), "(empty)\n");
  PutKeys(&store, {"d", "b", "e", "a", "c"});
  EXPECT_EQ(store.DebugString(),
            "\"d\" size=5\n"
            "|-L \"b\" size=3\n"
            "| |-L \"a\" size=1\n"
            "| `-R \"c\" size=1\n"
            "`-R \"e\" size=1\n");
  EXPECT_EQ(store.Height(), 3);
}

TEST(BstStoreTest, DebugStringEscapesKeysAndStopsAtMaxNodes) {
  BstStore store;
  ASSERT_TRUE(store.Put(std::string("\0\xff", 2), "v").ok());
  ASSERT_TRUE(store.Put("\"q\"", "v").ok());
  EXPECT_EQ(store.DebugString(),
            "\"\\x00\\xff\" size=2\n"
            "`-R \"\\\"q\\\"\" size=1\n");

  BstStore sorted;
  for (int i = 0; i < 10; ++i) PutKeys(&sorted, {NumberedKey(i)});
  EXPECT_EQ(sorted.DebugString(3),
            "\"k00000000\" size=10\n"
            "`-R \"k00000001\" size=9\n"
            "  `-R \"k00000002\" size=8\n"
            "... 7 more nodes\n");
}

TEST(BstStoreTest, SortedInputBuildsAList) {
  BstStore ascending;
  BstStore descending;
  for (int i = 0; i < 5; ++i) {
    PutKeys(&ascending, {NumberedKey(i)});
    PutKeys(&descending, {NumberedKey(4 - i)});
  }
  EXPECT_EQ(ascending.Height(), 5);
  EXPECT_EQ(descending.Height(), 5);
  EXPECT_EQ(descending.DebugString(),
            "\"k00000004\" size=5\n"
            "`-L \"k00000003\" size=4\n"
            "  `-L \"k00000002\" size=3\n"
            "    `-L \"k00000001\" size=2\n"
            "      `-L \"k00000000\" size=1\n");
}

TEST(BstStoreTest, DeleteCoversEveryCase) {
  BstStore store;
  PutKeys(&store, {"50", "30", "70", "20", "40", "60", "80", "35", "45", "65"});
  ASSERT_TRUE(store.CheckInvariants().ok());

  // Two children, successor deep in the right subtree with a right child.
  ASSERT_TRUE(store.Delete("50"));
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_EQ(store.DebugString(),
            "\"60\" size=9\n"
            "|-L \"30\" size=5\n"
            "| |-L \"20\" size=1\n"
            "| `-R \"40\" size=3\n"
            "|   |-L \"35\" size=1\n"
            "|   `-R \"45\" size=1\n"
            "`-R \"70\" size=3\n"
            "  |-L \"65\" size=1\n"
            "  `-R \"80\" size=1\n");

  ASSERT_TRUE(store.Delete("30"));  // two children, successor a leaf
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  ASSERT_TRUE(store.Delete("20"));  // a leaf
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  ASSERT_TRUE(store.Delete("40"));  // only a right child
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  ASSERT_TRUE(store.Delete("70"));  // two children, successor its right child
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_FALSE(store.Delete("70"));
  EXPECT_EQ(store.DebugString(),
            "\"60\" size=5\n"
            "|-L \"35\" size=2\n"
            "| `-R \"45\" size=1\n"
            "`-R \"80\" size=2\n"
            "  `-L \"65\" size=1\n");

  ASSERT_TRUE(store.Delete("80"));  // only a left child
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_EQ(store.DebugString(),
            "\"60\" size=4\n"
            "|-L \"35\" size=2\n"
            "| `-R \"45\" size=1\n"
            "`-R \"65\" size=1\n");
}

TEST(BstStoreTest, GetNthAndDeleteNthFollowSubtreeSizes) {
  BstStore store;
  PutKeys(&store, {"50", "30", "70", "20", "40", "60", "80", "35", "45", "65"});
  const char* const in_order[] = {"20", "30", "35", "40", "45",
                                  "50", "60", "65", "70", "80"};
  for (int i = 0; i < 10; ++i) {
    std::string key;
    ASSERT_TRUE(store.GetNth(i, &key, nullptr));
    EXPECT_EQ(key, in_order[i]);
  }
  EXPECT_FALSE(store.GetNth(10, nullptr, nullptr));
  EXPECT_FALSE(store.DeleteNth(10));

  ASSERT_TRUE(store.DeleteNth(5));  // "50", the root, with two children
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  ASSERT_TRUE(store.DeleteNth(0));  // "20"
  ASSERT_TRUE(store.DeleteNth(7));  // "80", now the last
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_EQ(store.DebugString(),
            "\"60\" size=7\n"
            "|-L \"30\" size=4\n"
            "| `-R \"40\" size=3\n"
            "|   |-L \"35\" size=1\n"
            "|   `-R \"45\" size=1\n"
            "`-R \"70\" size=2\n"
            "  `-L \"65\" size=1\n");
}

TEST(BstStoreTest, MemoryUsageIsExact) {
  BstStore store;
  const size_t empty = sizeof(BstStore);
  EXPECT_EQ(store.MemoryUsage(), empty);
  // Each node: a 24-byte header, then the key and value bytes.
  ASSERT_TRUE(store.Put("abc", "hello").ok());
  EXPECT_EQ(store.MemoryUsage(), empty + 24 + 3 + 5);
  ASSERT_TRUE(store.Put("", "").ok());
  EXPECT_EQ(store.MemoryUsage(), empty + 32 + 24);
  ASSERT_TRUE(store.Put("abc", "hello, world").ok());  // grows by 7
  EXPECT_EQ(store.MemoryUsage(), empty + 39 + 24);
  ASSERT_TRUE(store.Put("abc", "HELLO, WORLD").ok());  // same length
  EXPECT_EQ(store.MemoryUsage(), empty + 39 + 24);
  ASSERT_TRUE(store.Put("abc", "").ok());  // shrinks
  EXPECT_EQ(store.MemoryUsage(), empty + 27 + 24);
  ASSERT_TRUE(
      store.Put(std::string(kMaxKeySize, 'k'), std::string(kMaxValueSize, 'v'))
          .ok());
  EXPECT_EQ(store.MemoryUsage(), empty + 27 + 24 + 24 + 1024 + 4096);
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  ASSERT_TRUE(store.Delete("abc"));
  ASSERT_TRUE(store.DeleteNth(0));
  ASSERT_TRUE(store.DeleteNth(0));
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_EQ(store.MemoryUsage(), empty);
}

TEST(BstStoreTest, ValuesSurviveAReplacementThatMovesTheNode) {
  BstStore store;
  PutKeys(&store, {"m", "c", "x", "a", "e"});
  const std::string long_value(3000, 'L');
  ASSERT_TRUE(store.Put("c", long_value).ok());  // an inner node, realloc'd
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  std::string value;
  ASSERT_TRUE(store.Get("c", &value));
  EXPECT_EQ(value, long_value);
  ASSERT_TRUE(store.Get("a", &value));
  EXPECT_EQ(value, "");
  EXPECT_EQ(store.DebugString(),
            "\"m\" size=5\n"
            "|-L \"c\" size=3\n"
            "| |-L \"a\" size=1\n"
            "| `-R \"e\" size=1\n"
            "`-R \"x\" size=1\n");
}

// Random operations on a small key pool, every invariant checked after each.
TEST(BstStoreTest, InvariantsHoldAfterEveryOperation) {
  struct Run {
    uint64_t seed, key_pool, operations;
  };
  // Small pools revisit keys often; the larger one grows deeper trees.
  for (const Run& run :
       {Run{1, 200, 20'000}, Run{2, 200, 20'000}, Run{3, 2'000, 6'000}}) {
    BstStore store;
    testing::DifferentialOptions options;
    options.seed = run.seed;
    options.operations = Scaled(run.operations, 500);
    options.key_pool = run.key_pool;
    options.after_each_operation = [&store](const KVStore&) {
      absl::Status status = store.CheckInvariants();
      ASSERT_TRUE(status.ok()) << status << "\n" << store.DebugString();
    };
    testing::RunDifferential(&store, options);
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace kvlab
