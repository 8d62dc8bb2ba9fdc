// CompareKeys: the key order kv_store.h states, byte for byte.

#include "kvlab/key_order.h"

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab {
namespace {

int Sign(int c) { return (c > 0) - (c < 0); }

TEST(KeyOrderTest, FollowsTheOrderKvStoreStates) {
  const std::vector<std::string> ascending = {"",   "A",   "Z",   "a",
                                              "ab", "abc", "\xff"};
  for (size_t i = 0; i < ascending.size(); ++i) {
    for (size_t j = 0; j < ascending.size(); ++j) {
      EXPECT_EQ(Sign(CompareKeys(ascending[i], ascending[j])),
                i < j ? -1 : (i == j ? 0 : 1))
          << "keys " << i << " and " << j;
    }
  }
}

TEST(KeyOrderTest, BytesAreUnsigned) {
  EXPECT_LT(CompareKeys("\x7f", "\x80"), 0);
  EXPECT_GT(CompareKeys("a\xff", "ab"), 0);
  EXPECT_LT(CompareKeys(std::string_view("\0", 1), "\x01"), 0);
}

TEST(KeyOrderTest, AProperPrefixSortsFirstEvenBeforeANul) {
  const std::string_view a_nul("a\0", 2);
  EXPECT_LT(CompareKeys("a", a_nul), 0);
  EXPECT_GT(CompareKeys(a_nul, "a"), 0);
  EXPECT_LT(CompareKeys(a_nul, std::string_view("a\0b", 3)), 0);
  EXPECT_LT(CompareKeys("", std::string_view("\0", 1)), 0);
}

TEST(KeyOrderTest, EqualKeysInDifferentBuffersCompareEqual) {
  const std::string first = "same key";
  const std::string second = "same key";
  EXPECT_EQ(CompareKeys(first, second), 0);
  EXPECT_EQ(CompareKeys(std::string_view(), std::string_view()), 0);
  EXPECT_EQ(CompareKeys(std::string_view(), ""), 0);
  EXPECT_LT(CompareKeys(std::string_view(), "a"), 0);
  EXPECT_GT(CompareKeys("a", std::string_view()), 0);
}

// std::string_view compares its chars as unsigned char, so its order is the
// stores' order: random keys over a small alphabet (many shared prefixes)
// must agree with it in sign.
TEST(KeyOrderTest, AgreesWithStringViewOnRandomKeys) {
  std::mt19937_64 rng(7);
  const std::string alphabet("\0\x01\x7f\x80\xff", 5);
  auto random_key = [&] {
    std::string key(rng() % 6, '\0');
    for (char& c : key) c = alphabet[rng() % alphabet.size()];
    return key;
  };
  for (int i = 0; i < 20000; ++i) {
    const std::string a = random_key();
    const std::string b = random_key();
    ASSERT_EQ(Sign(CompareKeys(a, b)),
              Sign(std::string_view(a).compare(std::string_view(b))))
        << "sizes " << a.size() << " and " << b.size();
  }
}

}  // namespace
}  // namespace kvlab
