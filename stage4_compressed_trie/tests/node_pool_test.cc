// NodePool: size classes, free-list reuse, splitting, slabs, statistics,
// and giving empty slabs back.

#include "node_pool.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage4 {
namespace {

// In most tests an `anchor` stays live, so that its slab never empties (an
// empty slab's free blocks leave the lists, see the tests at the end).

TEST(NodePoolTest, FreedObjectIsReusedForItsClassNotForLargerOnes) {
  NodePool pool(4096, /*use_slabs=*/true);
  void* anchor = pool.Allocate(8, true);
  void* a = pool.Allocate(22, true);  // class 24
  pool.Free(a, 22);
  EXPECT_EQ(pool.FreeObjects(), 1u);
  void* b = pool.Allocate(40, false);  // class 40: must not take a's block
  EXPECT_NE(b, a);
  void* c = pool.Allocate(21, false);  // class 24 again: a's block returns
  EXPECT_EQ(c, a);
  EXPECT_EQ(pool.FreeObjects(), 0u);
  EXPECT_EQ(pool.LiveObjects(), 3u);
  EXPECT_EQ(pool.BytesLive(), 8u + 24u + 40u);
  pool.Free(b, 40);
  pool.Free(c, 21);
  pool.Free(anchor, 8);
}

TEST(NodePoolTest, ObjectsAreAlignedAndDistinct) {
  NodePool pool(4096, true);
  std::set<void*> seen;
  for (size_t bytes = 1; bytes <= 300; ++bytes) {
    const bool align8 = bytes % 3 == 0;
    void* p = pool.Allocate(bytes, align8);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (align8 ? 8 : 4), 0u);
    EXPECT_TRUE(seen.insert(p).second);
  }
  EXPECT_EQ(pool.Slabs(), 1u);
  EXPECT_GT(pool.BytesAlignmentGaps(), 0u);
}

// With its own class empty, a request takes the front of the smallest larger
// free block; the rest becomes a free block of its own class.
TEST(NodePoolTest, LargerFreeBlockIsSplitWhenTheClassIsEmpty) {
  NodePool pool(4096, true);
  pool.Allocate(8, true);                  // the anchor
  void* small = pool.Allocate(100, true);  // class 100
  void* big = pool.Allocate(200, true);    // class 200, after it
  pool.Free(big, 200);
  pool.Free(small, 100);
  void* a = pool.Allocate(40, true);  // splits the 100-byte block
  EXPECT_EQ(a, small);
  EXPECT_EQ(pool.FreeObjects(), 2u);  // the 60-byte rest and `big`
  const std::vector<NodePool::ClassStats> classes = pool.Classes();
  ASSERT_EQ(classes.size(), 4u);  // 8 and 40 live; 60 and 200 free
  EXPECT_EQ(classes[1].object_bytes, 40u);
  EXPECT_EQ(classes[1].live, 1u);
  EXPECT_EQ(classes[2].object_bytes, 60u);
  EXPECT_EQ(classes[2].free, 1u);
  EXPECT_EQ(classes[3].object_bytes, 200u);
  EXPECT_EQ(classes[3].free, 1u);
  // The rest is handed out whole to its own class.
  EXPECT_EQ(pool.Allocate(60, false), static_cast<char*>(small) + 40);
  // 150 bytes: only `big` is large enough.
  EXPECT_EQ(pool.Allocate(150, true), big);
  EXPECT_EQ(pool.FreeObjects(), 1u);  // big's 48-byte rest
  EXPECT_EQ(pool.Slabs(), 1u);
  EXPECT_EQ(pool.BytesLive(), 8u + 40u + 60u + 152u);
}

// A rest under 8 bytes could not hold a free-list link: no split then.
TEST(NodePoolTest, BlockOnlyOneGranuleLargerIsNotSplit) {
  NodePool pool(4096, true);
  pool.Allocate(8, true);  // the anchor
  void* a = pool.Allocate(24, true);
  pool.Free(a, 24);
  void* b = pool.Allocate(20, true);
  EXPECT_NE(b, a);
  EXPECT_EQ(pool.FreeObjects(), 1u);
}

// The smallest split: a block two granules larger leaves an 8-byte rest,
// the smallest class, which is handed out whole.
TEST(NodePoolTest, BlockTwoGranulesLargerIsSplit) {
  NodePool pool(4096, true);
  pool.Allocate(8, true);  // the anchor
  void* a = pool.Allocate(32, true);
  pool.Free(a, 32);
  EXPECT_EQ(pool.Allocate(24, true), a);
  EXPECT_EQ(pool.FreeObjects(), 1u);  // the 8-byte rest
  EXPECT_EQ(pool.Allocate(8, false), static_cast<char*>(a) + 24);
  EXPECT_EQ(pool.FreeObjects(), 0u);
  EXPECT_EQ(pool.Slabs(), 1u);
}

// A block freed at a 4-mod-8 address serves 4-aligned requests only.
TEST(NodePoolTest, MisalignedFreeBlockIsNotGivenToAnAlignedRequest) {
  NodePool pool(4096, true);
  void* first = pool.Allocate(12, false);  // 8-aligned (the slab's first)
  void* odd = pool.Allocate(16, false);    // 12 bytes on: 4 mod 8
  ASSERT_EQ(reinterpret_cast<uintptr_t>(odd) % 8, 4u);
  pool.Free(odd, 16);
  void* aligned = pool.Allocate(16, true);
  EXPECT_NE(aligned, odd);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 8, 0u);
  EXPECT_EQ(pool.Allocate(16, false), odd);
  pool.Free(first, 12);
}

// Likewise a larger block at a 4-mod-8 address: it is split for a 4-aligned
// request, never for an 8-aligned one.
TEST(NodePoolTest, MisalignedLargerBlockIsSplitOnlyForAnUnalignedRequest) {
  NodePool pool(4096, true);
  void* first = pool.Allocate(12, false);  // 8-aligned (the slab's first)
  void* odd = pool.Allocate(40, false);    // 12 bytes on: 4 mod 8
  ASSERT_EQ(reinterpret_cast<uintptr_t>(odd) % 8, 4u);
  pool.Free(odd, 40);
  void* aligned = pool.Allocate(24, true);
  EXPECT_NE(aligned, odd);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 8, 0u);
  EXPECT_EQ(pool.Allocate(24, false), odd);
  pool.Free(first, 12);
}

TEST(NodePoolTest, NewSlabOnlyWhenTheCurrentOneIsUsedUp) {
  NodePool pool(4096, true);
  // A slab starts with its header, so one object fewer than 2 MiB / 4 KiB.
  const size_t per_slab = NodePool::kSlabBytes / 4096 - 1;
  std::vector<void*> objects;
  for (size_t i = 0; i < per_slab; ++i) {
    objects.push_back(pool.Allocate(4096, true));
  }
  EXPECT_EQ(pool.Slabs(), 1u);
  objects.push_back(pool.Allocate(4096, true));
  EXPECT_EQ(pool.Slabs(), 2u);
  EXPECT_EQ(pool.BytesReserved() / NodePool::kSlabBytes, 2u);
  // Freed blocks are reused: allocating as many again takes no new slab.
  for (size_t i = 0; i < per_slab; i += 2) pool.Free(objects[i], 4096);
  for (size_t i = 0; i < per_slab; i += 2) pool.Allocate(4096, true);
  EXPECT_EQ(pool.Slabs(), 2u);
}

TEST(NodePoolTest, ClassStatisticsAndDebugString) {
  NodePool pool(4096, true);
  void* a = pool.Allocate(8, true);
  void* b = pool.Allocate(8, true);
  pool.Allocate(102, true);
  pool.Free(a, 8);
  const std::vector<NodePool::ClassStats> classes = pool.Classes();
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].object_bytes, 8u);
  EXPECT_EQ(classes[0].live, 1u);
  EXPECT_EQ(classes[0].free, 1u);
  EXPECT_EQ(classes[1].object_bytes, 104u);
  EXPECT_NE(pool.DebugString().find("class 104 B: live 1, free 0"),
            std::string::npos);
  pool.Free(b, 8);
}

TEST(NodePoolTest, MallocModeCountsLiveBytes) {
  NodePool pool(4096, /*use_slabs=*/false);
  void* a = pool.Allocate(102, true);
  EXPECT_EQ(pool.Slabs(), 0u);
  EXPECT_EQ(pool.BytesLive(), 104u);
  EXPECT_GE(pool.BytesReserved(), 104u);
  pool.Free(a, 102);
  EXPECT_EQ(pool.LiveObjects(), 0u);
  EXPECT_EQ(pool.FreeObjects(), 0u);
}

// Fills `slabs` slabs and a bit with objects of `bytes` bytes.
std::vector<void*> Fill(NodePool* pool, size_t bytes, size_t slabs) {
  std::vector<void*> objects;
  const size_t before = pool->Slabs();
  while (pool->Slabs() < before + slabs + 1) {
    objects.push_back(pool->Allocate(bytes, true));
  }
  return objects;
}

// Three slabs full, then everything freed: the two slabs before the current
// one are unmapped, their blocks leave the lists, the current one starts
// over. It takes no walk per freed object: the blocks are dropped when half
// of the free blocks lie in empty slabs.
TEST(NodePoolTest, EmptySlabsAreUnmapped) {
  NodePool pool(4096, true);
  std::vector<void*> objects = Fill(&pool, 1000, 2);
  ASSERT_EQ(pool.Slabs(), 3u);
  for (void* p : objects) pool.Free(p, 1000);
  EXPECT_EQ(pool.Slabs(), 1u);
  EXPECT_EQ(pool.SlabsReleased(), 2u);
  EXPECT_EQ(pool.FreeObjects(), 0u);
  EXPECT_EQ(pool.LiveObjects(), 0u);
  EXPECT_EQ(pool.BytesReserved() / NodePool::kSlabBytes, 1u);
  EXPECT_TRUE(pool.Classes().empty());
  // The current slab starts over: its first object is where it always was.
  void* again = pool.Allocate(8, true);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(again) % NodePool::kSlabBytes, 8u);
}

// A slab with one live object stays; the others go once half of the free
// blocks lie in them.
TEST(NodePoolTest, SlabWithALiveObjectStays) {
  NodePool pool(4096, true);
  std::vector<void*> objects = Fill(&pool, 1000, 3);
  ASSERT_EQ(pool.Slabs(), 4u);
  void* survivor = objects[10];  // in the first slab
  for (void* p : objects) {
    if (p != survivor) pool.Free(p, 1000);
  }
  EXPECT_EQ(pool.Slabs(), 2u);  // the survivor's and the current one
  EXPECT_EQ(pool.LiveObjects(), 1u);
  // Still free: the survivor's neighbours, and the one object of the current
  // slab, which emptied it but, one block among 2,097, is not worth a walk.
  const size_t per_slab = (NodePool::kSlabBytes - 8) / 1000;
  EXPECT_EQ(pool.FreeObjects(), per_slab - 1 + 1);
  pool.Free(survivor, 1000);
  pool.ReleaseEmptySlabs();
  EXPECT_EQ(pool.Slabs(), 1u);
  EXPECT_EQ(pool.FreeObjects(), 0u);
}

// Rounds of one object size each, everything freed after each round: the
// memory of one round's class serves the next round's, so the pool never
// holds more slabs than the largest round needed.
TEST(NodePoolTest, EmptiedMemoryServesEveryClass) {
  NodePool pool(8192, true);
  size_t most = 0;
  for (size_t bytes : {24, 1000, 60, 4000, 200, 8000, 12}) {
    std::vector<void*> objects;
    // About 5 MiB of objects of this size.
    for (size_t i = 0; i < (size_t{5} << 20) / bytes; ++i) {
      objects.push_back(pool.Allocate(bytes, bytes % 8 == 0));
    }
    most = std::max(most, pool.Slabs());
    EXPECT_LE(pool.Slabs(), 4u) << bytes;
    for (void* p : objects) pool.Free(p, bytes);
    pool.ReleaseEmptySlabs();
    EXPECT_EQ(pool.Slabs(), 1u) << bytes;
  }
  EXPECT_GE(most, 3u);
}

}  // namespace
}  // namespace kvlab::stage4
