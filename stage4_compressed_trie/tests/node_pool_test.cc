// NodePool: size classes, free-list reuse, splitting, slabs, statistics.

#include "node_pool.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage4 {
namespace {

TEST(NodePoolTest, FreedObjectIsReusedForItsClassNotForLargerOnes) {
  NodePool pool(4096, /*use_slabs=*/true);
  void* a = pool.Allocate(22, true);  // class 24
  pool.Free(a, 22);
  EXPECT_EQ(pool.FreeObjects(), 1u);
  void* b = pool.Allocate(40, false);  // class 40: must not take a's block
  EXPECT_NE(b, a);
  void* c = pool.Allocate(21, false);  // class 24 again: a's block returns
  EXPECT_EQ(c, a);
  EXPECT_EQ(pool.FreeObjects(), 0u);
  EXPECT_EQ(pool.LiveObjects(), 2u);
  EXPECT_EQ(pool.BytesLive(), 24u + 40u);
  pool.Free(b, 40);
  pool.Free(c, 21);
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
  void* small = pool.Allocate(100, true);  // class 100
  void* big = pool.Allocate(200, true);    // class 200, after it
  pool.Free(big, 200);
  pool.Free(small, 100);
  void* a = pool.Allocate(40, true);  // splits the 100-byte block
  EXPECT_EQ(a, small);
  EXPECT_EQ(pool.FreeObjects(), 2u);  // the 60-byte rest and `big`
  const std::vector<NodePool::ClassStats> classes = pool.Classes();
  ASSERT_EQ(classes.size(), 3u);  // 40 live; 60 and 200 free
  EXPECT_EQ(classes[0].object_bytes, 40u);
  EXPECT_EQ(classes[0].live, 1u);
  EXPECT_EQ(classes[1].object_bytes, 60u);
  EXPECT_EQ(classes[1].free, 1u);
  EXPECT_EQ(classes[2].object_bytes, 200u);
  EXPECT_EQ(classes[2].free, 1u);
  // The rest is handed out whole to its own class.
  EXPECT_EQ(pool.Allocate(60, false), static_cast<char*>(small) + 40);
  // 150 bytes: only `big` is large enough.
  EXPECT_EQ(pool.Allocate(150, true), big);
  EXPECT_EQ(pool.FreeObjects(), 1u);  // big's 48-byte rest
  EXPECT_EQ(pool.Slabs(), 1u);
  EXPECT_EQ(pool.BytesLive(), 40u + 60u + 152u);
}

// A rest under 8 bytes could not hold a free-list link: no split then.
TEST(NodePoolTest, BlockOnlyOneGranuleLargerIsNotSplit) {
  NodePool pool(4096, true);
  void* a = pool.Allocate(24, true);
  pool.Free(a, 24);
  void* b = pool.Allocate(20, true);
  EXPECT_NE(b, a);
  EXPECT_EQ(pool.FreeObjects(), 1u);
}

// A block freed at a 4-mod-8 address serves 4-aligned requests only.
TEST(NodePoolTest, MisalignedFreeBlockIsNotGivenToAnAlignedRequest) {
  NodePool pool(4096, true);
  void* first = pool.Allocate(12, false);  // 8-aligned (slab start)
  void* odd = pool.Allocate(16, false);    // at +12: 4 mod 8
  ASSERT_EQ(reinterpret_cast<uintptr_t>(odd) % 8, 4u);
  pool.Free(odd, 16);
  void* aligned = pool.Allocate(16, true);
  EXPECT_NE(aligned, odd);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 8, 0u);
  EXPECT_EQ(pool.Allocate(16, false), odd);
  pool.Free(first, 12);
}

TEST(NodePoolTest, NewSlabOnlyWhenTheCurrentOneIsUsedUp) {
  NodePool pool(4096, true);
  const size_t per_slab = NodePool::kSlabBytes / 4096;
  std::vector<void*> objects;
  for (size_t i = 0; i < per_slab; ++i) {
    objects.push_back(pool.Allocate(4096, true));
  }
  EXPECT_EQ(pool.Slabs(), 1u);
  objects.push_back(pool.Allocate(4096, true));
  EXPECT_EQ(pool.Slabs(), 2u);
  for (void* p : objects) pool.Free(p, 4096);
  // All freed: allocating them again takes no new slab.
  for (size_t i = 0; i <= per_slab; ++i) pool.Allocate(4096, true);
  EXPECT_EQ(pool.Slabs(), 2u);
  EXPECT_EQ(pool.BytesReserved() / NodePool::kSlabBytes, 2u);
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

}  // namespace
}  // namespace kvlab::stage4
