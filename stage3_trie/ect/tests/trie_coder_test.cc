#include "kvlab/ect/trie_coder.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/ect/elias_gamma.h"

namespace kvlab::ect {
namespace {

// Sorted distinct hashkeys sharing their first `first_bit` bits.
std::vector<uint64_t> RandomBucket(std::mt19937_64& rng, size_t n,
                                   int first_bit) {
  const uint64_t prefix =
      first_bit == 0 ? 0 : rng() >> (64 - first_bit) << (64 - first_bit);
  const uint64_t mask =
      first_bit == 0 ? ~uint64_t{0} : ~uint64_t{0} >> first_bit;
  std::set<uint64_t> keys;
  while (keys.size() < n) keys.insert(prefix | (rng() & mask));
  return {keys.begin(), keys.end()};
}

// The brute-force answer: how many keys sort before `hashkey`.
uint64_t BruteRank(const std::vector<uint64_t>& keys, uint64_t hashkey) {
  return static_cast<uint64_t>(
      std::lower_bound(keys.begin(), keys.end(), hashkey) - keys.begin());
}

std::string BitString(const BitWriter& w) {
  BitReader r(w.words().data(), w.size());
  std::string s;
  for (uint64_t i = 0; i < w.size(); ++i) s += r.ReadBit() ? '1' : '0';
  return s;
}

TEST(TrieCoderTest, LeftCountsRoundTripHuffmanAndGamma) {
  auto tables = HuffmanTables::Build(8);
  ASSERT_TRUE(tables.ok());
  BitWriter w;
  std::vector<std::pair<uint64_t, uint64_t>> written;
  for (uint64_t n : {2ULL, 3ULL, 8ULL, 9ULL, 100ULL, 1000ULL}) {
    for (uint64_t left = 0; left <= n; ++left) {
      WriteLeftCount(*tables, n, left, &w);
      written.emplace_back(n, left == n ? 0 : left);
    }
  }
  BitReader r(w.words().data(), w.size());
  for (const auto& [n, left] : written) {
    auto got = ReadLeftCount(*tables, n, &r);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(*got, left) << "n=" << n;
  }
}

TEST(TrieCoderTest, GammaCodesCountsByDistanceFromTheMiddle) {
  auto tables = HuffmanTables::Build(1);
  ASSERT_TRUE(tables.ok());
  BitWriter w;
  WriteLeftCount(*tables, 100, 50, &w);  // the middle: zigzag 0, gamma(1)
  EXPECT_EQ(BitString(w), "1");
  BitWriter w2;
  WriteLeftCount(*tables, 100, 49, &w2);  // -1: zigzag 1, gamma(2)
  EXPECT_EQ(BitString(w2), "010");
}

// Elias-gamma codes (zigzag + 1) that decode to a count outside 0..n-1 are
// refused, not returned. Of a subtree of 100 keys, codes 99 and 100 are the
// counts 99 and 0; code 101 (zigzag 100, distance +50 from the middle) is a
// count of 100, code 102 (zigzag 101, distance -51) one of -1.
TEST(TrieCoderTest, ReadLeftCountRefusesCountsOutsideTheSubtree) {
  auto tables = HuffmanTables::Build(1);
  ASSERT_TRUE(tables.ok());
  for (const auto& [code, want] : std::vector<std::pair<uint64_t, int64_t>>{
           {99, 99}, {100, 0}, {101, -1}, {102, -1}}) {
    BitWriter w;
    WriteEliasGamma(code, &w);
    BitReader r(w.words().data(), w.size());
    auto got = ReadLeftCount(*tables, 100, &r);
    if (want < 0) {
      EXPECT_FALSE(got.ok()) << "gamma " << code << " read as " << *got;
    } else {
      ASSERT_TRUE(got.ok()) << got.status();
      EXPECT_EQ(*got, static_cast<uint64_t>(want)) << "gamma " << code;
    }
  }
}

// A worked example: four keys 0001..., 0100..., 0101..., 1100... from bit
// 0. Root: left 3 of 4; its left subtree (bit 1): left 1 of 3; that right
// pair (bit 2): one-sided (both 1); then (bit 3): left 1 of 2. With hmax 1
// every count is gamma coded: zigzag(l - n/2) + 1.
TEST(TrieCoderTest, WorkedExampleBits) {
  auto tables = HuffmanTables::Build(1);
  ASSERT_TRUE(tables.ok());
  const std::vector<uint64_t> keys = {0x1ULL << 60, 0x4ULL << 60, 0x5ULL << 60,
                                      0xcULL << 60};
  BitWriter w;
  EncodeTrie(*tables, keys, 0, &w);
  // n=4 l=3: d=1 z=2 -> gamma(3) "011"; n=3 l=1: d=0 -> "1";
  // n=2 one-sided l=0: d=-1 z=1 -> gamma(2) "010"; n=2 l=1: d=0 -> "1".
  EXPECT_EQ(BitString(w),
            "0111"
            "010"
            "1");
  for (size_t i = 0; i < keys.size(); ++i) {
    BitReader r(w.words().data(), w.size());
    auto rank = LookupTrie(*tables, keys.size(), keys[i], 0, &r);
    ASSERT_TRUE(rank.ok());
    EXPECT_EQ(*rank, i);
  }
}

// The same four keys with the Huffman tables (docs/stage3_ect.md): n = 4's
// four symbols all get 2 bits (weights 2, 4, 6, 4), n = 3's are 10, 11, 0
// for symbols 0, 1, 2, n = 2's are 0 and 1. Root 3 of 4: "11"; 1 of 3:
// "11"; one-sided 2: "0"; 1 of 2: "1".
TEST(TrieCoderTest, WorkedExampleHuffmanBits) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables->Code(3, 2), 0b0u);
  EXPECT_EQ(tables->Code(3, 0), 0b10u);
  EXPECT_EQ(tables->Code(3, 1), 0b11u);
  for (int s = 0; s < 4; ++s) EXPECT_EQ(tables->CodeLength(4, s), 2);
  const std::vector<uint64_t> keys = {0x1ULL << 60, 0x4ULL << 60, 0x5ULL << 60,
                                      0xcULL << 60};
  BitWriter w;
  EncodeTrie(*tables, keys, 0, &w);
  EXPECT_EQ(BitString(w),
            "11"
            "11"
            "0"
            "1");
}

TEST(TrieCoderTest, EmptyAndSingleKeyBucketsAreJustTheirCount) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  for (size_t n : {0, 1}) {
    std::vector<uint64_t> keys(n, 42);
    BitWriter w;
    EncodeBucket(*tables, keys, 8, &w);
    EXPECT_EQ(static_cast<int>(w.size()), EliasGammaLength(n + 1));
    BitReader r(w.words().data(), w.size());
    auto found = LookupBucket(*tables, 42, 8, &r);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->keys, n);
    EXPECT_EQ(found->rank, 0u);
  }
}

// The property: for random buckets of every size class, with Huffman only,
// gamma only, and both, every stored key's rank is its index and every
// absent key's rank is in range; several buckets back to back stay aligned.
TEST(TrieCoderTest, RankMatchesBruteForce) {
  std::mt19937_64 rng(20130107);
  for (int hmax : {1, 2, 8, 16, 64}) {
    auto tables = HuffmanTables::Build(hmax);
    ASSERT_TRUE(tables.ok());
    for (int first_bit : {0, 5, 20, 40}) {
      std::vector<std::vector<uint64_t>> buckets;
      BitWriter w;
      std::vector<uint64_t> starts;
      for (size_t n : {0u, 1u, 2u, 3u, 7u, 64u, 65u, 256u, 700u}) {
        buckets.push_back(RandomBucket(rng, n, first_bit));
        starts.push_back(w.size());
        EncodeBucket(*tables, buckets.back(), first_bit, &w);
      }
      for (size_t b = 0; b < buckets.size(); ++b) {
        const auto& keys = buckets[b];
        for (size_t i = 0; i < keys.size(); ++i) {
          BitReader r(w.words().data(), w.size(), starts[b]);
          auto found = LookupBucket(*tables, keys[i], first_bit, &r);
          ASSERT_TRUE(found.ok()) << found.status();
          ASSERT_EQ(found->keys, keys.size());
          ASSERT_EQ(found->rank, BruteRank(keys, keys[i]))
              << "hmax=" << hmax << " n=" << keys.size();
        }
        // Absent keys: a rank in range, and at the rank's key or next to it
        // only if their unique prefixes agree (not checked: any rank is
        // allowed); skipping the bucket lands on the next one.
        for (int probe = 0; probe < 50 && !keys.empty(); ++probe) {
          const uint64_t absent = RandomBucket(rng, 1, first_bit)[0];
          BitReader r(w.words().data(), w.size(), starts[b]);
          auto found = LookupBucket(*tables, absent, first_bit, &r);
          ASSERT_TRUE(found.ok());
          ASSERT_LT(found->rank, keys.size());
        }
        BitReader skip(w.words().data(), w.size(), starts[b]);
        const uint64_t n = ReadEliasGamma(&skip) - 1;
        ASSERT_TRUE(SkipTrie(*tables, n, first_bit, &skip).ok());
        ASSERT_EQ(skip.position(),
                  b + 1 < starts.size() ? starts[b + 1] : w.size());
      }
    }
  }
}

// Keys that share long prefixes force chains of one-sided nodes, down to
// the last bit.
TEST(TrieCoderTest, KeysDifferingOnlyInTheLastBit) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  const std::vector<uint64_t> keys = {0x00ULL, 0x01ULL, 0x02ULL,
                                      ~uint64_t{0} - 1, ~uint64_t{0}};
  BitWriter w;
  EncodeBucket(*tables, keys, 0, &w);
  for (size_t i = 0; i < keys.size(); ++i) {
    BitReader r(w.words().data(), w.size());
    auto found = LookupBucket(*tables, keys[i], 0, &r);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->rank, i);
  }
}

TEST(TrieCoderTest, DecodeBucketGivesThePreOrderCounts) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  const std::vector<uint64_t> keys = {0x1ULL << 60, 0x4ULL << 60, 0x5ULL << 60,
                                      0xcULL << 60};
  BitWriter w;
  EncodeBucket(*tables, keys, 0, &w);
  BitReader r(w.words().data(), w.size());
  auto nodes = DecodeBucket(*tables, 0, &r);
  ASSERT_TRUE(nodes.ok());
  // root 4 (left 3), 3 (left 1), leaf 1, 2 one-sided, 2 (left 1), leaf, leaf,
  // leaf (the root's right key).
  std::vector<std::pair<uint64_t, uint64_t>> shape;
  for (const TrieNode& n : *nodes) shape.emplace_back(n.keys, n.left);
  const std::vector<std::pair<uint64_t, uint64_t>> want = {
      {4, 3}, {3, 1}, {1, 0}, {2, 0}, {2, 1}, {1, 0}, {1, 0}, {1, 0}};
  EXPECT_EQ(shape, want);
  EXPECT_EQ(r.position(), w.size());
}

TEST(TrieCoderTest, CorruptBitsGiveAnErrorNotACrash) {
  auto tables = HuffmanTables::Build(16);
  ASSERT_TRUE(tables.ok());
  std::mt19937_64 rng(5);
  const auto keys = RandomBucket(rng, 300, 10);
  BitWriter w;
  EncodeBucket(*tables, keys, 10, &w);
  // Cut short: some lookup must fail cleanly.
  bool failed = false;
  for (uint64_t k : keys) {
    BitReader r(w.words().data(), w.size() / 2);
    failed |= !LookupBucket(*tables, k, 10, &r).ok();
  }
  EXPECT_TRUE(failed);
  // All one bits: gamma count 1 means an empty bucket; all zeros: not a code.
  std::vector<uint64_t> zeros(4, 0);
  BitReader r(zeros.data(), 256);
  EXPECT_FALSE(LookupBucket(*tables, 0, 10, &r).ok());
}

// The paper's Figure 3: a 256-key trie with hmax 64 takes about 2.5 bits per
// key (count excluded). Averaged over many random buckets.
TEST(TrieCoderTest, SizeNearTwoAndAHalfBitsPerKey) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  std::mt19937_64 rng(256);
  uint64_t bits = 0;
  const int trials = 200;
  for (int t = 0; t < trials; ++t) {
    BitWriter w;
    EncodeTrie(*tables, RandomBucket(rng, 256, 12), 12, &w);
    bits += w.size();
  }
  const double per_key = double(bits) / (256.0 * trials);
  EXPECT_GT(per_key, 2.0);
  EXPECT_LT(per_key, 2.7);
  RecordProperty("bits_per_key", std::to_string(per_key));
}

}  // namespace
}  // namespace kvlab::ect
