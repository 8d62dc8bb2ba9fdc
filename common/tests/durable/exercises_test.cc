// The exercises of docs/durability.md whose answer a test can check
// (`make durability-exercises`): 7, the physical records of one logical
// record (PhysicalRecordsFor in common/src/durable/exercises.cc), and 8,
// the bytes the log grows by (LogBytesFor), on values computed by hand
// from the block format and against the log writer itself.

#include "durable/exercises.h"

#include <cstdint>
#include <random>
#include <string>

#include "durable/log_format.h"
#include "durable/log_writer.h"
#include "gtest/gtest.h"

namespace kvlab::durable {
namespace {

// The payload one block holds after its header.
constexpr uint64_t kPerBlock = kBlockSize - kHeaderSize;  // 32,757

TEST(Exercise7Test, ByHand) {
  EXPECT_EQ(PhysicalRecordsFor(0, 0), 1u);  // an empty payload: one FULL
  EXPECT_EQ(PhysicalRecordsFor(0, 100), 1u);
  EXPECT_EQ(PhysicalRecordsFor(0, kPerBlock), 1u);
  EXPECT_EQ(PhysicalRecordsFor(0, kPerBlock + 1), 2u);  // FIRST, LAST
  EXPECT_EQ(PhysicalRecordsFor(0, 3 * kPerBlock), 3u);  // FIRST, MIDDLE, LAST
  EXPECT_EQ(PhysicalRecordsFor(32'000, 757), 1u);       // exactly fits
  EXPECT_EQ(PhysicalRecordsFor(32'000, 758), 2u);
  // 11 bytes left: a FIRST with no payload, then the rest.
  EXPECT_EQ(PhysicalRecordsFor(kBlockSize - 11, 0), 1u);
  EXPECT_EQ(PhysicalRecordsFor(kBlockSize - 11, 1), 2u);
  // Fewer than 11 left: a zero trailer, then a fresh block.
  EXPECT_EQ(PhysicalRecordsFor(kBlockSize - 10, kPerBlock), 1u);
}

TEST(Exercise8Test, ByHand) {
  EXPECT_EQ(LogBytesFor(0, 0), 11u);
  EXPECT_EQ(LogBytesFor(0, 100), 111u);
  EXPECT_EQ(LogBytesFor(0, kPerBlock), kBlockSize);
  EXPECT_EQ(LogBytesFor(0, kPerBlock + 1), kBlockSize + 12);
  EXPECT_EQ(LogBytesFor(kBlockSize - 11, 1), 11u + 12u);
  EXPECT_EQ(LogBytesFor(kBlockSize - 10, 5), 10u + 16u);  // trailer first
  EXPECT_EQ(LogBytesFor(kBlockSize - 1, 0), 1u + 11u);
}

// The writer frames records exactly so: its end moves by LogBytesFor, and
// it writes one header per physical record.
TEST(Exercise8Test, MatchesTheLogWriter) {
  std::mt19937_64 rng(8);
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t offset =
        i < 64 ? kBlockSize - 1 - i % 32 : rng() % kBlockSize;
    const size_t size = i % 3 == 0 ? rng() % 100'000 : rng() % 64;
    LogWriter writer(nullptr, 1, offset);
    ASSERT_EQ(LogBytesFor(offset, size), writer.EndAfter(size) - offset)
        << offset << " " << size;
    // Each physical record is a header and its payload; the only other
    // bytes are the zero trailer of a block with no room for a header.
    const uint64_t room = kBlockSize - offset;
    const uint64_t trailer = room < kHeaderSize ? room : 0;
    ASSERT_EQ(LogBytesFor(offset, size),
              trailer + PhysicalRecordsFor(offset, size) * kHeaderSize + size)
        << offset << " " << size;
  }
}

}  // namespace
}  // namespace kvlab::durable
