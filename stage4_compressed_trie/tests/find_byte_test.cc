// FindByte (src/find_byte.h): each path finds the first equal byte or
// answers -1, at every length around the 16-byte blocks, and on x86 the
// SSE2 and the portable path agree on every array and byte. Each array is
// its own allocation of exactly n bytes, so a read past it shows under ASan.

#include "find_byte.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage4 {
namespace {

int Reference(const std::vector<uint8_t>& bytes, uint8_t b) {
  const auto it = std::find(bytes.begin(), bytes.end(), b);
  return it == bytes.end() ? -1 : static_cast<int>(it - bytes.begin());
}

// Every byte value searched in `bytes`, copied to an allocation of its exact
// size, with each path compared to std::find.
void ExpectEveryPathFinds(const std::vector<uint8_t>& bytes) {
  const size_t n = bytes.size();
  std::unique_ptr<uint8_t[]> exact(new uint8_t[n == 0 ? 1 : n]);
  std::copy(bytes.begin(), bytes.end(), exact.get());
  for (int b = 0; b < 256; ++b) {
    const uint8_t byte = static_cast<uint8_t>(b);
    const int want = Reference(bytes, byte);
    ASSERT_EQ(FindBytePortable(exact.get(), n, byte), want)
        << "n=" << n << " b=" << b;
    ASSERT_EQ(FindByte(exact.get(), n, byte), want) << "n=" << n << " b=" << b;
#if KVLAB_STAGE4_SSE2
    ASSERT_EQ(FindByteSse2(exact.get(), n, byte), want)
        << "n=" << n << " b=" << b;
#endif
  }
}

TEST(FindByteTest, SortedBranchArraysOfEveryLength) {
  // Branch arrays as nodes hold them: distinct bytes, ascending, spread
  // over 0..255 so both ends (0x00 and 0xff) occur.
  for (size_t n = 0; n <= 256; ++n) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i) {
      bytes[i] = static_cast<uint8_t>(n <= 1 ? 255 * i : i * 255 / (n - 1));
    }
    ExpectEveryPathFinds(bytes);
  }
}

TEST(FindByteTest, RepeatedBytesAnswerTheFirst) {
  // Arrays from a small alphabet, so most bytes occur several times and in
  // both halves of an overlapping last block.
  std::mt19937 random(7);
  for (size_t n = 0; n <= 80; ++n) {
    for (int round = 0; round < 4; ++round) {
      std::vector<uint8_t> bytes(n);
      for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(random() % 5);
      ExpectEveryPathFinds(bytes);
    }
  }
}

TEST(FindByteTest, PathIsChosenAtCompileTime) {
#if defined(KVLAB_NO_SIMD)
  // The portable build (stage4_portable_test) must not take the SSE2 path.
  EXPECT_EQ(KVLAB_STAGE4_SSE2, 0);
#elif defined(__SSE2__)
  EXPECT_EQ(KVLAB_STAGE4_SSE2, 1);
#else
  EXPECT_EQ(KVLAB_STAGE4_SSE2, 0);
#endif
}

}  // namespace
}  // namespace kvlab::stage4
