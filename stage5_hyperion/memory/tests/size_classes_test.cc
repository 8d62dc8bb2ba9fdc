#include "kvlab/stage5/size_classes.h"

#include "gtest/gtest.h"
#include "kvlab/stage5/memory_manager.h"

namespace kvlab::stage5 {
namespace {

TEST(SizeClassesTest, EverySuperbinBoundary) {
  EXPECT_EQ(SuperbinForSize(1), 1u);
  for (uint32_t i = 1; i < kSuperbins; ++i) {
    EXPECT_EQ(SuperbinForSize(32 * i), i);
    EXPECT_EQ(SuperbinForSize(32 * i - 31), i);
    EXPECT_EQ(SuperbinForSize(32 * i + 1), i + 1 < kSuperbins ? i + 1 : 0);
    EXPECT_EQ(ChunkSize(i), 32u * i);
  }
  EXPECT_EQ(SuperbinForSize(2016), 63u);
  EXPECT_EQ(SuperbinForSize(2017), 0u);
  EXPECT_EQ(SuperbinForSize(kMaxAllocation), 0u);
  EXPECT_EQ(ChunkSize(0), 16u);
}

TEST(SizeClassesTest, ExtendedStepEdges) {
  EXPECT_EQ(ExtendedHeldSize(2017), 2048u);
  EXPECT_EQ(ExtendedHeldSize(2048), 2048u);
  EXPECT_EQ(ExtendedHeldSize(2049), 2080u);  // 32 B steps up to 8 KiB
  EXPECT_EQ(ExtendedHeldSize(8161), 8192u);
  EXPECT_EQ(ExtendedHeldSize(8191), 8192u);
  EXPECT_EQ(ExtendedHeldSize(8192), 8192u);
  EXPECT_EQ(ExtendedHeldSize(8193), 9216u);  // 1 KiB steps from here
  EXPECT_EQ(ExtendedHeldSize(16384), 16384u);
  EXPECT_EQ(ExtendedHeldSize(16385), 20480u);  // 4 KiB steps from here
  EXPECT_EQ(ExtendedHeldSize(20480), 20480u);
  EXPECT_EQ(ExtendedHeldSize(20481), 24576u);
  EXPECT_EQ(ExtendedHeldSize(kMaxAllocation) - kMaxAllocation, 1u);
}

TEST(SizeClassesTest, ExactFitRoundsTo32Only) {
  EXPECT_EQ(ExactHeldSize(2017), 2048u);
  EXPECT_EQ(ExactHeldSize(2049), 2080u);
  EXPECT_EQ(ExactHeldSize(4128), 4128u);
  EXPECT_EQ(ExactHeldSize(8193), 8224u);
  EXPECT_EQ(ExactHeldSize(16385), 16416u);
}

TEST(SizeClassesTest, HeldSizeAfterResize) {
  // Up to 8 KiB every 32-byte step is a new block size.
  EXPECT_EQ(HeldSizeAfterResize(2304, 2336), 2336u);
  EXPECT_EQ(HeldSizeAfterResize(2304, 2272), 2272u);
  // A block with room to grow: in place while the step-rounded size is the
  // same, else the new size's step-rounded one (the paper's rule).
  EXPECT_EQ(HeldSizeAfterResize(10240, 9248), 10240u);
  EXPECT_EQ(HeldSizeAfterResize(10240, 10240), 10240u);
  EXPECT_EQ(HeldSizeAfterResize(10240, 10272), 11264u);
  EXPECT_EQ(HeldSizeAfterResize(10240, 9216), 9216u);
  EXPECT_EQ(HeldSizeAfterResize(9216, 8192), 8192u);
  // An exact block moves to a block with room at its first growth, and
  // stays in place when it shrinks within its step.
  EXPECT_EQ(HeldSizeAfterResize(8224, 8256), 9216u);
  EXPECT_EQ(HeldSizeAfterResize(8256, 8224), 8256u);
  EXPECT_EQ(HeldSizeAfterResize(8224, 8192), 8192u);
  EXPECT_EQ(HeldSizeAfterResize(8224, 8224), 8224u);
  // New blocks (held 0) and frees.
  EXPECT_EQ(HeldSizeAfterResize(0, 2080), 2080u);
  EXPECT_EQ(HeldSizeAfterResize(0, 8200), 9216u);
  EXPECT_EQ(HeldSizeAfterResize(9216, 0), 0u);
}

// Each boundary through the manager: the superbin it lands in, what it
// holds, and that the bytes are usable and zero.
TEST(SizeClassesTest, ManagerHonoursEveryBoundary) {
  MemoryManager mm;
  std::vector<size_t> sizes;
  for (size_t i = 1; i < kSuperbins; ++i) {
    sizes.push_back(32 * i);
    sizes.push_back(32 * i + 1);
  }
  for (size_t s : {8191, 8192, 8193, 16384, 16385, 20480, 20481}) {
    sizes.push_back(s);
  }
  for (size_t size : sizes) {
    const HyperionPointer hp = mm.Allocate(size);
    ASSERT_EQ(hp.superbin(), SuperbinForSize(size)) << size;
    ASSERT_EQ(mm.Size(hp), size);
    const auto* bytes = static_cast<const uint8_t*>(mm.Resolve(hp));
    for (size_t i = 0; i < size; ++i) ASSERT_EQ(bytes[i], 0) << size;
    const SuperbinStats s = mm.Stats().superbins[hp.superbin()];
    EXPECT_EQ(s.requested_bytes, size);
    EXPECT_EQ(s.held_bytes, hp.superbin() == 0 ? ExtendedHeldSize(size)
                                               : ChunkSize(hp.superbin()));
    mm.Free(hp);
  }
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

}  // namespace
}  // namespace kvlab::stage5
