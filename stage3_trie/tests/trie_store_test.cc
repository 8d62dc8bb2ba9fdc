// The three tries beyond the conformance suite: node sizes and exact memory,
// pruning, the shape statistics, the letters alphabet's refusals, the list
// and BST removal cases, very long keys, and randomized runs that check every
// invariant after every operation.

#include "kvlab/stage3/trie_store.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage3/stores.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::Scaled;

std::unique_ptr<TrieStore> MakeTrie(std::string_view spec) {
  StoreRegistry registry;
  RegisterStage3Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  return std::unique_ptr<TrieStore>(dynamic_cast<TrieStore*>(store->release()));
}

void Put(KVStore* store, std::string_view key, std::string_view value = "") {
  absl::StatusOr<bool> replaced = store->Put(key, value);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
}

std::vector<std::string> AllKeys(const KVStore& store) {
  std::vector<std::string> keys;
  store.Scan("", [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return true;
  });
  return keys;
}

// Every spec, with the node size its layout promises.
struct Variant {
  std::string spec;
  size_t node_bytes;
};

void PrintTo(const Variant& variant, std::ostream* os) { *os << variant.spec; }

std::string VariantName(const ::testing::TestParamInfo<Variant>& info) {
  std::string name = info.param.spec;
  for (char& c : name) {
    if (c == ':' || c == '=') c = '_';
  }
  return name;
}

const Variant kArrayBytes = {"trie_array", 16 + 8 * 256};
const Variant kArrayLetters = {"trie_array:alphabet=letters", 16 + 8 * 52};
const Variant kList = {"trie_list", 32};
const Variant kBst = {"trie_bst", 40};

class TrieVariantTest : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override { store_ = MakeTrie(GetParam().spec); }
  std::unique_ptr<TrieStore> store_;
};

INSTANTIATE_TEST_SUITE_P(AllTries, TrieVariantTest,
                         ::testing::Values(kArrayBytes, kArrayLetters, kList,
                                           kBst),
                         VariantName);

// The tries that accept every byte value.
class AllBytesTrieTest : public TrieVariantTest {};

INSTANTIATE_TEST_SUITE_P(AllBytesTries, AllBytesTrieTest,
                         ::testing::Values(kArrayBytes, kList, kBst),
                         VariantName);

TEST_P(TrieVariantTest, NodeSizeIsTheDrawnLayout) {
  EXPECT_EQ(store_->NodeBytes(), GetParam().node_bytes);
}

// MemoryUsage is sizeof(store) + nodes x node size + value bytes, exactly;
// the empty store already has its root.
TEST_P(TrieVariantTest, MemoryUsageCountsNodesAndValuesExactly) {
  const size_t node = store_->NodeBytes();
  const size_t empty = *store_->MemoryUsage();
  EXPECT_GT(empty, node);
  Put(store_.get(), "abc", "12345");  // root + a + b + c
  EXPECT_EQ(*store_->MemoryUsage(), empty + 3 * node + 5);
  Put(store_.get(), "abd", "");  // shares a, b; adds d; no value bytes
  EXPECT_EQ(*store_->MemoryUsage(), empty + 4 * node + 5);
  Put(store_.get(), "abc", "1");  // shorter value
  EXPECT_EQ(*store_->MemoryUsage(), empty + 4 * node + 1);
  Put(store_.get(), "", "xy");  // the root holds the empty key
  EXPECT_EQ(*store_->MemoryUsage(), empty + 4 * node + 3);
  ASSERT_TRUE(store_->CheckInvariants().ok()) << store_->CheckInvariants();
  ASSERT_TRUE(store_->Delete("abc"));
  ASSERT_TRUE(store_->Delete("abd"));
  ASSERT_TRUE(store_->Delete(""));
  EXPECT_EQ(*store_->MemoryUsage(), empty);
  EXPECT_EQ(store_->Shape().nodes, 1u);
}

TEST_P(TrieVariantTest, DeletePrunesOnlyDeadBranches) {
  Put(store_.get(), "ab");
  Put(store_.get(), "abcd");
  Put(store_.get(), "abce");
  EXPECT_EQ(store_->Shape().nodes, 6u);  // root a b c d e
  ASSERT_TRUE(store_->Delete("abcd"));
  EXPECT_EQ(store_->Shape().nodes, 5u);  // d pruned; c still leads to e
  ASSERT_TRUE(store_->Delete("abce"));
  EXPECT_EQ(store_->Shape().nodes, 3u);  // c and e pruned; b holds "ab"
  EXPECT_FALSE(store_->Delete("a"));     // a prefix node, not a key
  EXPECT_EQ(store_->Shape().nodes, 3u);
  ASSERT_TRUE(store_->DeleteNth(0));
  EXPECT_EQ(store_->Shape().nodes, 1u);
  EXPECT_EQ(store_->Size(), 0u);
  ASSERT_TRUE(store_->CheckInvariants().ok()) << store_->CheckInvariants();
}

TEST_P(TrieVariantTest, PrefixKeysComeBeforeTheirExtensions) {
  for (std::string_view key : {"b", "abc", "", "a", "ab", "B", "abd"}) {
    Put(store_.get(), key, key);
  }
  const std::vector<std::string> expected = {"",    "B",   "a", "ab",
                                             "abc", "abd", "b"};
  EXPECT_EQ(AllKeys(*store_), expected);
  for (uint64_t n = 0; n < expected.size(); ++n) {
    std::string key, value;
    ASSERT_TRUE(store_->GetNth(n, &key, &value));
    EXPECT_EQ(key, expected[n]);
    EXPECT_EQ(value, expected[n]);
  }
  EXPECT_FALSE(store_->GetNth(expected.size(), nullptr, nullptr));
  // Scan from a start that is a prefix node, a key, and between keys.
  std::vector<std::string> from_ab;
  store_->Scan("ab", [&](std::string_view key, std::string_view) {
    from_ab.emplace_back(key);
    return true;
  });
  EXPECT_EQ(from_ab, (std::vector<std::string>{"ab", "abc", "abd", "b"}));
  std::vector<std::string> from_abca;
  store_->Scan("abca", [&](std::string_view key, std::string_view) {
    from_abca.emplace_back(key);
    return true;
  });
  EXPECT_EQ(from_abca, (std::vector<std::string>{"abd", "b"}));
  EXPECT_EQ(store_->Scan(
                "c", [](std::string_view, std::string_view) { return true; }),
            0u);
  ASSERT_TRUE(store_->CheckInvariants().ok()) << store_->CheckInvariants();
}

TEST_P(TrieVariantTest, ShapeCountsNodesChildrenAndValuesPerDepth) {
  for (std::string_view key : {"a", "ab", "ac", "b"}) Put(store_.get(), key);
  const TrieShape shape = store_->Shape();
  EXPECT_EQ(shape.nodes, 5u);
  EXPECT_EQ(shape.node_bytes, GetParam().node_bytes);
  EXPECT_EQ(shape.nodes_at_depth, (std::vector<uint64_t>{1, 2, 2}));
  EXPECT_EQ(shape.children_at_depth, (std::vector<uint64_t>{2, 2, 0}));
  EXPECT_EQ(shape.values_at_depth, (std::vector<uint64_t>{0, 2, 2}));
  ASSERT_EQ(shape.fanout_histogram.size(), 257u);
  EXPECT_EQ(shape.fanout_histogram[0], 3u);  // ab, ac, b
  EXPECT_EQ(shape.fanout_histogram[2], 2u);  // root, a
}

// A 1,024-byte key makes a path 1,025 nodes deep; every walk is iterative.
TEST_P(TrieVariantTest, LongestKeysWork) {
  const std::string long_key(kMaxKeySize, 'q');
  const std::string shorter(kMaxKeySize - 1, 'q');
  Put(store_.get(), long_key, "deep");
  Put(store_.get(), shorter, "less deep");
  std::string value;
  ASSERT_TRUE(store_->Get(long_key, &value));
  EXPECT_EQ(value, "deep");
  std::string key;
  ASSERT_TRUE(store_->GetNth(1, &key, &value));
  EXPECT_EQ(key, long_key);
  EXPECT_EQ(AllKeys(*store_), (std::vector<std::string>{shorter, long_key}));
  EXPECT_EQ(store_->Shape().nodes, kMaxKeySize + 1);
  ASSERT_TRUE(store_->DeleteNth(1));
  EXPECT_EQ(store_->Shape().nodes, kMaxKeySize);
  ASSERT_TRUE(store_->CheckInvariants().ok()) << store_->CheckInvariants();
}

// Random operations on letter keys from a small alphabet, so keys share
// prefixes and are prefixes of each other; the invariants and a std::map
// oracle are checked after every operation. (Letters suit every variant;
// all-byte keys are in the next test and the conformance suite.)
TEST_P(TrieVariantTest, RandomLetterOperationsKeepInvariants) {
  std::mt19937_64 rng(7);
  std::map<std::string, std::string> oracle;
  const std::string letters = "aBcZ";
  auto random_key = [&] {
    std::string key(rng() % 6, ' ');
    for (char& c : key) c = letters[rng() % letters.size()];
    return key;
  };
  const uint64_t operations = Scaled(4000, 200);
  for (uint64_t i = 0; i < operations; ++i) {
    const std::string key = random_key();
    switch (rng() % 4) {
      case 0: {
        const std::string value(rng() % 4, 'v');
        absl::StatusOr<bool> replaced = store_->Put(key, value);
        ASSERT_TRUE(replaced.ok()) << replaced.status();
        EXPECT_EQ(*replaced, oracle.count(key) == 1) << key;
        oracle[key] = value;
        break;
      }
      case 1:
        EXPECT_EQ(store_->Delete(key), oracle.erase(key) == 1) << key;
        break;
      case 2: {
        const uint64_t n = rng() % (oracle.size() + 1);
        const bool present = n < oracle.size();
        EXPECT_EQ(store_->DeleteNth(n), present);
        if (present) oracle.erase(std::next(oracle.begin(), n));
        break;
      }
      default: {
        std::string value;
        const auto it = oracle.find(key);
        ASSERT_EQ(store_->Get(key, &value), it != oracle.end()) << key;
        if (it != oracle.end()) {
          EXPECT_EQ(value, it->second);
        }
      }
    }
    ASSERT_EQ(store_->Size(), oracle.size());
    ASSERT_TRUE(store_->CheckInvariants().ok())
        << store_->CheckInvariants() << " after operation " << i;
  }
  EXPECT_EQ(testing::Contents(*store_),
            testing::Oracle(oracle.begin(), oracle.end()));
}

// The shared differential runner, all byte values, invariants after every
// operation.
TEST_P(AllBytesTrieTest, DifferentialWithInvariantsAfterEveryOperation) {
  testing::RunDifferential(
      store_.get(),
      {.seed = 11,
       .operations = Scaled(3000, 100),
       .key_pool = 200,
       .max_key_length = 24,
       .after_each_operation = [](const KVStore& store) {
         const absl::Status status =
             static_cast<const TrieStore&>(store).CheckInvariants();
         ASSERT_TRUE(status.ok()) << status;
       }});
}

TEST(TrieLettersTest, RefusesOtherBytesNamingTheAlphabet) {
  std::unique_ptr<TrieStore> store = MakeTrie("trie_array:alphabet=letters");
  Put(store.get(), "Hello");
  const size_t before = *store->MemoryUsage();
  const absl::StatusOr<bool> refused = store->Put("Hello1", "v");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(refused.status().message());
  EXPECT_NE(message.find("letters alphabet"), std::string::npos) << message;
  EXPECT_NE(message.find("0x31"), std::string::npos) << message;
  // The store is unchanged, and the key simply is not there.
  EXPECT_EQ(*store->MemoryUsage(), before);
  EXPECT_EQ(store->Size(), 1u);
  EXPECT_FALSE(store->Get("Hello1", nullptr));
  EXPECT_FALSE(store->Get(std::string("\0", 1), nullptr));
  EXPECT_FALSE(store->Delete("Hello1"));
  EXPECT_FALSE(store->Delete("\xff"));
  EXPECT_EQ(
      store->Scan("0", [](std::string_view, std::string_view) { return true; }),
      1u);  // "Hello" > "0"
  Put(store.get(), "", "the empty key has no bytes to refuse");
  EXPECT_EQ(store->Size(), 2u);
  ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
}

TEST(TrieLettersTest, AllBytesAlphabetAcceptsWhatLettersRefuse) {
  std::unique_ptr<TrieStore> store = MakeTrie("trie_array:alphabet=bytes");
  Put(store.get(), std::string("a\0\xff 1", 5));
  EXPECT_EQ(store->Size(), 1u);
}

TEST(TrieLettersTest, UnknownAlphabetIsRefusedWithTheChoices) {
  StoreRegistry registry;
  RegisterStage3Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store =
      registry.Make("trie_array:alphabet=greek");
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("letters"), std::string::npos)
      << store.status();
  EXPECT_FALSE(registry.Make("trie_list:alphabet=letters").ok());
}

// A sorted sibling list answers only for its own bytes: bytes before the
// first child, between two and past the last find nothing, though the
// walk stops at the next larger child.
TEST(TrieListTest, ChildFindsOnlyItsOwnByte) {
  std::unique_ptr<TrieStore> store = MakeTrie("trie_list");
  for (const char* key : {"d", "dk", "k", "r"}) Put(store.get(), key, key);
  std::string value;
  for (const char* key : {"d", "dk", "k", "r"}) {
    ASSERT_TRUE(store->Get(key, &value)) << key;
    EXPECT_EQ(value, key);
  }
  for (const char* absent : {"a", "e", "j", "m", "z", "da", "dl", "kk"}) {
    EXPECT_FALSE(store->Get(absent, nullptr)) << absent;
    EXPECT_FALSE(store->Delete(absent)) << absent;
  }
  EXPECT_EQ(store->Size(), 4u);
  EXPECT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
}

// Deleting a child from a sorted sibling list: the first, one in the
// middle and the last, each unlinked from the sibling before it while the
// others stay reachable.
TEST(TrieListTest, RemovingAChildAnywhereInTheListKeepsItsSiblings) {
  const std::string children = "dkrz";  // the root's list: d -> k -> r -> z
  for (char removed : children) {
    std::unique_ptr<TrieStore> store = MakeTrie("trie_list");
    for (char c : children) Put(store.get(), std::string(1, c));
    ASSERT_TRUE(store->Delete(std::string(1, removed)));
    ASSERT_TRUE(store->CheckInvariants().ok())
        << store->CheckInvariants() << " removing " << removed;
    std::vector<std::string> expected;
    for (char c : children) {
      if (c != removed) expected.push_back(std::string(1, c));
    }
    EXPECT_EQ(AllKeys(*store), expected) << "removing " << removed;
    EXPECT_EQ(store->Size(), children.size() - 1) << "removing " << removed;
    EXPECT_EQ(store->Shape().nodes, children.size()) << "removing " << removed;
  }
}

// Deleting a child from a sibling BST: a leaf, a node with one subtree, and
// a node with two (its in-order successor moves up), including the case
// where the successor is the right child itself.
TEST(TrieBstTest, RemovingChildrenInEveryBstCase) {
  // Inserted in this order, the root's children form the tree
  //        m
  //      /   \.
  //     c     t
  //    / \   / \.
  //   a   f p   z
  //         \.
  //          r
  const std::string order = "mctafpzr";
  for (std::string removal : {"m", "t", "c", "f", "p", "a", "z"}) {
    std::unique_ptr<TrieStore> store = MakeTrie("trie_bst");
    for (char c : order) {
      Put(store.get(), std::string(1, c));
      Put(store.get(), std::string(1, c) + "x");  // a child below each
    }
    ASSERT_TRUE(store->Delete(removal + "x"));
    ASSERT_TRUE(store->Delete(removal));
    ASSERT_TRUE(store->CheckInvariants().ok())
        << store->CheckInvariants() << " removing " << removal;
    std::vector<std::string> expected;
    std::string sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (char c : sorted) {
      if (std::string(1, c) == removal) continue;
      expected.push_back(std::string(1, c));
      expected.push_back(std::string(1, c) + "x");
    }
    EXPECT_EQ(AllKeys(*store), expected) << "removing " << removal;
    EXPECT_EQ(store->Shape().nodes, 1 + 2 * (order.size() - 1));
  }
}

}  // namespace
}  // namespace kvlab
