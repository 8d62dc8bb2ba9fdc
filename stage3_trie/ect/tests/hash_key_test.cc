#include "kvlab/ect/hash_key.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace kvlab::ect {
namespace {

// Keys into 2^bits buckets: the chi-square statistic of the occupancy
// against the uniform expectation, divided by its degrees of freedom (about
// 1 for uniform hashing; a poor hash of structured keys gives far more).
double ChiSquarePerBucket(const std::vector<std::string>& keys, int bits) {
  std::vector<uint64_t> count(size_t{1} << bits);
  for (const std::string& k : keys) ++count[BucketOf(HashKey64(k), bits)];
  const double expected = double(keys.size()) / double(count.size());
  double chi = 0;
  for (uint64_t c : count) chi += (c - expected) * (c - expected) / expected;
  return chi / double(count.size() - 1);
}

TEST(HashKeyTest, FixedValuesAreTheFileFormat) {
  // If these change, every existing data file is unreadable.
  EXPECT_EQ(HashKey64(""), HashKey64(std::string_view("", 0)));
  EXPECT_NE(HashKey64(""), HashKey64(std::string("\0", 1)));
  EXPECT_NE(HashKey64("a"), HashKey64("b"));
  EXPECT_EQ(HashKey64("kvlab"), HashKey64("kvlab"));
}

TEST(HashKeyTest, BucketOfTakesTheTopBits) {
  EXPECT_EQ(BucketOf(0xf000000000000000ULL, 4), 15u);
  EXPECT_EQ(BucketOf(0x8000000000000000ULL, 1), 1u);
  EXPECT_EQ(BucketOf(~uint64_t{0}, 0), 0u);
}

TEST(HashKeyTest, StructuredKeySetsFillBucketsUniformly) {
  std::vector<std::string> sequential, prefixed, one_byte, binary;
  for (int i = 0; i < 200000; ++i) {
    sequential.push_back(std::to_string(i));
    prefixed.push_back(absl::StrCat("user:000000", i, ":profile"));
    std::string b(8, '\0');
    for (int j = 0; j < 4; ++j) b[j] = static_cast<char>((i >> (8 * j)) & 0xff);
    binary.push_back(b);
  }
  // Keys of 100 'x' with one byte changed: distinct ones only.
  std::set<std::string> distinct;
  for (int pos = 0; pos < 100; ++pos) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string k(100, 'x');
      k[pos] = static_cast<char>(byte);
      distinct.insert(k);
    }
  }
  one_byte.assign(distinct.begin(), distinct.end());
  for (const auto* keys : {&sequential, &prefixed, &binary}) {
    const double chi = ChiSquarePerBucket(*keys, 10);  // ~195 keys a bucket
    EXPECT_GT(chi, 0.8);
    EXPECT_LT(chi, 1.2);
  }
  EXPECT_LT(ChiSquarePerBucket(one_byte, 6), 1.3);
}

TEST(HashKeyTest, EveryBitIsBalanced) {
  std::vector<int> ones(64);
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const uint64_t h = HashKey64(std::to_string(i));
    for (int b = 0; b < 64; ++b) ones[b] += (h >> b) & 1;
  }
  // Binomial(n, 1/2) has standard deviation ~158; allow 5 of them.
  for (int b = 0; b < 64; ++b) EXPECT_NEAR(ones[b], n / 2, 800) << b;
}

TEST(HashKeyTest, NoCollisionsAmongAMillionKeys) {
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000000; ++i) {
    ASSERT_TRUE(seen.insert(HashKey64(absl::StrCat("k", i))).second) << i;
  }
}

}  // namespace
}  // namespace kvlab::ect
