// Anchors and the MetaTrie: the rule that forms an anchor at a split (a
// worked example), binary keys whose only difference is trailing zero bytes,
// the empty key, maximum-size keys, and merges down to a single leaf.

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage4/wormhole_store.h"

namespace kvlab {
namespace {

std::unique_ptr<WormholeStore> Make(uint32_t leaf) {
  WormholeOptions options;
  options.leaf_capacity = leaf;
  return std::make_unique<WormholeStore>(options);
}

std::vector<std::string> ScanKeys(const KVStore& store, std::string_view from) {
  std::vector<std::string> keys;
  store.Scan(from, [&](std::string_view k, std::string_view) {
    keys.emplace_back(k);
    return true;
  });
  return keys;
}

// The chapter's worked example: four-pair leaves filled with names. Each
// split cuts a full leaf in half and takes as the new anchor the shortest
// prefix of the right half's first key that exceeds the left half's last.
TEST(WormholeAnchorTest, WorkedExampleFormsTheShortestAnchors) {
  auto store = Make(4);
  for (const char* name : {"Aaron", "Abbe", "Andrew", "Austin", "Denice",
                           "Jacob", "James", "Jason", "John"}) {
    ASSERT_TRUE(store->Put(name, "").ok());
    ASSERT_TRUE(store->CheckInvariants().ok()) << name;
  }
  // "Abbe" | "Andrew" gives "An"; "Austin" | "Denice" gives "D";
  // "Jacob" | "James" gives "Jam".
  EXPECT_EQ(store->Anchors(), (std::vector<std::string>{"", "An", "D", "Jam"}));
  for (const char* name : {"Aaron", "Andrew", "Denice", "Jacob", "John"}) {
    EXPECT_TRUE(store->Get(name, nullptr)) << name;
  }
  // Keys that are absent but land in each leaf, before the first anchor,
  // on an anchor's prefix, past the last.
  for (const char* absent : {"", "A", "Am", "An", "B", "D", "Ja", "Jam", "Z"}) {
    EXPECT_FALSE(store->Get(absent, nullptr)) << absent;
  }
  EXPECT_EQ(ScanKeys(*store, "Ann"),
            (std::vector<std::string>{"Austin", "Denice", "Jacob", "James",
                                      "Jason", "John"}));
}

// Every key of up to four bytes over {0, 'a', 'b'} (120 keys that are
// prefixes of each other), put and deleted in a shuffled order with
// four-pair leaves, against a std::map: each operation's answer, the
// invariants (every key in the leaf its anchors bound, every table node
// right) after each, and Get, GetNth and Scan of the whole store between
// the phases. Keys ending at a table node, between two anchors' subtrees
// and past the last one reach every branch of the lookup.
TEST(WormholeAnchorTest, PrefixKeysAgainstAMapThroughSplitsAndMerges) {
  std::vector<std::string> keys;
  for (size_t length = 1; length <= 4; ++length) {
    std::string key(length, '\0');
    for (;;) {
      keys.push_back(key);
      size_t i = length;
      while (i > 0 && key[i - 1] == 'b') key[--i] = '\0';
      if (i == 0) break;
      key[i - 1] = key[i - 1] == '\0' ? 'a' : 'b';
    }
  }
  ASSERT_EQ(keys.size(), 120u);
  std::mt19937 rng(11);
  std::shuffle(keys.begin(), keys.end(), rng);
  auto store = Make(4);
  std::map<std::string, std::string> model;
  auto check_all = [&](const char* phase) {
    ASSERT_EQ(store->Size(), model.size()) << phase;
    std::vector<std::string> want;
    uint64_t rank = 0;
    for (const auto& [k, v] : model) {
      want.push_back(k);
      std::string value, key;
      ASSERT_TRUE(store->Get(k, &value))
          << phase << " " << ::testing::PrintToString(k);
      EXPECT_EQ(value, v);
      ASSERT_TRUE(store->GetNth(rank++, &key, &value)) << phase;
      EXPECT_EQ(key, k) << phase;
      EXPECT_EQ(value, v) << phase;
    }
    EXPECT_EQ(ScanKeys(*store, ""), want) << phase;
    for (const std::string& k : keys) {
      if (model.count(k) == 0) {
        EXPECT_FALSE(store->Get(k, nullptr)) << phase;
      }
      EXPECT_FALSE(store->Get(k + "c", nullptr)) << phase;
    }
  };
  for (const std::string& k : keys) {
    absl::StatusOr<bool> replaced = store->Put(k, "v" + k);
    ASSERT_TRUE(replaced.ok()) << replaced.status();
    EXPECT_FALSE(*replaced) << ::testing::PrintToString(k);
    model[k] = "v" + k;
    const absl::Status s = store->CheckInvariants();
    ASSERT_TRUE(s.ok()) << s << " after putting "
                        << ::testing::PrintToString(k);
    ASSERT_TRUE(store->Get(k, nullptr)) << ::testing::PrintToString(k);
  }
  EXPECT_GT(store->GetShape().leaves, 30u);
  check_all("after the puts");
  for (size_t i = 0; i < keys.size(); i += 3) {
    absl::StatusOr<bool> replaced = store->Put(keys[i], "w");
    ASSERT_TRUE(replaced.ok() && *replaced)
        << ::testing::PrintToString(keys[i]);
    model[keys[i]] = "w";
  }
  std::shuffle(keys.begin(), keys.end(), rng);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i == keys.size() / 2) check_all("halfway through the deletes");
    EXPECT_TRUE(store->Delete(keys[i])) << ::testing::PrintToString(keys[i]);
    model.erase(keys[i]);
    EXPECT_FALSE(store->Delete(keys[i])) << ::testing::PrintToString(keys[i]);
    const absl::Status s = store->CheckInvariants();
    ASSERT_TRUE(s.ok()) << s << " after deleting "
                        << ::testing::PrintToString(keys[i]);
  }
  check_all("after the deletes");
  EXPECT_EQ(store->GetShape().leaves, 1u);
}

// N + 1 keys that differ only in trailing zero bytes: the paper needs a
// "fat" leaf here, since its smallest token is the byte 0. kvlab keeps the
// smallest token as a flag of the table node, so each split finds a legal
// anchor and no leaf outgrows its capacity.
TEST(WormholeAnchorTest, KeysDifferingOnlyInTrailingZerosSplitNormally) {
  auto store = Make(4);
  std::vector<std::string> keys;
  for (size_t zeros = 0; zeros < 200; ++zeros) {
    keys.push_back("1" + std::string(zeros, '\0'));
  }
  // Inserted from the longest down, so every split happens among them.
  for (size_t i = keys.size(); i-- > 0;) {
    ASSERT_TRUE(store->Put(keys[i], std::to_string(i)).ok());
  }
  ASSERT_TRUE(store->CheckInvariants().ok());
  EXPECT_LE(store->GetShape().largest_leaf, 4u);
  EXPECT_GT(store->GetShape().leaves, 50u);
  EXPECT_EQ(ScanKeys(*store, ""), keys);
  std::string value;
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(store->Get(keys[i], &value));
    EXPECT_EQ(value, std::to_string(i));
    std::string key;
    ASSERT_TRUE(store->GetNth(i, &key, nullptr));
    EXPECT_EQ(key, keys[i]);
  }
  EXPECT_FALSE(store->Get("1" + std::string(200, '\0'), nullptr));
  EXPECT_FALSE(store->Get(std::string("0\0", 2), nullptr));
}

TEST(WormholeAnchorTest, EmptyKeyAndExtremeBytes) {
  auto store = Make(4);
  const std::vector<std::string> keys = {"",
                                         std::string(1, '\0'),
                                         std::string(2, '\0'),
                                         "\x01",
                                         "a",
                                         "a\xff",
                                         "\xff",
                                         "\xff\xff",
                                         std::string("\xff\0", 2)};
  for (const std::string& k : keys) ASSERT_TRUE(store->Put(k, k).ok());
  ASSERT_TRUE(store->CheckInvariants().ok());
  for (const std::string& k : keys) {
    std::string v;
    ASSERT_TRUE(store->Get(k, &v)) << k;
    EXPECT_EQ(v, k);
  }
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(ScanKeys(*store, ""), sorted);
  EXPECT_TRUE(store->Delete(""));
  EXPECT_FALSE(store->Get("", nullptr));
  ASSERT_TRUE(store->CheckInvariants().ok());
}

// Maximum-size keys sharing all but their last byte: anchors as long as
// the keys, so the binary search runs over 1,025 prefix lengths.
TEST(WormholeAnchorTest, MaximumSizeKeys) {
  auto store = Make(4);
  const std::string stem(kMaxKeySize - 1, 'x');
  for (int b = 0; b < 256; b += 3) {
    ASSERT_TRUE(store->Put(stem + static_cast<char>(b), "v").ok());
  }
  ASSERT_TRUE(store->CheckInvariants().ok());
  EXPECT_EQ(store->GetShape().longest_anchor, kMaxKeySize);
  for (int b = 0; b < 256; ++b) {
    EXPECT_EQ(store->Get(stem + static_cast<char>(b), nullptr), b % 3 == 0)
        << b;
  }
  EXPECT_FALSE(store->Get(stem, nullptr));
  EXPECT_FALSE(store->Put(std::string(kMaxKeySize + 1, 'x'), "v").ok());
}

// Deleting every key, in order and in reverse, merges the leaves back into
// the first one and empties the table down to its root.
TEST(WormholeAnchorTest, MergesBackToOneLeaf) {
  for (bool reverse : {false, true}) {
    auto store = Make(8);
    std::vector<std::string> keys;
    for (int i = 0; i < 500; ++i) keys.push_back("k" + std::to_string(i));
    for (const std::string& k : keys) ASSERT_TRUE(store->Put(k, "v").ok());
    EXPECT_GT(store->GetShape().leaves, 60u);
    if (reverse) std::reverse(keys.begin(), keys.end());
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(store->Delete(keys[i]));
      if (i % 37 == 0) {
        ASSERT_TRUE(store->CheckInvariants().ok()) << i;
      }
    }
    ASSERT_TRUE(store->CheckInvariants().ok());
    EXPECT_EQ(store->GetShape().leaves, 1u);
    EXPECT_EQ(store->GetShape().table_nodes, 1u);
    EXPECT_EQ(store->Size(), 0u);
  }
}

}  // namespace
}  // namespace kvlab
