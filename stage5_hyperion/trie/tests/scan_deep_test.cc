// The scan's stack of container levels at its deepest: keys of kMaxKeySize
// bytes that differ only at the end put a container at every two key bytes,
// so both the walk from "" and ScanFrom's descent go as deep as any valid
// store lets them, with and without split containers on the path, and with
// key pre-processing, whose images are a byte longer (debug builds assert
// the stack's bound; a release build would write past it).
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hyperion_trie.h"
#include "preprocess/key_preprocessing.h"

namespace kvlab::stage5 {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string Show(const std::string& s) {
  return "\"" + absl::CHexEscape(s) + "\"";
}

// Checks Scan(start) whole and stopped after every position up to `stops`.
void CheckScans(const KVStore& store,
                const std::map<std::string, std::string>& oracle,
                const std::string& start, size_t stops,
                const std::string& what) {
  const Pairs expected(oracle.lower_bound(start), oracle.end());
  Pairs seen;
  uint64_t visited =
      store.Scan(start, [&](std::string_view k, std::string_view v) {
        seen.emplace_back(k, v);
        return true;
      });
  ASSERT_EQ(visited, expected.size()) << what << " from " << Show(start);
  ASSERT_TRUE(seen == expected) << what << " from " << Show(start);
  const size_t last = std::min(stops, expected.size());
  std::vector<size_t> limits;
  for (size_t l = 1; l <= last; ++l) limits.push_back(l);
  if (expected.size() > stops) limits.push_back(expected.size());
  for (size_t limit : limits) {
    seen.clear();
    visited = store.Scan(start, [&](std::string_view k, std::string_view v) {
      seen.emplace_back(k, v);
      return seen.size() < limit;
    });
    ASSERT_EQ(visited, limit)
        << what << " from " << Show(start) << " stop " << limit;
    ASSERT_TRUE(std::equal(seen.begin(), seen.end(), expected.begin()) &&
                seen.size() == limit)
        << what << " from " << Show(start) << " stop " << limit;
  }
}

// A container at every two key bytes down to the deepest one (base 1022):
// the walk's stack as deep as any valid store makes it, from "" and from a
// start key that ScanFrom follows to the bottom.
TEST(HyperionScan, DeepestChainOfContainers) {
  for (uint32_t embed : {16u, 144u, 255u}) {
    for (bool with_prefixes : {false, true}) {
      HyperionTrie store(
          HyperionOptions{.inline_value = 4, .embed_limit = embed});
      std::map<std::string, std::string> oracle;
      std::mt19937_64 rng(embed);
      std::string k(kMaxKeySize, '\0');
      for (char& c : k) c = char(rng() % 3 == 0 ? 0xff : rng() % 8);
      std::string k2 = k;
      k2.back() = char(uint8_t(k2.back()) + 1);
      std::string k3 = k;
      k3[kMaxKeySize - 2] = char(uint8_t(k3[kMaxKeySize - 2]) ^ 0x40);
      std::vector<std::string> keys = {k, k2, k3};
      if (with_prefixes) {
        for (size_t n = 1; n < kMaxKeySize; n += 37)
          keys.push_back(k.substr(0, n));
      }
      for (const std::string& key : keys) {
        const std::string value = std::string(key.size() % 11, 'v');
        ASSERT_TRUE(store.Put(key, value).ok());
        oracle[key] = value;
      }
      ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
      std::vector<std::string> starts = {"",
                                         k,
                                         k2,
                                         k3,
                                         k.substr(0, kMaxKeySize - 1),
                                         k + '\0',
                                         k2 + '\xff',
                                         k.substr(0, kMaxKeySize - 2)};
      for (const std::string& key : keys) {
        starts.push_back(key);
        starts.push_back(key + '\0');
      }
      for (const std::string& s : starts) {
        CheckScans(store, oracle, s, 64, "deep");
        if (testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// Puts `key` with `value` into both.
void Put(HyperionTrie* store, std::map<std::string, std::string>* oracle,
         const std::string& key, const std::string& value) {
  ASSERT_TRUE(store->Put(key, value).ok());
  (*oracle)[key] = value;
}

// 400 keys below `prefix` whose container (at byte prefix.size()) holds
// 100 T-nodes of 4 S-children with 200-byte values: far past the default
// split threshold, so it is cut into pieces.
void PutSplittingKeys(HyperionTrie* store,
                      std::map<std::string, std::string>* oracle,
                      const std::string& prefix) {
  for (int i = 0; i < 400; ++i) {
    const std::string key =
        prefix + char(i / 4) + char(1 + i % 4) + std::string("wxyz");
    Put(store, oracle, key, std::string(200, char('a' + i % 26)));
  }
}

// The zero keys of kMaxKeySize and kMaxKeySize - 1 bytes put a container
// at every two key bytes below the root; a split container on that path
// (or two) must not cost the scan's stack an entry of its own.
TEST(HyperionScan, SplitContainersOnTheDeepestPath) {
  const std::string zeros(kMaxKeySize, '\0');
  for (const std::vector<std::string>& split_at :
       std::vector<std::vector<std::string>>{
           {zeros.substr(0, 2)},
           {zeros.substr(0, 2), zeros.substr(0, 4)},
           {zeros.substr(0, 4)}}) {
    HyperionTrie store;
    std::map<std::string, std::string> oracle;
    Put(&store, &oracle, zeros, "deepest");
    Put(&store, &oracle, zeros.substr(0, kMaxKeySize - 1), "one up");
    for (const std::string& prefix : split_at) {
      PutSplittingKeys(&store, &oracle, prefix);
    }
    if (testing::Test::HasFatalFailure()) return;
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
    ASSERT_EQ(Count(store.DebugString(), "split container"), split_at.size());
    for (const std::string& start :
         {zeros, zeros.substr(0, 5), zeros.substr(0, kMaxKeySize - 1),
          zeros.substr(0, 3), std::string(), std::string("\0\0\0\x01", 4)}) {
      CheckScans(store, oracle, start, 8,
                 absl::StrCat(split_at.size(), " split"));
      if (testing::Test::HasFatalFailure()) return;
    }
  }
}

// The worst case for the stack: every container below the root on a path
// of kMaxKeySize bytes is split (511 of them, tiny thresholds), and the
// scan starts at the path's end, so that ScanFrom enters all 512 levels.
TEST(HyperionScan, EveryContainerOnTheDeepestPathSplit) {
  HyperionTrie store(HyperionOptions{
      .embed_limit = 16, .split_above = 32, .split_large_above = 0});
  std::map<std::string, std::string> oracle;
  const std::string zeros(kMaxKeySize, '\0');
  Put(&store, &oracle, zeros, "deepest");
  // A second T-node (with a value too large to embed) in the container at
  // every even depth below the root: each is made a container and cut in
  // two at that T-node.
  for (size_t depth = 2; depth < kMaxKeySize; depth += 2) {
    Put(&store, &oracle, zeros.substr(0, depth) + '\x01',
        std::string(20, char('a' + depth % 26)));
  }
  // The deepest container was made whole by the last Put (splitting a
  // suffix): only a Put that changes a container cuts it.
  Put(&store, &oracle, zeros.substr(0, kMaxKeySize - 2) + '\x02', "last");
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  ASSERT_EQ(Count(store.DebugString(), "split container"), kMaxKeySize / 2 - 1);
  for (const std::string& start :
       {zeros, zeros.substr(0, kMaxKeySize - 1), zeros.substr(0, 5),
        std::string(), zeros.substr(0, kMaxKeySize - 2) + '\x01'}) {
    CheckScans(store, oracle, start, 8, "all split");
    if (testing::Test::HasFatalFailure()) return;
  }
  uint64_t n = 0;
  for (const auto& [key, value] : oracle) {
    std::string k, v;
    ASSERT_TRUE(store.GetNth(n++, &k, &v));
    ASSERT_EQ(k, key);
    ASSERT_EQ(v, value);
  }
}

// The same with key pre-processing: a key of kMaxKeySize bytes is stored
// as an image of kMaxStoredKeySize bytes, one container level deeper (base
// 1024). Every container below the root on the zero image's path is split
// (512 of them) and the scan starts at the path's end, so that ScanFrom
// enters (kMaxStoredKeySize + 1) / 2 = 513 levels, one more than a store
// without pre-processing ever needs.
TEST(HyperionScan, EveryContainerOnTheDeepestPreprocessedPathSplit) {
  std::unique_ptr<HyperionStore> store =
      NewHyperionStore(HyperionOptions{.embed_limit = 16,
                                       .split_above = 32,
                                       .split_large_above = 0,
                                       .preprocess = true});
  std::map<std::string, std::string> oracle;
  // The caller's key whose image is `image`.
  auto key_of = [](const std::string& image) {
    std::string key;
    EXPECT_TRUE(RestoreKey(image, &key)) << Show(image);
    return key;
  };
  auto put = [&](const std::string& image, const std::string& value) {
    const std::string key = key_of(image);
    ASSERT_TRUE(store->Put(key, value).ok()) << Show(key);
    oracle[key] = value;
  };
  const std::string zeros(kMaxStoredKeySize, '\0');
  ASSERT_EQ(key_of(zeros), std::string(kMaxKeySize, '\0'));
  put(zeros, "deepest");
  // A second T-node in the container at every even depth of the image: a
  // byte with its low two bits zero where the transform injects them (the
  // second of a three-byte image carries two key bits, the fourth of a
  // five-byte one six).
  for (size_t depth = 2; depth < kMaxStoredKeySize; depth += 2) {
    const char t = depth == 2 ? '\x40' : depth == 4 ? '\x04' : '\x01';
    put(zeros.substr(0, depth) + t, std::string(20, char('a' + depth % 26)));
    if (testing::Test::HasFatalFailure()) return;
  }
  put(zeros.substr(0, kMaxStoredKeySize - 1) + '\x02', "last");
  if (testing::Test::HasFatalFailure()) return;
  ASSERT_EQ(store->CheckInvariants(), absl::OkStatus());
  ASSERT_EQ(Count(store->DebugString(), "split container"),
            (kMaxStoredKeySize + 1) / 2 - 1);
  const std::string caller_zeros(kMaxKeySize, '\0');
  for (const std::string& start :
       {caller_zeros, caller_zeros.substr(0, kMaxKeySize - 1),
        caller_zeros.substr(0, 5), std::string(), caller_zeros + '\0',
        caller_zeros.substr(0, kMaxKeySize - 1) + '\x01'}) {
    CheckScans(*store, oracle, start, 8, "preprocessed, all split");
    if (testing::Test::HasFatalFailure()) return;
  }
  uint64_t n = 0;
  for (const auto& [key, value] : oracle) {
    std::string k, v;
    ASSERT_TRUE(store->GetNth(n++, &k, &v));
    ASSERT_EQ(k, key);
    ASSERT_EQ(v, value);
  }
}

}  // namespace
}  // namespace kvlab::stage5
