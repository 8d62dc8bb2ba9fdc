#include "kvlab/stage5/little_endian_40.h"

#include <cstdint>
#include <memory>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage5 {
namespace {

// Byte i of the encoding holds bits 8i..8i+7, lowest first.
TEST(Little40, BytesAreLittleEndian) {
  uint8_t bytes[5];
  Store40(bytes, 0x0504030201);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(bytes[i], i + 1) << i;
  EXPECT_EQ(Load40(bytes), 0x0504030201u);
}

// Round trip at every alignment of a word, for values that fill each byte,
// and not a byte written outside the five.
TEST(Little40, RoundTripsAtEveryAlignmentWithinItsFiveBytes) {
  const uint64_t values[] = {0,          1,           0xff,         0x100,
                             0xffffffff, 0x100000000, 0x8080808080, kMax40};
  for (const uint64_t v : values) {
    for (size_t offset = 0; offset < 8; ++offset) {
      std::vector<uint8_t> buffer(24, 0xee);
      Store40(buffer.data() + offset, v);
      EXPECT_EQ(Load40(buffer.data() + offset), v) << v << " at " << offset;
      for (size_t i = 0; i < buffer.size(); ++i) {
        if (i < offset || i >= offset + 5) {
          EXPECT_EQ(buffer[i], 0xee) << "offset " << offset << " byte " << i;
        }
      }
    }
  }
  // Only the low 40 bits are stored.
  uint8_t bytes[5];
  Store40(bytes, (uint64_t{1} << 40) | 7);
  EXPECT_EQ(Load40(bytes), 7u);
}

// Five bytes that end their heap block are read without a byte past them
// (under AddressSanitizer a wider load would be reported here).
TEST(Little40, ReadsNoBytePastTheFifth) {
  auto block = std::make_unique<uint8_t[]>(5);
  Store40(block.get(), 0x1234567890);
  EXPECT_EQ(Load40(block.get()), 0x1234567890u);
}

}  // namespace
}  // namespace kvlab::stage5
