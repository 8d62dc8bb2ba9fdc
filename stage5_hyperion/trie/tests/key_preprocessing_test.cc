#include "preprocess/key_preprocessing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kvlab/key_order.h"
#include "kvlab/kv_store.h"

namespace kvlab::stage5 {
namespace {

using std::string_view_literals::operator""sv;

// Every key of 0, 1 and 2 bytes, in byte-wise order (a key before its
// extensions, as a trie visits them).
std::vector<std::string> AllShortKeysInOrder() {
  std::vector<std::string> keys = {""};
  for (int a = 0; a < 256; ++a) {
    keys.emplace_back(1, static_cast<char>(a));
    for (int b = 0; b < 256; ++b) {
      keys.push_back({static_cast<char>(a), static_cast<char>(b)});
    }
  }
  return keys;
}

// Random keys of every length 0..kMaxKeySize, with a small alphabet for a
// third of them (so many share long prefixes) and prefixes of earlier keys.
std::vector<std::string> RandomKeysInOrder(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> keys;
  while (keys.size() < count) {
    const size_t length =
        rng() % 8 == 0 ? rng() % (kMaxKeySize + 1) : rng() % 8;
    const unsigned alphabet = keys.size() % 3 == 0 ? 3 : 256;
    std::string key(length, '\0');
    for (char& c : key) c = static_cast<char>(rng() % alphabet);
    if (!key.empty() && rng() % 4 == 0)
      keys.push_back(key.substr(0, rng() % key.size()));
    keys.push_back(std::move(key));
  }
  std::sort(keys.begin(), keys.end(),
            [](const std::string& a, const std::string& b) {
              return CompareKeys(a, b) < 0;
            });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// Checks that the transforms of `keys` (sorted, distinct) are strictly
// increasing, which proves the transform injective and order preserving on
// them, and that each transform restores its key.
void ExpectStrictlyIncreasingAndInvertible(
    const std::vector<std::string>& keys) {
  std::string previous;
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string transformed = PreprocessKey(keys[i]);
    ASSERT_EQ(transformed.size(), PreprocessedSize(keys[i].size()));
    if (i > 0) {
      ASSERT_LT(CompareKeys(previous, transformed), 0)
          << "keys " << i - 1 << " and " << i << " lose their order";
    }
    std::string restored;
    ASSERT_TRUE(RestoreKey(transformed, &restored)) << "key " << i;
    ASSERT_EQ(restored, keys[i]) << "key " << i;
    previous = transformed;
  }
}

TEST(KeyPreprocessingTest, SpreadsBytesOneToThreeOverFourBytes) {
  // 0xFF FF FF: 24 one bits become four groups of six ones and two zeros.
  EXPECT_EQ(PreprocessKey("\x7f\xff\xff\xff\x41"),
            std::string("\x7f\xfc\xfc\xfc\xfc\x41"));
  // 0x12 34 56 = 000100 100011 010001 010110.
  EXPECT_EQ(PreprocessKey(std::string("\x00\x12\x34\x56", 4)),
            std::string("\x00\x10\x8c\x44\x58", 5));
  // A short key's last group is padded with zeros: 0xAB = 101010 11(0000).
  EXPECT_EQ(PreprocessKey("a\xab"), std::string("a\xa8\xc0"));
  EXPECT_EQ(PreprocessKey(""), "");
  EXPECT_EQ(PreprocessKey("z"), "z");
}

TEST(KeyPreprocessingTest, LengthGrowsByOneFromTwoBytes) {
  EXPECT_EQ(PreprocessedSize(0), 0u);
  EXPECT_EQ(PreprocessedSize(1), 1u);
  EXPECT_EQ(PreprocessedSize(2), 3u);
  EXPECT_EQ(PreprocessedSize(3), 4u);
  EXPECT_EQ(PreprocessedSize(kMaxKeySize), kMaxKeySize + 1);
}

TEST(KeyPreprocessingTest, EveryKeyUpToTwoBytesKeepsItsOrder) {
  ExpectStrictlyIncreasingAndInvertible(AllShortKeysInOrder());
}

TEST(KeyPreprocessingTest, RandomKeysOfEveryLengthKeepTheirOrder) {
  ExpectStrictlyIncreasingAndInvertible(RandomKeysInOrder(300'000, 20190630));
}

TEST(KeyPreprocessingTest, EveryThreeByteKeyWithAFixedFirstByteKeepsItsOrder) {
  std::vector<std::string> keys;
  keys.reserve(1 << 16);
  for (int b = 0; b < 256; ++b) {
    for (int c = 0; c < 256; ++c) {
      keys.push_back({'\x80', static_cast<char>(b), static_cast<char>(c)});
    }
  }
  ExpectStrictlyIncreasingAndInvertible(keys);
}

// In place, as GetNth restores the key it was given: the bytes after the
// spread ones move down by one (an overlapping move, which ASan checks).
TEST(KeyPreprocessingTest, RestoresInPlace) {
  for (const std::string& key : RandomKeysInOrder(3'000, 17)) {
    std::string buffer = PreprocessKey(key);
    size_t size = 0;
    ASSERT_TRUE(
        RestoreKey(buffer, reinterpret_cast<uint8_t*>(buffer.data()), &size));
    buffer.resize(size);
    ASSERT_EQ(buffer, key);
  }
}

TEST(KeyPreprocessingTest, RestoreRefusesWhatNoKeyTransformsTo) {
  std::string key;
  EXPECT_FALSE(RestoreKey("ab", &key));           // no key has 2 bytes
  EXPECT_FALSE(RestoreKey("a\x01\x00"sv, &key));  // injected bit set
  EXPECT_FALSE(RestoreKey("a\x00\x10"sv, &key));  // padding bit set
  EXPECT_FALSE(RestoreKey("a\x00\x00\x00\x02"sv, &key));
  EXPECT_TRUE(RestoreKey(std::string("a\x00\x00", 3), &key));
  EXPECT_EQ(key, std::string("a\x00", 2));
}

TEST(KeyPreprocessingTest, EveryThreeByteStringRestoresOnlyToItsOwnKey) {
  // Exhaustive over transformed lengths 3 with a fixed first byte: whatever
  // RestoreKey accepts transforms back to the same bytes.
  int accepted = 0;
  for (int b = 0; b < 256; ++b) {
    for (int c = 0; c < 256; ++c) {
      const std::string transformed = {'q', static_cast<char>(b),
                                       static_cast<char>(c)};
      std::string key;
      if (!RestoreKey(transformed, &key)) continue;
      ++accepted;
      ASSERT_EQ(PreprocessKey(key), transformed);
    }
  }
  EXPECT_EQ(accepted, 256);  // exactly the 256 two-byte keys starting 'q'
}

}  // namespace
}  // namespace kvlab::stage5
