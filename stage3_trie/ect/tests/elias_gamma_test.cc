#include "kvlab/ect/elias_gamma.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::ect {
namespace {

std::string Bits(uint64_t x) {
  BitWriter w;
  WriteEliasGamma(x, &w);
  BitReader r(w.words().data(), w.size());
  std::string s;
  for (uint64_t i = 0; i < w.size(); ++i) s += r.ReadBit() ? '1' : '0';
  return s;
}

TEST(EliasGammaTest, KnownCodes) {
  EXPECT_EQ(Bits(1), "1");
  EXPECT_EQ(Bits(2), "010");
  EXPECT_EQ(Bits(3), "011");
  EXPECT_EQ(Bits(4), "00100");
  EXPECT_EQ(Bits(5), "00101");
  EXPECT_EQ(Bits(17), "000010001");
}

TEST(EliasGammaTest, LengthIsTwiceTheLogPlusOne) {
  EXPECT_EQ(EliasGammaLength(1), 1);
  EXPECT_EQ(EliasGammaLength(7), 5);
  EXPECT_EQ(EliasGammaLength(8), 7);
  EXPECT_EQ(EliasGammaLength(~uint64_t{0}), 127);
  for (uint64_t x : {1ULL, 2ULL, 255ULL, 256ULL, 1ULL << 40}) {
    EXPECT_EQ(static_cast<int>(Bits(x).size()), EliasGammaLength(x)) << x;
  }
}

TEST(EliasGammaTest, RoundTripsSmallLargeAndRandom) {
  std::vector<uint64_t> values;
  for (uint64_t x = 1; x <= 5000; ++x) values.push_back(x);
  values.push_back(~uint64_t{0});
  values.push_back(uint64_t{1} << 63);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) values.push_back((rng() >> (rng() % 64)) | 1);
  BitWriter w;
  for (uint64_t x : values) WriteEliasGamma(x, &w);
  BitReader r(w.words().data(), w.size());
  for (uint64_t x : values) ASSERT_EQ(ReadEliasGamma(&r), x);
  EXPECT_EQ(r.position(), w.size());
}

TEST(EliasGammaTest, TruncatedOrTooLongIsNotACode) {
  BitWriter w;
  WriteEliasGamma(1000, &w);
  BitReader cut(w.words().data(), w.size() - 1);
  EXPECT_EQ(ReadEliasGamma(&cut), 0u);

  BitWriter zeros;
  zeros.WriteZeros(64);
  zeros.WriteBit(true);
  BitReader r(zeros.words().data(), zeros.size());
  EXPECT_EQ(ReadEliasGamma(&r), 0u);
}

}  // namespace
}  // namespace kvlab::ect
