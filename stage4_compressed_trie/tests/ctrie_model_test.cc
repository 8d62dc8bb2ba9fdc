// Puts and deletes against a std::map, in both compression modes, on keys
// from a three-letter alphabet so that they share prefixes and are prefixes
// of each other: every edge split and every merge, each operation's answer
// (new or replaced, deleted or absent), and the store's Get, GetNth and
// Scan after each step, so that a wrong label, count or child order shows
// at the operation that made it.

#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::Scaled;

std::vector<CTrieOptions> BothModes() {
  CTrieOptions full;
  CTrieOptions suffix;
  suffix.compress = CTrieOptions::Compress::kSuffix;
  return {full, suffix};
}

std::string RandomKey(std::mt19937_64& rng) {
  std::string key(rng() % 6, ' ');
  for (char& c : key) c = static_cast<char>('a' + rng() % 3);
  return key;
}

// The store holds exactly `model`: Size, Get of each pair, GetNth of each
// rank, a whole Scan, and the invariants.
void ExpectSame(const CTrieStore& store,
                const std::map<std::string, std::string>& model,
                const std::string& after) {
  ASSERT_TRUE(store.CheckInvariants().ok())
      << store.CheckInvariants() << " after " << after;
  ASSERT_EQ(store.Size(), model.size()) << after;
  uint64_t rank = 0;
  for (const auto& [k, v] : model) {
    std::string value, key;
    ASSERT_TRUE(store.Get(k, &value)) << k << " after " << after;
    ASSERT_EQ(value, v) << k << " after " << after;
    ASSERT_TRUE(store.GetNth(rank, &key, &value)) << rank << " after " << after;
    ASSERT_EQ(key, k) << "rank " << rank << " after " << after;
    ++rank;
  }
  std::vector<std::string> scanned;
  store.Scan("", [&](std::string_view k, std::string_view) {
    scanned.emplace_back(k);
    return true;
  });
  ASSERT_EQ(scanned.size(), model.size()) << after;
  auto it = model.begin();
  for (const std::string& k : scanned) ASSERT_EQ(k, (it++)->first) << after;
}

TEST(CTrieInsertTest, PutsAgainstAMap) {
  for (const CTrieOptions& options : BothModes()) {
    CTrieStore store(options);
    std::map<std::string, std::string> model;
    std::mt19937_64 rng(21);
    const uint64_t puts = Scaled(400, 100);
    for (uint64_t i = 0; i < puts; ++i) {
      const std::string key = RandomKey(rng);
      const std::string value = std::to_string(i);
      absl::StatusOr<bool> replaced = store.Put(key, value);
      ASSERT_TRUE(replaced.ok()) << replaced.status();
      EXPECT_EQ(*replaced, model.count(key) == 1) << key;
      model[key] = value;
      ASSERT_NO_FATAL_FAILURE(ExpectSame(store, model, "putting " + key));
      ASSERT_FALSE(store.Get(key + "d", nullptr)) << key;
    }
  }
}

TEST(CTrieDeleteTest, DeletesAgainstAMap) {
  for (const CTrieOptions& options : BothModes()) {
    CTrieStore store(options);
    std::map<std::string, std::string> model;
    std::mt19937_64 rng(23);
    const uint64_t keys = Scaled(300, 100);
    for (uint64_t i = 0; i < keys; ++i) {
      const std::string key = RandomKey(rng);
      ASSERT_TRUE(store.Put(key, key).ok());
      model[key] = key;
    }
    // Deletes of random keys, present or not: an absent key of a label's
    // length with other bytes must not find the stored one.
    for (uint64_t i = 0; i < 2 * keys && !model.empty(); ++i) {
      const std::string key = RandomKey(rng);
      EXPECT_EQ(store.Delete(key), model.erase(key) == 1) << key;
      ASSERT_NO_FATAL_FAILURE(ExpectSame(store, model, "deleting " + key));
    }
  }
}

}  // namespace
}  // namespace kvlab
