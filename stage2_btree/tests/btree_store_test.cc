// BTreeStore: drawings of each restructuring step, the options, memory
// accounting, prefix ties and the height bound.

#include "kvlab/stage2/btree_store.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage2/stores.h"
#include "kvlab/testing/differential.h"

namespace kvlab {
namespace {

void PutKeys(BTreeStore* store, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    absl::StatusOr<bool> replaced = store->Put(key, "");
    ASSERT_TRUE(replaced.ok()) << replaced.status();
  }
  absl::Status status = store->CheckInvariants();
  ASSERT_TRUE(status.ok()) << status;
}

std::vector<std::string> Letters(char first, char last) {
  std::vector<std::string> keys;
  for (char c = first; c <= last; ++c) keys.push_back(std::string(1, c));
  return keys;
}

TEST(BTreeStoreTest, EmptyTree) {
  BTreeStore store(4);
  EXPECT_EQ(store.DebugString(), "(empty)\n");
  EXPECT_EQ(store.Height(), 0);
  EXPECT_FALSE(store.GetNth(0, nullptr, nullptr));
  EXPECT_FALSE(store.DeleteNth(0));
  EXPECT_FALSE(store.Delete("a"));
  EXPECT_TRUE(store.CheckInvariants().ok());
}

// Order 4 holds at most three keys a node; the fourth splits the root.
TEST(BTreeStoreTest, FullRootSplitsUnderANewRoot) {
  BTreeStore store(4);
  PutKeys(&store, {"a", "b", "c"});
  EXPECT_EQ(store.DebugString(), "level 0: [a b c]\n");
  PutKeys(&store, {"d"});
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) b (2)]\n"
            "level 1: [a] [c d]\n");
  EXPECT_EQ(store.Height(), 2);
}

// A full leaf with a roomy neighbour lends it keys instead of splitting.
TEST(BTreeStoreTest, FullNodeSharesWithANeighbourBeforeSplitting) {
  BTreeStore store(4);
  PutKeys(&store, Letters('a', 'e'));
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) b (3)]\n"
            "level 1: [a] [c d e]\n");
  PutKeys(&store, {"f"});
  EXPECT_EQ(store.DebugString(),
            "level 0: [(2) c (3)]\n"
            "level 1: [a b] [d e f]\n");
}

TEST(BTreeStoreTest, WithoutSharingAFullNodeSplits) {
  BTreeStore store(4, BTreeStore::KeyLayout::kPrefix,
                   /*share_on_insert=*/false);
  PutKeys(&store, Letters('a', 'f'));
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) b (1) d (2)]\n"
            "level 1: [a] [c] [e f]\n");
}

TEST(BTreeStoreTest, DebugStringDrawsEveryLevelWithCounts) {
  BTreeStore store(4);
  PutKeys(&store, Letters('a', 'p'));
  EXPECT_EQ(store.DebugString(),
            "level 0: [(5) f (10)]\n"
            "level 1: [(2) c (2)] [(2) i (2) l (1) n (2)]\n"
            "level 2: [a b] [d e] [g h] [j k] [m] [o p]\n");
  EXPECT_EQ(store.DebugString(/*max_nodes=*/2),
            "level 0: [(5) f (10)]\n"
            "level 1: [(2) c (2)]\n"
            "... 7 more nodes not drawn\n");
  EXPECT_EQ(store.Height(), 3);
}

TEST(BTreeStoreTest, DebugStringQuotesKeysThatAreNotPlain) {
  BTreeStore store(4);
  ASSERT_TRUE(store.Put("", "").ok());
  ASSERT_TRUE(store.Put("a b", "").ok());
  ASSERT_TRUE(store.Put(std::string("\0\xff", 2), "").ok());
  EXPECT_EQ(store.DebugString(), "level 0: [\"\" \"\\x00\\xff\" \"a b\"]\n");
}

// Deletes from the tree [a b] c [d e f]: each step names the fix the walk
// makes before it enters a child holding only min_keys (1) keys.
TEST(BTreeStoreTest, DeleteBorrowsFromTheRightThenMergesAndShrinksTheRoot) {
  BTreeStore store(4);
  PutKeys(&store, Letters('a', 'f'));
  ASSERT_TRUE(store.Delete("a"));  // [a b] can spare a key: no fix
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) c (3)]\n"
            "level 1: [b] [d e f]\n");
  ASSERT_TRUE(store.Delete("b"));  // [b] borrows through c from [d e f]
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) d (2)]\n"
            "level 1: [c] [e f]\n");
  ASSERT_TRUE(store.Delete("c"));  // borrows again
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) e (1)]\n"
            "level 1: [d] [f]\n");
  ASSERT_TRUE(store.Delete("d"));  // [d] e [f] merge; the empty root goes
  EXPECT_EQ(store.DebugString(), "level 0: [e f]\n");
  EXPECT_EQ(store.Height(), 1);
  ASSERT_TRUE(store.CheckInvariants().ok());
}

// Deletes that borrow and merge deep in a three-level tree keep every
// parent's counts right: after each one, every rank names the key it
// should, and DeleteNth removes exactly the pair of its rank.
TEST(BTreeMergeRankTest, EveryRankSurvivesBorrowsAndMerges) {
  BTreeStore store(4);
  std::vector<std::string> keys = Letters('a', 'z');
  PutKeys(&store, keys);
  ASSERT_GE(store.Height(), 3);
  auto expect_ranks = [&](const std::string& after) {
    ASSERT_EQ(store.Size(), keys.size()) << after;
    for (size_t n = 0; n < keys.size(); ++n) {
      std::string key;
      ASSERT_TRUE(store.GetNth(n, &key, nullptr)) << after << ", rank " << n;
      EXPECT_EQ(key, keys[n]) << after << ", rank " << n;
    }
  };
  for (const char* gone : {"m", "a", "b", "n", "c", "o", "d", "z", "y"}) {
    ASSERT_TRUE(store.Delete(gone));
    keys.erase(std::find(keys.begin(), keys.end(), gone));
    expect_ranks(std::string("after deleting ") + gone);
  }
  for (uint64_t n : {5u, 0u, 9u, 3u}) {
    ASSERT_TRUE(store.DeleteNth(n));
    keys.erase(keys.begin() + n);
    expect_ranks("after DeleteNth(" + std::to_string(n) + ")");
  }
  EXPECT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

TEST(BTreeStoreTest, DeleteBorrowsFromTheLeft) {
  BTreeStore store(4);
  PutKeys(&store, Letters('a', 'f'));
  ASSERT_TRUE(store.Delete("e"));
  ASSERT_TRUE(store.Delete("d"));
  EXPECT_EQ(store.DebugString(),
            "level 0: [(2) c (1)]\n"
            "level 1: [a b] [f]\n");
  ASSERT_TRUE(store.Delete("f"));  // [f] borrows through c from [a b]
  EXPECT_EQ(store.DebugString(),
            "level 0: [(1) b (1)]\n"
            "level 1: [a] [c]\n");
  ASSERT_TRUE(store.CheckInvariants().ok());
}

// A key in an internal node is replaced by a neighbour taken from a leaf:
// here its successor g, since the child left of f holds only one key (c)
// and cannot spare one. DeleteNth finds the same key by rank.
TEST(BTreeStoreTest, DeleteOfAnInternalKeyTakesItsSuccessor) {
  for (bool by_rank : {false, true}) {
    BTreeStore store(4);
    PutKeys(&store, Letters('a', 'p'));
    ASSERT_TRUE(by_rank ? store.DeleteNth(5) : store.Delete("f"));
    EXPECT_EQ(store.DebugString(),
              "level 0: [(5) g (9)]\n"
              "level 1: [(2) c (2)] [(1) i (2) l (1) n (2)]\n"
              "level 2: [a b] [d e] [h] [j k] [m] [o p]\n")
        << (by_rank ? "DeleteNth(5)" : "Delete(f)");
    ASSERT_TRUE(store.CheckInvariants().ok());
  }
}

TEST(BTreeStoreTest, DeleteOfAnInternalKeyTakesItsPredecessor) {
  BTreeStore store(4);
  PutKeys(&store, Letters('a', 'p'));
  ASSERT_TRUE(store.Delete("i"));  // [g h] can spare h
  EXPECT_EQ(store.DebugString(),
            "level 0: [(5) f (9)]\n"
            "level 1: [(2) c (2)] [(1) h (2) l (1) n (2)]\n"
            "level 2: [a b] [d e] [g] [j k] [m] [o p]\n");
}

TEST(BTreeStoreTest, MemoryUsageCountsEveryNodeAndPairExactly) {
  const size_t empty = *BTreeStore(4).MemoryUsage();
  BTreeStore store(4);
  ASSERT_TRUE(store.Put("ab", "xyz").ok());
  // A leaf of order 4: 8-byte header, 3 prefixes, 3 pair pointers. The
  // pair: 4 bytes of lengths, then "ab" and "xyz".
  EXPECT_EQ(*store.MemoryUsage(), empty + (8 + 3 * 8 + 3 * 8) + (4 + 2 + 3));
  ASSERT_TRUE(store.Put("ab", "xy").ok());  // a new, shorter block
  EXPECT_EQ(*store.MemoryUsage(), empty + 56 + 8);
  PutKeys(&store, {"c", "d", "e"});  // a root of order 4 and two leaves
  const size_t internal = 8 + 3 * 8 + 3 * 8 + 4 * 8 + 4 * 8;
  EXPECT_EQ(*store.MemoryUsage(), empty + internal + 2 * 56 + 8 + 3 * 5);
  BTreeStore pointers(4, BTreeStore::KeyLayout::kPointer);
  ASSERT_TRUE(pointers.Put("ab", "xyz").ok());
  EXPECT_EQ(*pointers.MemoryUsage(), empty + (8 + 3 * 8) + 9);
}

// Keys that share their first 8 bytes, or differ only by trailing zero
// bytes, tie on the prefix and must be told apart by the full comparison.
TEST(BTreeStoreTest, KeysWithEqualPrefixesStayOrdered) {
  const std::vector<std::string> sorted = {
      "",
      std::string(1, '\0'),
      "a",
      std::string("a\0", 2),
      std::string("a\0\0\0\0\0\0\0", 8),
      std::string("a\0\0\0\0\0\0\0\0", 9),
      "prefix00",
      "prefix00a",
      "prefix00b",
      "prefix00ba",
      "prefix01",
      "\xff\xff\xff\xff\xff\xff\xff\xff",
      "\xff\xff\xff\xff\xff\xff\xff\xff\xff"};
  for (auto keys :
       {BTreeStore::KeyLayout::kPrefix, BTreeStore::KeyLayout::kPointer}) {
    BTreeStore store(4, keys);
    for (size_t i = sorted.size(); i-- > 0;) {
      ASSERT_TRUE(store.Put(sorted[i], std::to_string(i)).ok());
    }
    ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
    std::vector<std::string> scanned;
    store.Scan("", [&](std::string_view key, std::string_view) {
      scanned.emplace_back(key);
      return true;
    });
    EXPECT_EQ(scanned, sorted);
    for (size_t i = 0; i < sorted.size(); ++i) {
      std::string value;
      ASSERT_TRUE(store.Get(sorted[i], &value)) << i;
      EXPECT_EQ(value, std::to_string(i));
    }
    EXPECT_FALSE(store.Get("prefix00c", nullptr));
    EXPECT_FALSE(store.Get(std::string("a\0\0", 3), nullptr));
  }
}

// CLRS: a B-tree of minimum degree t with n keys has at most
// log_t((n + 1) / 2) + 1 levels, whatever the insertion order.
TEST(BTreeStoreTest, HeightStaysWithinTheBound) {
  for (int order : {4, 8, 64}) {
    for (bool sorted : {true, false}) {
      BTreeStore store(order);
      const int n = 20'000;
      for (int i = 0; i < n; ++i) {
        const int k = sorted ? i : (i * 7919) % n;  // 7919 is prime
        char key[16];
        std::snprintf(key, sizeof(key), "%08d", k);
        ASSERT_TRUE(store.Put(key, "").ok());
      }
      const double t = order / 2;
      EXPECT_LE(store.Height(), std::log((n + 1) / 2.0) / std::log(t) + 1)
          << "order " << order << (sorted ? " sorted" : " shuffled");
      ASSERT_TRUE(store.CheckInvariants().ok());
    }
  }
}

TEST(BTreeStoreTest, SpecsChooseOrderAndLayoutAndRejectBadValues) {
  StoreRegistry registry;
  RegisterStage2Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store =
      registry.Make("btree:order=64");
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(static_cast<BTreeStore&>(**store).order(), 64);
  EXPECT_EQ(static_cast<BTreeStore&>(**registry.Make("btree")).order(),
            BTreeStore::kDefaultOrder);
  for (const char* bad :
       {"btree:order=5", "btree:order=2", "btree:order=1026",
        "btree:keys=inline", "btree:overflow=maybe", "btree:fanout=8"}) {
    EXPECT_FALSE(registry.Make(bad).ok()) << bad;
  }
  EXPECT_TRUE(
      registry.Make("btree:order=1024:keys=pointer:overflow=split").ok());
}

}  // namespace
}  // namespace kvlab
