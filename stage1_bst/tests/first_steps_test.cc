// The steps of stage 1 in the order a student builds them (tests/groups.txt):
// an empty tree, one key, many keys, the three delete cases, then balance
// under sorted input. Each test is small and names what it needs; the
// drawings are those of docs/stage1_bst.md.

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage1/avl_store.h"
#include "kvlab/stage1/bst_store.h"
#include "stage1_test_util.h"

namespace kvlab {
namespace {

using stage1_testing::NumberedKey;
using stage1_testing::PutKeys;

std::vector<std::string> ScanAll(const KVStore& store) {
  std::vector<std::string> keys;
  store.Scan("", [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  return keys;
}

// The tree of docs/stage1_bst.md, section 1.
const char kFruitTree[] =
    "\"mango\" size=6\n"
    "|-L \"cherry\" size=4\n"
    "| |-L \"apple\" size=1\n"
    "| `-R \"grape\" size=2\n"
    "|   `-R \"lemon\" size=1\n"
    "`-R \"peach\" size=1\n";

void PutFruit(BstStore* store) {
  PutKeys(store, {"mango", "cherry", "peach", "apple", "grape", "lemon"});
}

// Step 1: search (FindNode) in a tree that has no nodes.
TEST(BstEmptyTest, FindsNothing) {
  BstStore store;
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_FALSE(store.Get("", nullptr));
  EXPECT_FALSE(store.Get("apple", nullptr));
  EXPECT_FALSE(store.GetNth(0, nullptr, nullptr));
  EXPECT_EQ(ScanAll(store), std::vector<std::string>{});
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Step 2: the first Put hangs a node at the root.
TEST(BstOneKeyTest, PutThenGet) {
  BstStore store;
  absl::StatusOr<bool> replaced = store.Put("key", "value");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(*replaced) << "a new key is not a replacement";
  EXPECT_EQ(store.Size(), 1u);
  std::string value;
  ASSERT_TRUE(store.Get("key", &value));
  EXPECT_EQ(value, "value");
  EXPECT_FALSE(store.Get("ke", nullptr));
  EXPECT_FALSE(store.Get("keyy", nullptr));
  EXPECT_EQ(store.DebugString(), "\"key\" size=1\n");
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Putting a key again replaces its value and changes no subtree size.
TEST(BstOneKeyTest, PutAgainReplacesTheValue) {
  BstStore store;
  ASSERT_TRUE(store.Put("key", "one").ok());
  absl::StatusOr<bool> replaced = store.Put("key", "a longer value");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_TRUE(*replaced);
  EXPECT_EQ(store.Size(), 1u);
  std::string value;
  ASSERT_TRUE(store.Get("key", &value));
  EXPECT_EQ(value, "a longer value");
  EXPECT_EQ(store.DebugString(), "\"key\" size=1\n");
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Step 3: each new key goes left of larger keys and right of smaller ones,
// and every node it passes counts one more node below it.
TEST(BstManyKeysTest, EachKeyHangsWhereTheSearchFallsOff) {
  BstStore store;
  PutFruit(&store);
  EXPECT_EQ(store.DebugString(), kFruitTree);
  PutKeys(&store, {"banana"});  // docs section 2
  EXPECT_EQ(store.DebugString(),
            "\"mango\" size=7\n"
            "|-L \"cherry\" size=5\n"
            "| |-L \"apple\" size=2\n"
            "| | `-R \"banana\" size=1\n"
            "| `-R \"grape\" size=2\n"
            "|   `-R \"lemon\" size=1\n"
            "`-R \"peach\" size=1\n");
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(BstManyKeysTest, EveryKeyIsFoundAndScannedInOrder) {
  BstStore store;
  PutFruit(&store);
  for (const char* fruit :
       {"apple", "cherry", "grape", "lemon", "mango", "peach"}) {
    std::string value = "not found";
    EXPECT_TRUE(store.Get(fruit, &value)) << fruit;
    EXPECT_EQ(value, "") << fruit;
  }
  for (const char* absent : {"", "a", "banana", "mangos", "zucchini"}) {
    EXPECT_FALSE(store.Get(absent, nullptr)) << absent;
  }
  EXPECT_EQ(ScanAll(store),
            (std::vector<std::string>{"apple", "cherry", "grape", "lemon",
                                      "mango", "peach"}));
  EXPECT_EQ(store.Size(), 6u);
}

// Step 4: the three cases of docs/stage1_bst.md, section 3.
TEST(BstDeleteTest, ALeafIsUnhooked) {
  BstStore store;
  PutFruit(&store);
  EXPECT_FALSE(store.Delete("banana"));  // absent: nothing changes
  EXPECT_EQ(store.DebugString(), kFruitTree);
  ASSERT_TRUE(store.Delete("lemon"));
  EXPECT_EQ(store.DebugString(),
            "\"mango\" size=5\n"
            "|-L \"cherry\" size=3\n"
            "| |-L \"apple\" size=1\n"
            "| `-R \"grape\" size=1\n"
            "`-R \"peach\" size=1\n");
  EXPECT_FALSE(store.Get("lemon", nullptr));
  EXPECT_FALSE(store.Delete("lemon"));
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(BstDeleteTest, ANodeWithOneChildIsReplacedByIt) {
  BstStore store;
  PutFruit(&store);
  ASSERT_TRUE(store.Delete("grape"));
  EXPECT_EQ(store.DebugString(),
            "\"mango\" size=5\n"
            "|-L \"cherry\" size=3\n"
            "| |-L \"apple\" size=1\n"
            "| `-R \"lemon\" size=1\n"
            "`-R \"peach\" size=1\n");
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(BstDeleteTest, ANodeWithTwoChildrenIsReplacedByItsSuccessor) {
  BstStore store;
  PutFruit(&store);
  ASSERT_TRUE(store.Delete("cherry"));  // successor: grape, with a child
  EXPECT_EQ(store.DebugString(),
            "\"mango\" size=5\n"
            "|-L \"grape\" size=3\n"
            "| |-L \"apple\" size=1\n"
            "| `-R \"lemon\" size=1\n"
            "`-R \"peach\" size=1\n");
  ASSERT_TRUE(store.Delete("mango"));  // the root; successor: peach
  EXPECT_EQ(store.DebugString(),
            "\"peach\" size=4\n"
            "`-L \"grape\" size=3\n"
            "  |-L \"apple\" size=1\n"
            "  `-R \"lemon\" size=1\n");
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  for (const char* fruit : {"apple", "grape", "lemon", "peach"}) {
    ASSERT_TRUE(store.Delete(fruit)) << fruit;
  }
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_EQ(store.DebugString(), "(empty)\n");
}

// Step 5: rank by subtree sizes, docs/stage1_bst.md, section 5.
TEST(BstGetNthTest, WalksDownByTheLeftSubtreeSizes) {
  BstStore store;
  PutFruit(&store);
  PutKeys(&store, {"banana"});
  const std::vector<std::string> in_order = {
      "apple", "banana", "cherry", "grape", "lemon", "mango", "peach"};
  for (uint64_t n = 0; n < in_order.size(); ++n) {
    std::string key;
    ASSERT_TRUE(store.GetNth(n, &key, nullptr)) << n;
    EXPECT_EQ(key, in_order[n]) << n;
  }
  EXPECT_FALSE(store.GetNth(in_order.size(), nullptr, nullptr));
  ASSERT_TRUE(store.DeleteNth(4));  // lemon
  EXPECT_FALSE(store.Get("lemon", nullptr));
  EXPECT_FALSE(store.DeleteNth(6));
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

// Step 6: the lesson of docs/stage1_bst.md, section 4. Sorted keys make the
// plain tree a list as tall as it is long; the AVL tree stays within
// 1.44 log2(n + 2) levels.
TEST(AvlBalanceTest, SortedInputMakesABstAListButNotAnAvlTree) {
  const uint64_t n = 2'000;
  BstStore bst;
  AvlStore avl;
  for (uint64_t i = 0; i < n; ++i) {
    PutKeys(&bst, {NumberedKey(i)});
    PutKeys(&avl, {NumberedKey(i)});
  }
  EXPECT_EQ(bst.Height(), static_cast<int>(n));
  EXPECT_LE(avl.Height(), 1.44 * std::log2(n + 2.0));
  EXPECT_TRUE(avl.CheckInvariants().ok()) << avl.CheckInvariants();
  std::string key;
  ASSERT_TRUE(avl.GetNth(n / 2, &key, nullptr));
  EXPECT_EQ(key, NumberedKey(n / 2));
}

TEST(AvlBalanceTest, SevenFruitsInAlphabeticalOrder) {
  AvlStore store;
  PutKeys(&store,
          {"apple", "banana", "cherry", "grape", "lemon", "mango", "peach"});
  EXPECT_EQ(store.DebugString(),
            "\"grape\" size=7 height=3\n"
            "|-L \"banana\" size=3 height=2\n"
            "| |-L \"apple\" size=1 height=1\n"
            "| `-R \"cherry\" size=1 height=1\n"
            "`-R \"mango\" size=3 height=2\n"
            "  |-L \"lemon\" size=1 height=1\n"
            "  `-R \"peach\" size=1 height=1\n");
}

}  // namespace
}  // namespace kvlab
