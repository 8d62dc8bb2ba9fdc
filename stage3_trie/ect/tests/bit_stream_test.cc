#include "kvlab/ect/bit_stream.h"

#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::ect {
namespace {

TEST(BitStreamTest, WritesMostSignificantBitFirst) {
  BitWriter w;
  w.Write(0b101, 3);
  w.WriteBit(true);
  w.Write(0, 4);
  EXPECT_EQ(w.size(), 8u);
  ASSERT_EQ(w.words().size(), 1u);
  EXPECT_EQ(w.words()[0], uint64_t{0b10110000} << 56);
}

TEST(BitStreamTest, IgnoresHighBitsOfTheValue) {
  BitWriter w;
  w.Write(~uint64_t{0}, 2);
  w.Write(0, 2);
  BitReader r(w.words().data(), w.size());
  EXPECT_EQ(r.Read(4), 0b1100u);
}

// The same after bits already in the word and across a word boundary:
// the value's bits above `count` must not land on the bits before it.
TEST(BitStreamTest, IgnoresHighBitsOfTheValueInsideAndAcrossWords) {
  BitWriter w;
  w.Write(0, 3);
  w.Write(0xf5, 4);               // 0101; the 1111 above it must not show
  w.Write(0, 56);                 // to bit 63: one bit left in the first word
  w.Write(0b1111010, 3);          // 010, its first bit the first word's last
  w.Write(~uint64_t{0} << 2, 5);  // 11100
  BitReader r(w.words().data(), w.size());
  EXPECT_EQ(r.Read(3), 0u);
  EXPECT_EQ(r.Read(4), 0b0101u);
  EXPECT_EQ(r.Read(56), 0u);
  EXPECT_EQ(r.Read(3), 0b010u);
  EXPECT_EQ(r.Read(5), 0b11100u);
  EXPECT_FALSE(r.overrun());
}

TEST(BitStreamTest, FullWordsAcrossWordBoundaries) {
  BitWriter w;
  w.Write(1, 1);
  w.Write(0x0123456789abcdefULL, 64);
  w.Write(0x3, 2);
  BitReader r(w.words().data(), w.size());
  EXPECT_EQ(r.Read(1), 1u);
  EXPECT_EQ(r.Read(64), 0x0123456789abcdefULL);
  EXPECT_EQ(r.Read(2), 3u);
  EXPECT_FALSE(r.overrun());
  EXPECT_EQ(r.position(), 67u);
}

TEST(BitStreamTest, RandomWidthsRoundTrip) {
  std::mt19937_64 rng(38);
  std::vector<std::pair<uint64_t, int>> fields;
  BitWriter w;
  for (int i = 0; i < 20000; ++i) {
    const int width = static_cast<int>(rng() % 65);
    uint64_t value = rng();
    if (width < 64) value &= (uint64_t{1} << width) - 1;
    if (width == 0) value = 0;
    fields.emplace_back(value, width);
    w.Write(value, width);
  }
  BitReader r(w.words().data(), w.size());
  for (const auto& [value, width] : fields) ASSERT_EQ(r.Read(width), value);
  EXPECT_EQ(r.position(), w.size());
  EXPECT_FALSE(r.overrun());
}

TEST(BitStreamTest, ReadsFromAnyPosition) {
  BitWriter w;
  w.Write(0xf0f0f0f0f0f0f0f0ULL, 64);
  w.Write(0xf0f0, 16);
  BitReader r(w.words().data(), w.size(), 60);
  EXPECT_EQ(r.Read(8), 0x0fu);
}

TEST(BitStreamTest, ReadingPastTheEndGivesZerosAndOverrun) {
  BitWriter w;
  w.Write(0b11, 2);
  BitReader r(w.words().data(), w.size());
  EXPECT_EQ(r.Read(4), 0b1100u);
  EXPECT_TRUE(r.overrun());
}

TEST(BitStreamTest, ZerosThenOne) {
  BitWriter w;
  w.WriteZeros(70);
  w.WriteBit(true);
  w.WriteZeros(3);
  BitReader r(w.words().data(), w.size());
  EXPECT_EQ(r.ReadZerosThenOne(100), 70);
  EXPECT_EQ(r.ReadZerosThenOne(1), 2);  // more than the limit
  EXPECT_EQ(r.ReadZerosThenOne(5), 6);  // the string ended
  EXPECT_TRUE(r.overrun());
}

TEST(BitStreamTest, ReleaseEmptiesTheWriter) {
  BitWriter w;
  w.Write(5, 3);
  std::vector<uint64_t> words = w.Release();
  EXPECT_EQ(words.size(), 1u);
  EXPECT_EQ(w.size(), 0u);
  EXPECT_TRUE(w.words().empty());
}

}  // namespace
}  // namespace kvlab::ect
