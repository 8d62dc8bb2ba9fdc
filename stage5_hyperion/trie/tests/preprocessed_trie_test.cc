// hyperion with key pre-processing (options.preprocess): every call takes and
// returns the caller's keys, in the caller's order, kMaxKeySize bytes
// included, while the trie holds their images (key_preprocessing.h).

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kvlab/kv_store.h"
#include "kvlab/registry.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/stage5/stores.h"
#include "preprocess/key_preprocessing.h"

namespace kvlab::stage5 {
namespace {

using ::testing::HasSubstr;
using Oracle = std::map<std::string, std::string>;

std::string Show(const std::string& s) {
  return "\"" + absl::CHexEscape(s) + "\"";
}

std::unique_ptr<HyperionStore> Preprocessed(HyperionOptions options = {}) {
  options.preprocess = true;
  return NewHyperionStore(options);
}

// Keys that meet the transform's edges: every length 0..6 over bytes whose
// six-bit groups and two low bits sit at their extremes, so images of
// different lengths interleave where the padding of a short key meets the
// bits of a longer one.
std::vector<std::string> EdgeKeys() {
  const char bytes[] = {'\x00', '\x01', '\x03', '\x04', '\x3f',
                        '\x40', '\xfc', '\xfe', '\xff'};
  std::vector<std::string> keys = {""};
  std::mt19937_64 rng(5);
  for (size_t length = 1; length <= 6; ++length) {
    for (int i = 0; i < 150; ++i) {
      std::string key(length, '\0');
      for (char& c : key) c = bytes[rng() % std::size(bytes)];
      keys.push_back(key);
    }
  }
  return keys;
}

void PutBoth(HyperionStore* store, Oracle* oracle, const std::string& key,
             const std::string& value) {
  ASSERT_TRUE(store->Put(key, value).ok()) << Show(key);
  (*oracle)[key] = value;
}

// Scan(start) whole equals the oracle from lower_bound(start).
void ExpectScanFrom(const KVStore& store, const Oracle& oracle,
                    const std::string& start) {
  std::vector<std::pair<std::string, std::string>> seen;
  const uint64_t visited =
      store.Scan(start, [&](std::string_view k, std::string_view v) {
        seen.emplace_back(k, v);
        return true;
      });
  const std::vector<std::pair<std::string, std::string>> expected(
      oracle.lower_bound(start), oracle.end());
  EXPECT_EQ(visited, expected.size()) << "from " << Show(start);
  EXPECT_TRUE(seen == expected) << "from " << Show(start);
}

TEST(PreprocessedHyperion, GetNthAndDeleteNthInTheCallersOrder) {
  std::unique_ptr<HyperionStore> store = Preprocessed({.embed_limit = 16});
  Oracle oracle;
  for (const std::string& key : EdgeKeys()) {
    PutBoth(store.get(), &oracle, key, absl::StrCat(key.size(), "v"));
  }
  ASSERT_EQ(store->CheckInvariants(), absl::OkStatus());
  ASSERT_EQ(store->Size(), oracle.size());
  uint64_t n = 0;
  for (const auto& [key, value] : oracle) {
    std::string k, v;
    ASSERT_TRUE(store->GetNth(n, &k, &v)) << n;
    ASSERT_EQ(k, key) << "GetNth " << n;
    ASSERT_EQ(v, value) << "GetNth " << n;
    ++n;
  }
  EXPECT_FALSE(store->GetNth(n, nullptr, nullptr));
  std::mt19937_64 rng(9);
  while (!oracle.empty()) {
    const uint64_t nth = rng() % oracle.size();
    ASSERT_TRUE(store->DeleteNth(nth));
    const std::string gone = std::next(oracle.begin(), nth)->first;
    oracle.erase(gone);
    EXPECT_FALSE(store->Get(gone, nullptr)) << "DeleteNth " << nth;
    ASSERT_EQ(store->Size(), oracle.size());
    if (!oracle.empty() && oracle.size() % 37 == 0) {
      std::string first;
      ASSERT_TRUE(store->GetNth(0, &first, nullptr));
      EXPECT_EQ(first, oracle.begin()->first);
    }
  }
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
}

// Starts that are no stored key: cut, extended, bumped by one at the last
// byte, random, and longer than any key (whose first kMaxKeySize bytes may
// be a stored key, which is then before the start).
TEST(PreprocessedHyperion, ScanFromStartsThatAreNotStored) {
  std::unique_ptr<HyperionStore> store = Preprocessed();
  Oracle oracle;
  std::vector<std::string> keys = EdgeKeys();
  const std::string longest(kMaxKeySize, '\x04');
  keys.push_back(longest);
  keys.push_back(longest.substr(0, kMaxKeySize - 1) + '\x05');
  for (const std::string& key : keys) PutBoth(store.get(), &oracle, key, key);
  std::vector<std::string> starts = {
      longest + '\0', longest + "\xff\xff",
      longest.substr(0, 700) + '\x05' + std::string(kMaxKeySize, '\0')};
  std::mt19937_64 rng(3);
  for (const std::string& key : keys) {
    if (rng() % 3 != 0) continue;
    std::string s = key;
    switch (rng() % 5) {
      case 0:
        if (!s.empty()) s.pop_back();
        break;
      case 1:
        s.push_back(char(rng()));
        break;
      case 2:
        if (!s.empty()) s.back() = char(uint8_t(s.back()) + 1);
        break;
      case 3:
        if (!s.empty()) s.back() = char(uint8_t(s.back()) - 1);
        break;
      default:
        s = std::string(1 + rng() % 5, '\0');
        for (char& c : s) c = char(rng());
    }
    starts.push_back(s);
  }
  for (const std::string& start : starts) {
    ExpectScanFrom(*store, oracle, start);
    if (testing::Test::HasFailure()) return;
  }
}

TEST(PreprocessedHyperion, KeysOfExactlyMaxKeySize) {
  std::unique_ptr<HyperionStore> store = Preprocessed();
  Oracle oracle;
  std::mt19937_64 rng(11);
  std::string base(kMaxKeySize, '\0');
  for (char& c : base) c = char(rng());
  for (int i = 0; i < 300; ++i) {
    // Differing at the first byte, inside the spread bytes, in the
    // middle and at the very end.
    std::string key = base;
    key[std::vector<size_t>{0, 1, 3, 500, kMaxKeySize - 1}[i % 5]] = char(i);
    PutBoth(store.get(), &oracle, key, std::string(i % 20, 'v'));
  }
  ASSERT_EQ(store->CheckInvariants(), absl::OkStatus());
  for (const auto& [key, value] : oracle) {
    std::string v;
    ASSERT_TRUE(store->Get(key, &v));
    EXPECT_EQ(v, value);
  }
  ExpectScanFrom(*store, oracle, "");
  ExpectScanFrom(*store, oracle, base);
  std::string k;
  ASSERT_TRUE(store->GetNth(oracle.size() - 1, &k, nullptr));
  EXPECT_EQ(k, oracle.rbegin()->first);

  // A key one byte too long: the error every store gives, nothing changed.
  const std::string dump = store->DebugString();
  const std::optional<size_t> memory = store->MemoryUsage();
  const absl::StatusOr<bool> refused = store->Put(base + 'x', "v");
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status(),
            NewHyperionStore()->Put(base + 'x', "v").status());
  EXPECT_EQ(store->DebugString(), dump);
  EXPECT_EQ(store->MemoryUsage(), memory);
  EXPECT_FALSE(store->Get(base + 'x', nullptr));
  EXPECT_FALSE(store->Delete(base + 'x'));

  for (const auto& [key, value] : oracle) ASSERT_TRUE(store->Delete(key));
  EXPECT_EQ(store->Size(), 0u);
  EXPECT_EQ(store->MemoryUsage(), Preprocessed()->MemoryUsage());
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
}

// The images are what the trie holds: byte 1 of "\x12\xff" is spread over
// bytes 1 and 2 (0xff -> 111111|00 11|0000|00).
TEST(PreprocessedHyperion, TrieHoldsImages) {
  std::unique_ptr<HyperionStore> store = Preprocessed();
  ASSERT_TRUE(store->Put("\x12\xff", "v").ok());
  EXPECT_EQ(PreprocessKey("\x12\xff"), "\x12\xfc\xc0");
  const std::string dump = store->DebugString();
  EXPECT_THAT(dump, HasSubstr("pre-processed images"));
  EXPECT_THAT(dump, HasSubstr("key \"\\x12\\xff\" stored as 12 fc c0"));
  // The root's nodes: T 0x12, S 0xfc, and the suffix 0xc0 below it.
  EXPECT_THAT(dump, HasSubstr("'\\xfc'"));
  StructureGraph graph;
  ASSERT_TRUE(store->ExportStructure({}, &graph).ok());
  bool stated = false;
  for (const StructureField& f : graph.summary) {
    stated |= f.value.find("pre-processed images") != std::string::npos;
  }
  EXPECT_TRUE(stated);
  std::string key;
  ASSERT_TRUE(store->GetNth(0, &key, nullptr));
  EXPECT_EQ(key, "\x12\xff");
}

TEST(PreprocessedHyperion, OptionFromSpec) {
  StoreRegistry registry;
  RegisterStage5Stores(&registry);
  EXPECT_TRUE(registry.Make("hyperion:preprocess=1").ok());
  EXPECT_TRUE(registry.Make("hyperion:preprocess=0").ok());
  const auto bad = registry.Make("hyperion:preprocess=2");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("preprocess"));
  absl::StatusOr<StoreOptions> options = StoreOptions::Parse("preprocess=1");
  ASSERT_TRUE(options.ok());
  EXPECT_TRUE(HyperionOptions::FromStoreOptions(*options)->preprocess);
  EXPECT_FALSE(HyperionOptions().preprocess);
}

}  // namespace
}  // namespace kvlab::stage5
