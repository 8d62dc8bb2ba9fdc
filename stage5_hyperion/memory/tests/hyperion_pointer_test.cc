#include "kvlab/stage5/hyperion_pointer.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage5 {
namespace {

using HP = HyperionPointer;

TEST(HyperionPointerTest, DefaultIsNullAndAllZero) {
  const HP null;
  EXPECT_TRUE(null.IsNull());
  EXPECT_EQ(null.raw(), 0u);
  EXPECT_EQ(HP::Make(0, 0, 0, 0), null);
  uint8_t bytes[5] = {1, 2, 3, 4, 5};
  null.Store(bytes);
  for (uint8_t b : bytes) EXPECT_EQ(b, 0);
  EXPECT_TRUE(HP::Load(bytes).IsNull());
}

TEST(HyperionPointerTest, FieldsRoundTripAtEveryLimit) {
  const uint32_t superbins[] = {0, 1, 31, 32, HP::kMaxSuperbin};
  const uint32_t metabins[] = {0, 1, 8191, 8192, HP::kMaxMetabin};
  const uint32_t bins[] = {0, 1, 127, 128, HP::kMaxBin};
  const uint32_t chunks[] = {0, 1, 2047, 2048, HP::kMaxChunk};
  for (uint32_t s : superbins) {
    for (uint32_t m : metabins) {
      for (uint32_t b : bins) {
        for (uint32_t c : chunks) {
          const HP hp = HP::Make(s, m, b, c);
          ASSERT_EQ(hp.superbin(), s);
          ASSERT_EQ(hp.metabin(), m);
          ASSERT_EQ(hp.bin(), b);
          ASSERT_EQ(hp.chunk(), c);
          ASSERT_EQ(hp.IsNull(), s == 0 && m == 0 && b == 0 && c == 0);
          ASSERT_LT(hp.raw(), uint64_t{1} << 40);
        }
      }
    }
  }
}

TEST(HyperionPointerTest, LimitsMatchThePaper) {
  EXPECT_EQ(HP::kMaxSuperbin + 1, 64u);
  EXPECT_EQ(HP::kMaxMetabin + 1, 1u << 14);
  EXPECT_EQ(HP::kMaxBin + 1, 256u);
  EXPECT_EQ(HP::kMaxChunk + 1, 4096u);
  EXPECT_EQ(HP::kBytes, 5u);
}

TEST(HyperionPointerTest, FieldsDoNotBleedIntoEachOther) {
  // One field at its maximum, all others zero: only that field reads back.
  EXPECT_EQ(HP::Make(HP::kMaxSuperbin, 0, 0, 0).raw(), uint64_t{63} << 34);
  EXPECT_EQ(HP::Make(0, HP::kMaxMetabin, 0, 0).raw(), uint64_t{0x3fff} << 20);
  EXPECT_EQ(HP::Make(0, 0, HP::kMaxBin, 0).raw(), uint64_t{0xff} << 12);
  EXPECT_EQ(HP::Make(0, 0, 0, HP::kMaxChunk).raw(), uint64_t{0xfff});
  const HP all =
      HP::Make(HP::kMaxSuperbin, HP::kMaxMetabin, HP::kMaxBin, HP::kMaxChunk);
  EXPECT_EQ(all.raw(), (uint64_t{1} << 40) - 1);
}

TEST(HyperionPointerTest, StoreIsLittleEndianFiveBytes) {
  const HP hp = HP::Make(0x2a, 0x1234, 0x56, 0x789);
  uint8_t bytes[5];
  hp.Store(bytes);
  const uint64_t raw = hp.raw();
  for (int i = 0; i < 5; ++i) EXPECT_EQ(bytes[i], uint8_t(raw >> (8 * i)));
}

TEST(HyperionPointerTest, StoreAndLoadAtEveryAlignment) {
  const HP a = HP::Make(HP::kMaxSuperbin, HP::kMaxMetabin, 0, HP::kMaxChunk);
  const HP b = HP::Make(1, 2, HP::kMaxBin, 4);
  for (size_t offset = 0; offset < 16; ++offset) {
    std::vector<uint8_t> buffer(32, 0xee);
    a.Store(buffer.data() + offset);
    b.Store(buffer.data() + offset + HP::kBytes);
    EXPECT_EQ(HP::Load(buffer.data() + offset), a);
    EXPECT_EQ(HP::Load(buffer.data() + offset + HP::kBytes), b);
    // Neighbouring bytes are untouched.
    for (size_t i = 0; i < buffer.size(); ++i) {
      if (i < offset || i >= offset + 2 * HP::kBytes) {
        EXPECT_EQ(buffer[i], 0xee) << "offset " << offset << " byte " << i;
      }
    }
  }
}

}  // namespace
}  // namespace kvlab::stage5
