// hyperion's own cases beyond the conformance suite: the empty key, the
// longest keys and values, memory reclaimed by deletes, GetNth through
// child containers, scans from every kind of start position, options.

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hyperion_store.h"
#include "kvlab/stage5/stores.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::stage5 {
namespace {

std::vector<std::pair<std::string, std::string>> ScanAll(
    const HyperionStore& store, std::string_view start) {
  std::vector<std::pair<std::string, std::string>> out;
  store.Scan(start, [&](std::string_view k, std::string_view v) {
    out.emplace_back(k, v);
    return true;
  });
  return out;
}

TEST(HyperionStore, EmptyKeyLivesBesideTheRoot) {
  HyperionStore store;
  const auto empty_usage = store.MemoryUsage();
  ASSERT_FALSE(*store.Put("", "root value"));
  EXPECT_TRUE(store.root().IsNull());  // no container for it
  ASSERT_FALSE(*store.Put("a", "x"));
  std::string v;
  ASSERT_TRUE(store.Get("", &v));
  EXPECT_EQ(v, "root value");
  ASSERT_TRUE(*store.Put("", ""));
  ASSERT_TRUE(store.Get("", &v));
  EXPECT_EQ(v, "");
  std::string k;
  ASSERT_TRUE(store.GetNth(0, &k, &v));
  EXPECT_EQ(k, "");
  ASSERT_TRUE(store.GetNth(1, &k, &v));
  EXPECT_EQ(k, "a");
  EXPECT_EQ(store.CheckInvariants(), "");
  EXPECT_TRUE(store.Delete(""));
  EXPECT_TRUE(store.Delete("a"));
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionStore, LongestKeysAndValues) {
  HyperionStore store;
  std::mt19937_64 rng(3);
  std::map<std::string, std::string> oracle;
  for (int i = 0; i < 200; ++i) {
    // Keys of up to 1024 bytes sharing long prefixes, values up to 4096.
    std::string key(size_t(rng() % 4) * 250, 'p');
    key.resize(std::min<size_t>(kMaxKeySize, key.size() + rng() % 300), 'q');
    for (size_t j = key.size() / 2; j < key.size(); j += 1 + rng() % 40) {
      key[j] = char(rng());
    }
    std::string value(rng() % 4 == 0 ? kMaxValueSize : rng() % 300, 'v');
    ASSERT_TRUE(store.Put(key, value).ok());
    oracle[key] = value;
    ASSERT_EQ(store.CheckInvariants(), "") << "put #" << i;
  }
  EXPECT_EQ(store.Size(), oracle.size());
  const std::vector<std::pair<std::string, std::string>> expected(
      oracle.begin(), oracle.end());
  EXPECT_TRUE(ScanAll(store, "") == expected);
  for (const auto& [k, v] : oracle) {
    std::string got;
    ASSERT_TRUE(store.Get(k, &got));
    EXPECT_EQ(got, v);
    ASSERT_TRUE(store.Delete(k));
    ASSERT_EQ(store.CheckInvariants(), "");
  }
  EXPECT_EQ(store.MemoryUsage(), HyperionStore().MemoryUsage());
}

TEST(HyperionStore, DeletingEverythingReturnsToEmptyMemory) {
  HyperionStore store;
  const auto empty_usage = store.MemoryUsage();
  std::mt19937_64 rng(5);
  std::vector<std::string> keys;
  const uint64_t n = testing::Scaled(30'000, 1'000);
  for (uint64_t i = 0; i < n; ++i) {
    std::string k(1 + rng() % 40, ' ');
    for (char& c : k) c = char('a' + rng() % 26);
    keys.push_back(k);
    ASSERT_TRUE(store.Put(k, std::string(rng() % 255 + 1, 'x')).ok());
  }
  EXPECT_GT(*store.MemoryUsage(), *empty_usage);
  EXPECT_EQ(store.CheckInvariants(), "");
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const std::string& k : keys) store.Delete(k);
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_TRUE(store.root().IsNull());
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 0u);
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionStore, GetNthThroughChildContainers) {
  // Dense 8-byte keys: a chain of pointer children whose counts GetNth
  // must use to skip.
  HyperionStore store;
  const uint64_t n = testing::Scaled(20'000, 3'000);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < n; ++i) {
    std::string k(8, '\0');
    uint64_t v = i * 7919;
    for (int b = 7; b >= 0; --b, v >>= 8) k[b] = char(v);
    keys.push_back(k);
    ASSERT_TRUE(store.Put(k, k.substr(6)).ok());
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(store.CheckInvariants(), "");
  std::mt19937_64 rng(9);
  std::string k, v;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t nth = rng() % n;
    ASSERT_TRUE(store.GetNth(nth, &k, &v));
    ASSERT_EQ(k, keys[nth]);
    ASSERT_EQ(v, keys[nth].substr(6));
  }
  EXPECT_FALSE(store.GetNth(n, &k, &v));
  ASSERT_TRUE(store.DeleteNth(0));
  ASSERT_TRUE(store.GetNth(0, &k, nullptr));
  EXPECT_EQ(k, keys[1]);
  EXPECT_EQ(store.CheckInvariants(), "");
}

TEST(HyperionStore, ScanFromEveryKindOfStartPosition) {
  // Keys ending at T-nodes, at S-nodes, in suffixes, in embedded and in
  // pointed-to containers; scans start at each key, just before and just
  // after it, and at each proper prefix.
  HyperionStore store(HyperionOptions{.embed_limit = 24});
  std::map<std::string, std::string> oracle;
  const std::vector<std::string> keys = {
      "a",      "ab",     "abc",    "abcd",   "abcde",  "abd",    "b",
      "ba",     "bab",    "babab",  "bb",     "c",      "cat",    "cats",
      "catsz",  "dog",    "doge",   "dz",     "x",      "xyzzy1", "xyzzy2",
      "xyzzy3", "xyzzy4", "xyzzy5", "xyzzy6", "xyzzy7", "\xff",   "\xff\xff"};
  for (const std::string& k : keys) {
    ASSERT_TRUE(store.Put(k, "v" + k).ok());
    oracle[k] = "v" + k;
  }
  ASSERT_EQ(store.CheckInvariants(), "");
  std::vector<std::string> starts = {""};
  for (const std::string& k : keys) {
    starts.push_back(k);
    starts.push_back(k + '\0');
    starts.push_back(k + "\xff");
    for (size_t i = 1; i < k.size(); ++i) starts.push_back(k.substr(0, i));
    std::string before = k;
    before.back() = char(uint8_t(before.back()) - 1);
    starts.push_back(before);
  }
  for (const std::string& start : starts) {
    std::vector<std::pair<std::string, std::string>> expected(
        oracle.lower_bound(start), oracle.end());
    EXPECT_EQ(ScanAll(store, start), expected) << "from \"" << start << "\"";
  }
}

TEST(HyperionStore, ExternalValuesAreFreedOnReplaceAndDelete) {
  HyperionStore store(HyperionOptions{.inline_value = 8});
  const auto empty_usage = store.MemoryUsage();
  ASSERT_FALSE(*store.Put("key", std::string(100, 'a')));
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 2u);
  ASSERT_TRUE(*store.Put("key", "short"));
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 1u);
  ASSERT_TRUE(*store.Put("key", std::string(3000, 'b')));
  std::string v;
  ASSERT_TRUE(store.Get("key", &v));
  EXPECT_EQ(v, std::string(3000, 'b'));
  EXPECT_EQ(store.CheckInvariants(), "");
  ASSERT_TRUE(store.Delete("key"));
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionStore, RegisteredWithOptions) {
  StoreRegistry registry;
  RegisterStage5Stores(&registry);
  EXPECT_TRUE(registry.Make("hyperion").ok());
  EXPECT_TRUE(registry.Make("hyperion:inline_value=0:embed=16").ok());
  EXPECT_FALSE(registry.Make("hyperion:inline_value=256").ok());
  EXPECT_FALSE(registry.Make("hyperion:embed=8").ok());
  EXPECT_FALSE(registry.Make("hyperion:embed=256").ok());
  EXPECT_FALSE((*registry.Make("hyperion"))->IsThreadSafe());
}

TEST(HyperionStore, CheckerCatchesCorruption) {
  // The checker must be able to fail: break a count, a free byte, a delta.
  HyperionStore store(HyperionOptions{.embed_limit = 16});
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(store.Put("prefix" + std::to_string(i), "v").ok());
  }
  ASSERT_EQ(store.CheckInvariants(), "");
  auto* c = static_cast<uint8_t*>(store.memory().Resolve(store.root()));
  const uint32_t used = hyperion::ContainerUsed(c);
  if (used < hyperion::ContainerSize(c)) {
    c[used] = 0x01;
    EXPECT_NE(store.CheckInvariants(), "");
    c[used] = 0;
  }
  ASSERT_EQ(store.CheckInvariants(), "");
  // T 'p', then S 'r' pointing to the ejected rest: [45 'r'][hp][count].
  ASSERT_EQ(c[5], 'p');
  ASSERT_EQ(c[6], 0x45);
  ++c[13];  // a wrong key count
  EXPECT_NE(store.CheckInvariants(), "");
  --c[13];
  c[6] = 0x46;  // S 'r' claims a key of its own: one key too many
  EXPECT_NE(store.CheckInvariants(), "");
  c[6] = 0x45;
  ASSERT_EQ(store.CheckInvariants(), "");
  // A chunk nothing references: a leak.
  auto& mm = const_cast<MemoryManager&>(store.memory());
  const HyperionPointer leak = mm.Allocate(40);
  EXPECT_NE(store.CheckInvariants(), "");
  mm.Free(leak);
  EXPECT_EQ(store.CheckInvariants(), "");
}

}  // namespace
}  // namespace kvlab::stage5
