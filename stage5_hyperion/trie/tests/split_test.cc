// Container splits (split.h, split.cc): where a container is cut, how its
// pieces are found, and how a directory goes away again. The differential
// tests run splits at tiny thresholds on every key distribution; these
// pin down the individual rules.

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hyperion_trie.h"

namespace kvlab::stage5 {
namespace {

using Model = std::map<std::string, std::string>;

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

// Every Get, every GetNth and a scan from every key and just after it
// agree with `model`.
void ExpectMatches(const HyperionTrie& store, const Model& model) {
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  ASSERT_EQ(store.Size(), model.size());
  uint64_t n = 0;
  for (auto it = model.begin(); it != model.end(); ++it, ++n) {
    std::string k, v;
    ASSERT_TRUE(store.Get(it->first, &v)) << it->first;
    EXPECT_EQ(v, it->second);
    ASSERT_TRUE(store.GetNth(n, &k, &v)) << n;
    EXPECT_EQ(k, it->first) << n;
    for (const std::string& start : {it->first, it->first + '\0'}) {
      auto expected = model.lower_bound(start);
      store.Scan(start, [&](std::string_view key, std::string_view value) {
        EXPECT_TRUE(expected != model.end() && key == expected->first &&
                    value == expected->second)
            << "scan from " << start << " at " << key;
        ++expected;
        return true;
      });
      EXPECT_TRUE(expected == model.end()) << "scan from " << start;
    }
  }
}

// Keys below the root's "ab": T-node byte `t`, S-node bytes '0'..'3', and
// a 20-byte suffix, each with a 40-byte value: about 260 bytes per T-node.
void PutUnder(HyperionTrie* store, Model* model, char t) {
  for (char s = '0'; s < '4'; ++s) {
    const std::string key =
        absl::StrCat("ab", std::string{t, s}, std::string(20, char(t ^ s)));
    const std::string value(40, s);
    ASSERT_TRUE(store->Put(key, value).ok());
    (*model)[key] = value;
  }
}

TEST(HyperionSplit, PieceForFindsTheLastPieceStartingAtOrBelowTheByte) {
  uint8_t d[hyperion::kSplitHeaderBytes + 3 * hyperion::kSplitEntryBytes] = {};
  d[4] = 3;
  d[hyperion::PieceEntryPos(1)] = 'F';
  d[hyperion::PieceEntryPos(2)] = 'a';
  EXPECT_EQ(hyperion::PieceFor(d, 0), 0u);
  EXPECT_EQ(hyperion::PieceFor(d, 'E'), 0u);
  EXPECT_EQ(hyperion::PieceFor(d, 'F'), 1u);
  EXPECT_EQ(hyperion::PieceFor(d, 'Z'), 1u);
  EXPECT_EQ(hyperion::PieceFor(d, 'a'), 2u);
  EXPECT_EQ(hyperion::PieceFor(d, 255), 2u);
  EXPECT_TRUE(hyperion::IsSplit(d));
}

TEST(HyperionSplit, ALargeContainerIsCutAtTheTNodeNearestItsMiddle) {
  // T-nodes of about 260 bytes pass 4,096 bytes with the 16th, 'p': the
  // cut falls at the middle, the 9th T-node 'i', and no piece is cut again.
  HyperionTrie store(
      HyperionOptions{.split_above = 4096, .split_large_above = 0});
  Model model;
  for (char t = 'a'; t < 'a' + 16; ++t) PutUnder(&store, &model, t);
  EXPECT_EQ(store.splits(), 1u);
  const std::string dump = store.DebugString();
  EXPECT_EQ(Count(dump, "split container"), 1u) << dump;
  EXPECT_EQ(Count(dump, "T-nodes from"), 2u) << dump;
  EXPECT_NE(dump.find("T-nodes from 'i'"), std::string::npos) << dump;
  ExpectMatches(store, model);
  // A second cut only once a piece passes the threshold itself.
  for (char t = 'a' + 16; t <= 'z'; ++t) PutUnder(&store, &model, t);
  EXPECT_EQ(store.splits(), 2u);
  EXPECT_EQ(Count(store.DebugString(), "T-nodes from"), 3u);
  ExpectMatches(store, model);
}

TEST(HyperionSplit, EmptyingAPieceDropsItAndTheLastPieceReplacesTheDirectory) {
  HyperionTrie store(
      HyperionOptions{.split_above = 4096, .split_large_above = 0});
  const auto empty_usage = store.MemoryUsage();
  Model model;
  for (char t = 'a'; t <= 'z'; ++t) PutUnder(&store, &model, t);
  ASSERT_EQ(Count(store.DebugString(), "T-nodes from"), 3u);
  // The keys of the first T-nodes go first: the first piece empties, then
  // the second, and one container is left where the directory was.
  while (Count(store.DebugString(), "split container") != 0) {
    ASSERT_FALSE(model.empty());
    ASSERT_TRUE(store.Delete(model.begin()->first));
    model.erase(model.begin());
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  }
  EXPECT_GT(model.size(), 0u);
  ExpectMatches(store, model);
  while (!model.empty()) {
    ASSERT_TRUE(store.Delete(model.begin()->first));
    model.erase(model.begin());
  }
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionSplit, AContainerOfOneTNodeIsNotCut) {
  // Every key below "ab" shares its third byte and ends at its fourth:
  // one T-node with 200 S-children, and no T-node to cut at, however large
  // the container grows.
  HyperionTrie store(HyperionOptions{.split_above = 1024});
  Model model;
  for (int i = 0; i < 200; ++i) {
    const std::string key = absl::StrCat("abx", std::string{char(i)});
    ASSERT_TRUE(store.Put(key, std::string(40, 'v')).ok());
    model[key] = std::string(40, 'v');
  }
  EXPECT_EQ(store.splits(), 0u);
  ExpectMatches(store, model);
}

TEST(HyperionSplit, AContainerIsCutIntoAtMostMaxPieces) {
  // 256 T-nodes of about 45 bytes below "ab" and a threshold of 64
  // bytes: every piece of more than one T-node would be cut, but the
  // directory stops growing at kMaxPieces.
  HyperionTrie store(HyperionOptions{.split_above = 64});
  Model model;
  for (int t = 0; t < 256; ++t) {
    const std::string key = absl::StrCat("ab", std::string{char(t), 'z'});
    ASSERT_TRUE(store.Put(key, std::string(40, 'v')).ok());
    model[key] = std::string(40, 'v');
  }
  EXPECT_EQ(Count(store.DebugString(), "T-nodes from"), hyperion::kMaxPieces);
  EXPECT_EQ(store.splits(), hyperion::kMaxPieces - 1);
  ExpectMatches(store, model);
}

TEST(HyperionSplit, CompactionForwardsDirectoriesAndPieces) {
  // Many pieces, then three in four keys deleted, which leaves sparse bins
  // for Compact() to empty: every moved directory and piece must be
  // forwarded where it is stored.
  HyperionTrie store(HyperionOptions{.inline_value = 4, .split_above = 256});
  Model model;
  for (int i = 0; i < 8'000; ++i) {
    const std::string key = absl::StrCat("k", i * 7919 % 8'000, "-", i);
    ASSERT_TRUE(store.Put(key, absl::StrCat("value ", i)).ok());
    model[key] = absl::StrCat("value ", i);
  }
  ASSERT_GT(store.splits(), 50u);
  int i = 0;
  for (auto it = model.begin(); it != model.end(); ++i) {
    if (i % 4 == 0) {
      ++it;
      continue;
    }
    ASSERT_TRUE(store.Delete(it->first));
    it = model.erase(it);
  }
  const CompactionStats done = store.Compact();
  EXPECT_GT(done.chunks_moved, 0u);
  ExpectMatches(store, model);
}

// Keys below "ab" under T-node bytes 'a'..'a'+t_nodes-1, `per_t` S-nodes
// each, with `value_bytes`-byte values: the splits they cause.
uint64_t SplitsFor(const HyperionOptions& options, int t_nodes, int per_t,
                   size_t value_bytes) {
  HyperionTrie store(options);
  Model model;
  for (int t = 0; t < t_nodes; ++t) {
    for (int s = 0; s < per_t; ++s) {
      const std::string key = absl::StrCat("ab", std::string{char('a' + t)},
                                           std::string{char('0' + s)});
      const std::string value(value_bytes, char('0' + s));
      EXPECT_TRUE(store.Put(key, value).ok());
      model[key] = value;
    }
  }
  ExpectMatches(store, model);
  return store.splits();
}

// Eight T-nodes of four keys with 100-byte values: about 104 bytes a key,
// 3.3 KB in all, past split_large_above (2 KiB) but not split_above.
TEST(HyperionSplit, AContainerOfLargeNodesIsCutPastSplitLargeAbove) {
  EXPECT_GE(SplitsFor(HyperionOptions{}, 8, 4, 100), 1u);
  EXPECT_EQ(SplitsFor(HyperionOptions{.split_large_above = 0}, 8, 4, 100), 0u);
}

// Sixteen T-nodes of 48 keys with 1-byte values: about 3 bytes a key,
// some 2.4 KB in all. Cut only where every node counts as large.
TEST(HyperionSplit, AContainerOfSmallNodesWaitsForSplitAbove) {
  EXPECT_EQ(SplitsFor(HyperionOptions{}, 16, 48, 1), 0u);
  EXPECT_GE(SplitsFor(HyperionOptions{.large_node = 1}, 16, 48, 1), 1u);
}

TEST(HyperionSplit, ZeroTurnsSplitsOff) {
  HyperionTrie store(HyperionOptions{.split_above = 0});
  Model model;
  for (char t = 'a'; t <= 'z'; ++t) PutUnder(&store, &model, t);
  EXPECT_EQ(store.splits(), 0u);
  EXPECT_EQ(Count(store.DebugString(), "split container"), 0u);
  ExpectMatches(store, model);
}

// Keys put in ascending order fill each piece once and never come back to
// it: a piece cut off then gets no room to grow (Fit::kExact), so splitting
// costs only the directories and the pieces' headers. With the room, it
// cost 0.4 B/key on 10M seq_int.
TEST(HyperionSplit, KeysInOrderCostAlmostNothingExtra) {
  constexpr uint64_t kKeys = 200'000;  // three full containers of 65,536
  uint64_t bytes[2] = {};
  for (int splits = 0; splits < 2; ++splits) {
    HyperionTrie store(HyperionOptions{
        .split_above = splits ? HyperionOptions().split_above : 0u});
    for (uint64_t i = 0; i < kKeys; ++i) {
      std::string key(8, '\0');
      for (int b = 0; b < 8; ++b) key[7 - b] = char(uint8_t(i >> (8 * b)));
      ASSERT_TRUE(store.Put(key, key).ok());
    }
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
    EXPECT_EQ(store.splits() > 100, splits == 1) << store.splits();
    bytes[splits] = *store.MemoryUsage();
  }
  // The directories' few pages are 0.14 B/key at this size; the room was
  // another 0.5.
  EXPECT_LT(double(bytes[1]) - double(bytes[0]), 0.25 * kKeys)
      << "with splits " << bytes[1] << " B, without " << bytes[0] << " B";
}

}  // namespace
}  // namespace kvlab::stage5
