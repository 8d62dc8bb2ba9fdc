#include "kvlab/coding.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab {
namespace {

// Byte i of a little-endian field holds bits 8i..8i+7, lowest first.
TEST(Coding, LittleEndianBytesMatchExplicitArrays) {
  const uint8_t bytes[8] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  EXPECT_EQ(LoadLE16(bytes), 0x0201u);
  EXPECT_EQ(LoadLE24(bytes), 0x030201u);
  EXPECT_EQ(LoadLE32(bytes), 0x04030201u);
  EXPECT_EQ(LoadLE40(bytes), 0x0504030201u);
  EXPECT_EQ(LoadLE64(bytes), 0x0807060504030201u);

  uint8_t out[8] = {};
  StoreLE16(out, 0xa1b2);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 2),
            (std::vector<uint8_t>{0xb2, 0xa1}));
  StoreLE24(out, 0xa1b2c3);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 3),
            (std::vector<uint8_t>{0xc3, 0xb2, 0xa1}));
  StoreLE32(out, 0xa1b2c3d4);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4),
            (std::vector<uint8_t>{0xd4, 0xc3, 0xb2, 0xa1}));
  StoreLE40(out, 0xa1b2c3d4e5);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 5),
            (std::vector<uint8_t>{0xe5, 0xd4, 0xc3, 0xb2, 0xa1}));
  StoreLE64(out, 0x0102030405060708);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 8),
            (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST(Coding, BigEndianLoadReadsTheFirstByteAsMostSignificant) {
  const uint8_t bytes[8] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
  EXPECT_EQ(LoadBE64(bytes), 0x0102030405060708u);
  const uint8_t a[8] = {'a', 0, 0, 0, 0, 0, 0, 0};
  const uint8_t b[8] = {'a', 'b', 0, 0, 0, 0, 0, 0};
  const uint8_t c[8] = {'b', 0, 0, 0, 0, 0, 0, 0};
  EXPECT_LT(LoadBE64(a), LoadBE64(b));
  EXPECT_LT(LoadBE64(b), LoadBE64(c));
}

// Each width round-trips at every offset within a word, and writes no byte
// outside its own.
template <typename Store, typename Load>
void ExpectRoundTrips(int width, const std::vector<uint64_t>& values,
                      Store store, Load load) {
  for (const uint64_t v : values) {
    for (size_t offset = 0; offset < 8; ++offset) {
      std::vector<uint8_t> buffer(24, 0xee);
      store(buffer.data() + offset, v);
      EXPECT_EQ(load(buffer.data() + offset), v)
          << width << " bytes, " << v << " at " << offset;
      for (size_t i = 0; i < buffer.size(); ++i) {
        if (i < offset || i >= offset + width) {
          EXPECT_EQ(buffer[i], 0xee)
              << width << " bytes at " << offset << ": byte " << i;
        }
      }
    }
  }
}

TEST(Coding, RoundTripsAtEveryAlignmentWithinItsWidth) {
  ExpectRoundTrips(
      2, {0, 1, 0xff, 0x100, 0x8080, 0xffff},
      [](uint8_t* p, uint64_t v) { StoreLE16(p, uint16_t(v)); },
      [](const uint8_t* p) { return uint64_t{LoadLE16(p)}; });
  ExpectRoundTrips(
      3, {0, 1, 0xff, 0x10000, 0x808080, 0xffffff},
      [](uint8_t* p, uint64_t v) { StoreLE24(p, uint32_t(v)); },
      [](const uint8_t* p) { return uint64_t{LoadLE24(p)}; });
  ExpectRoundTrips(
      4, {0, 1, 0xff, 0x1000000, 0x80808080, 0xffffffff},
      [](uint8_t* p, uint64_t v) { StoreLE32(p, uint32_t(v)); },
      [](const uint8_t* p) { return uint64_t{LoadLE32(p)}; });
  ExpectRoundTrips(
      5,
      {0, 1, 0xff, 0x100, 0xffffffff, 0x100000000, 0x8080808080, 0xffffffffff},
      [](uint8_t* p, uint64_t v) { StoreLE40(p, v); },
      [](const uint8_t* p) { return LoadLE40(p); });
  ExpectRoundTrips(
      8, {0, 1, 0xff, 0x100000000, 0x8080808080808080, ~uint64_t{0}},
      [](uint8_t* p, uint64_t v) { StoreLE64(p, v); },
      [](const uint8_t* p) { return LoadLE64(p); });
}

// The odd widths keep only their low bits.
TEST(Coding, OddWidthsStoreOnlyTheirLowBits) {
  uint8_t bytes[5] = {};
  StoreLE40(bytes, (uint64_t{1} << 40) | 7);
  EXPECT_EQ(LoadLE40(bytes), 7u);
  StoreLE24(bytes, (uint32_t{1} << 24) | 9);
  EXPECT_EQ(LoadLE24(bytes), 9u);
}

// A field that ends its heap block is read and written without a byte past
// it (under AddressSanitizer a wider access would be reported here).
TEST(Coding, OddWidthsTouchNoBytePastTheirEnd) {
  auto five = std::make_unique<uint8_t[]>(5);
  StoreLE40(five.get(), 0x1234567890);
  EXPECT_EQ(LoadLE40(five.get()), 0x1234567890u);
  auto three = std::make_unique<uint8_t[]>(3);
  StoreLE24(three.get(), 0x123456);
  EXPECT_EQ(LoadLE24(three.get()), 0x123456u);
}

}  // namespace
}  // namespace kvlab
