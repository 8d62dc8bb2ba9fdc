// Under AddressSanitizer, the manager poisons free chunks and the unused
// tails of live ones (poison.h). These death tests touch such bytes and
// expect ASan's report; without ASan they are skipped.

#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "kvlab/stage5/memory_manager.h"

namespace kvlab::stage5 {
namespace {

#if defined(__SANITIZE_ADDRESS__)

// Reads one byte through a pointer the compiler cannot see through.
uint8_t ReadByte(const void* p, size_t offset) {
  return static_cast<const volatile uint8_t*>(p)[offset];
}

TEST(PoisonDeathTest, ReadAfterFreeInABin) {
  MemoryManager mm;
  const HyperionPointer keep = mm.Allocate(64);  // keeps the bin mapped
  const HyperionPointer hp = mm.Allocate(64);
  const void* address = mm.Resolve(hp);
  mm.Free(hp);
  EXPECT_DEATH(ReadByte(address, 0), "use-after-poison");
  mm.Free(keep);
}

TEST(PoisonDeathTest, OverflowByOneByteIntoTheChunkTail) {
  MemoryManager mm;
  const HyperionPointer hp = mm.Allocate(40);  // a 64-byte chunk
  const void* address = mm.Resolve(hp);
  EXPECT_EQ(ReadByte(address, 39), 0);
  EXPECT_DEATH(ReadByte(address, 40), "use-after-poison");
  mm.Free(hp);
}

TEST(PoisonDeathTest, TailIsPoisonedAgainAfterAShrink) {
  MemoryManager mm;
  HyperionPointer hp = mm.Allocate(64);
  hp = mm.Reallocate(hp, 33);
  EXPECT_DEATH(ReadByte(mm.Resolve(hp), 40), "use-after-poison");
  hp = mm.Reallocate(hp, 64);
  EXPECT_EQ(ReadByte(mm.Resolve(hp), 63), 0);
  mm.Free(hp);
}

TEST(PoisonDeathTest, OverAllocatedTailOfAHeapBlock) {
  MemoryManager mm;
  const HyperionPointer hp = mm.Allocate(3000);  // holds 3072 bytes
  const void* address = mm.Resolve(hp);
  EXPECT_EQ(ReadByte(address, 2999), 0);
  EXPECT_DEATH(ReadByte(address, 3000), "use-after-poison");
  mm.Free(hp);
}

TEST(PoisonDeathTest, NeighbourChunkIsNotReachable) {
  MemoryManager mm;
  const HyperionPointer a = mm.Allocate(32);
  const HyperionPointer b = mm.Allocate(32);
  ASSERT_EQ(static_cast<const char*>(mm.Resolve(b)) -
                static_cast<const char*>(mm.Resolve(a)),
            32);
  mm.Free(b);
  EXPECT_DEATH(ReadByte(mm.Resolve(a), 32), "use-after-poison");
  mm.Free(a);
}

#else

TEST(PoisonDeathTest, NeedsAddressSanitizer) {
  GTEST_SKIP() << "poisoning is only active in -DKVLAB_SANITIZE=address builds";
}

#endif

}  // namespace
}  // namespace kvlab::stage5
