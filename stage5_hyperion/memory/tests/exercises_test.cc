// The exercise of docs/stage5_hyperion_memory.md whose answer a test can
// check (`make stage5 exercises`): 4, the bytes held for one allocation
// (HeldBytesFor in src/exercises.cc), on values computed by hand from the
// chapter's size classes.

#include "exercises.h"

#include "gtest/gtest.h"

namespace kvlab::stage5 {
namespace {

TEST(Exercise4Test, ChunksOfTheSmallSuperbins) {
  EXPECT_EQ(HeldBytesFor(0), 0u);
  EXPECT_EQ(HeldBytesFor(1), 32u);
  EXPECT_EQ(HeldBytesFor(32), 32u);
  EXPECT_EQ(HeldBytesFor(33), 64u);
  EXPECT_EQ(HeldBytesFor(165), 192u);  // a course node
  EXPECT_EQ(HeldBytesFor(2'015), 2'016u);
  EXPECT_EQ(HeldBytesFor(2'016), 2'016u);
}

TEST(Exercise4Test, ExtendedRecordsAndTheirHeapBlocks) {
  EXPECT_EQ(HeldBytesFor(2'017), 16u + 2'048u);
  EXPECT_EQ(HeldBytesFor(8'192), 16u + 8'192u);
  EXPECT_EQ(HeldBytesFor(8'193), 16u + 9'216u);
  EXPECT_EQ(HeldBytesFor(16'384), 16u + 16'384u);
  EXPECT_EQ(HeldBytesFor(16'385), 16u + 20'480u);
  EXPECT_EQ(HeldBytesFor(65'536), 16u + 65'536u);
}

TEST(Exercise4Test, NeverLessThanAskedAndAtMostAStepMore) {
  for (size_t size = 1; size <= 40'000; ++size) {
    const size_t held = HeldBytesFor(size);
    ASSERT_GE(held, size) << size;
    const size_t step = size <= 2'016    ? 32
                        : size <= 8'192  ? 32 + 16
                        : size <= 16'384 ? 1'024 + 16
                                         : 4'096 + 16;
    ASSERT_LT(held - size, step) << size;
  }
}

}  // namespace
}  // namespace kvlab::stage5
