// The memory manager gives the pages of free chunks back to the system
// (superbin.h): checked with mincore, which says which pages of a mapping
// are resident.

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage5/memory_manager.h"
#include "segment_cache.h"

namespace kvlab::stage5 {
namespace {

const size_t kPage = PageSize();

// How many of the `pages` pages from `begin` are resident.
size_t CountResident(const char* begin, size_t pages) {
  std::vector<unsigned char> in_core(pages);
  EXPECT_EQ(mincore(const_cast<char*>(begin), pages * kPage, in_core.data()),
            0);
  size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1;
  return resident;
}

// A fresh manager's bin 0 of one superbin, filled with chunks that have
// all been written to, so that every page of the segment is resident.
// Most tests follow one page at a time with FreePagePolicy::kReturnAtOnce;
// the idle page's tests use the default.
class FullBin {
 public:
  explicit FullBin(size_t chunk_size,
                   FreePagePolicy policy = FreePagePolicy::kKeepLastPerSuperbin)
      : mm_(policy), chunk_size_(chunk_size) {
    for (size_t i = 0; i < kChunksPerBin; ++i) {
      chunks_.push_back(mm_.Allocate(chunk_size));
      std::memset(mm_.Resolve(chunks_.back()), 0xab, chunk_size);
    }
    // Chunks are handed out lowest first, so chunk i is at segment + i*size.
    segment_ = static_cast<char*>(mm_.Resolve(chunks_[0]));
    EXPECT_EQ(chunks_[0].chunk(), 0u);
    EXPECT_EQ(chunks_.back().bin(), chunks_[0].bin());
  }
  ~FullBin() {
    for (HyperionPointer hp : chunks_) mm_.Free(hp);
  }

  void Free(size_t chunk) {
    mm_.Free(chunks_[chunk]);
    chunks_[chunk] = HyperionPointer();
  }
  void Allocate(size_t chunk) {
    chunks_[chunk] = mm_.Allocate(chunk_size_);
    ASSERT_EQ(static_cast<char*>(mm_.Resolve(chunks_[chunk])),
              segment_ + chunk * chunk_size_);
  }

  size_t pages() const { return kChunksPerBin * chunk_size_ / kPage; }
  bool Resident(size_t page) const {
    return CountResident(segment_ + page * kPage, 1) == 1;
  }
  size_t ResidentPages() const { return CountResident(segment_, pages()); }
  uint64_t PagesReturned() const { return mm_.Stats().Total().pages_returned; }
  MemoryManager& mm() { return mm_; }
  HyperionPointer chunk(size_t i) const { return chunks_[i]; }

 private:
  MemoryManager mm_;
  size_t chunk_size_;
  std::vector<HyperionPointer> chunks_;
  char* segment_ = nullptr;
};

class PageReturnTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kPage != 4096) GTEST_SKIP() << "the page numbers assume 4 KiB pages";
  }
};

TEST_F(PageReturnTest, PagesOfFreeChunksLeaveTheResidentSet) {
  FullBin bin(1024,
              FreePagePolicy::kReturnAtOnce);  // four chunks to a 4 KiB page
  const size_t pages = bin.pages();
  ASSERT_EQ(bin.ResidentPages(), pages);
  EXPECT_EQ(bin.PagesReturned(), 0u);
  // Keep the first and the last chunk: the bin stays, and so do their pages.
  for (size_t i = 1; i + 1 < kChunksPerBin; ++i) bin.Free(i);
  EXPECT_EQ(bin.ResidentPages(), 2u);
  EXPECT_TRUE(bin.Resident(0));
  EXPECT_TRUE(bin.Resident(pages - 1));
  EXPECT_EQ(bin.PagesReturned(), pages - 2);
  EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
}

// Freed from the top down, each newly emptied page holds the bin's lowest
// free chunk and is kept for the next allocation at first; once a lower
// chunk is free it must go too.
TEST_F(PageReturnTest,
       ThePageKeptForTheNextAllocationGoesWhenALowerOneTakesOver) {
  FullBin bin(1024, FreePagePolicy::kReturnAtOnce);
  for (size_t i = kChunksPerBin - 2; i >= 1; --i) bin.Free(i);
  EXPECT_EQ(bin.ResidentPages(), 2u);
  EXPECT_EQ(bin.PagesReturned(), bin.pages() - 2);
}

TEST_F(PageReturnTest, ThePageOfTheLowestFreeChunkStays) {
  FullBin bin(1024, FreePagePolicy::kReturnAtOnce);
  const size_t pages = bin.pages();
  // Page 2 (chunks 8..11) empties, but chunk 8 is the next allocation.
  for (size_t i = 8; i < 12; ++i) bin.Free(i);
  EXPECT_EQ(bin.ResidentPages(), pages);
  // Freeing chunk 4 makes it the lowest: page 2 goes, page 1 stays.
  bin.Free(4);
  EXPECT_FALSE(bin.Resident(2));
  EXPECT_TRUE(bin.Resident(1));
  EXPECT_EQ(bin.ResidentPages(), pages - 1);
  // The next allocation takes chunk 4 without faulting a page in, and one
  // more takes chunk 8 on the returned page, which reads as zero.
  bin.Allocate(4);
  bin.Allocate(8);
  const auto* bytes =
      static_cast<const uint8_t*>(bin.mm().Resolve(bin.chunk(8)));
  for (size_t i = 0; i < 1024; ++i) ASSERT_EQ(bytes[i], 0) << i;
  EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
}

// 96-byte chunks do not divide a page: a chunk in use keeps both pages it
// spans, and a page returns only once every chunk with bytes in it is free.
TEST_F(PageReturnTest, AChunkAcrossAPageBoundaryKeepsBothPages) {
  FullBin bin(96, FreePagePolicy::kReturnAtOnce);
  const size_t straddling = (2 * kPage) / 96;  // bytes on pages 1 and 2
  ASSERT_LT(straddling * 96, 2 * kPage);
  ASSERT_GT((straddling + 1) * 96, 2 * kPage);
  // As the lowest free chunk it keeps both its pages, although every chunk
  // on page 2 is free.
  const size_t last_on_page_2 = (3 * kPage - 1) / 96;
  for (size_t i = straddling; i <= last_on_page_2; ++i) bin.Free(i);
  EXPECT_TRUE(bin.Resident(2));
  bin.Allocate(straddling);
  for (size_t i = 1; i < kChunksPerBin; ++i) {
    if (i != straddling) bin.Free(i);  // a no-op for those freed above
  }
  // Page 0 (chunk 0 in use) and the two pages of the straddling chunk.
  EXPECT_EQ(bin.ResidentPages(), 3u);
  EXPECT_TRUE(bin.Resident(1));
  EXPECT_TRUE(bin.Resident(2));
  bin.Free(straddling);
  EXPECT_EQ(bin.ResidentPages(), 1u);
  EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
}

// A bin whose last chunk is freed goes to the segment cache with only the
// page of its lowest free chunk (chunk 0) resident, which the next bin
// takes first.
TEST_F(PageReturnTest, AnEmptiedBinKeepsOnlyThePageOfChunkZero) {
  FullBin bin(1024, FreePagePolicy::kReturnAtOnce);
  for (size_t i = 0; i < kChunksPerBin; ++i) bin.Free(i);
  EXPECT_EQ(bin.mm().Stats().Total().bins, 0u);
  bin.Allocate(0);  // the cached segment again
  EXPECT_EQ(bin.ResidentPages(), 1u);
}

// With the lowest free chunk on a page returned earlier, frees below it
// and allocations in turn must not give that page back again and again.
TEST_F(PageReturnTest, FreesBelowAReturnedPageDoNotReturnItAgain) {
  FullBin bin(1024, FreePagePolicy::kReturnAtOnce);
  for (size_t i = 8; i < 16; ++i) bin.Free(i);  // page 2 kept, 3 returned
  EXPECT_EQ(bin.PagesReturned(), 1u);
  for (size_t i = 8; i < 12; ++i) bin.Allocate(i);  // lowest free: 12
  for (int round = 0; round < 100; ++round) {
    bin.Free(1);
    bin.Allocate(1);
  }
  EXPECT_EQ(bin.PagesReturned(), 1u);
  EXPECT_FALSE(bin.Resident(3));
}

// A container growing into the next size class frees its old chunk, and
// the next one to grow takes it again: the pages such frees empty must not
// go back and fault in again each time.
TEST_F(PageReturnTest, APageFreedAndTakenAgainStaysResident) {
  FullBin bin(1024);
  for (int round = 0; round < 100; ++round) {
    bin.Free(4);                                  // the lowest free chunk
    for (size_t i = 8; i < 12; ++i) bin.Free(i);  // page 2, wholly free
    EXPECT_TRUE(bin.Resident(2));
    bin.Allocate(4);
    for (size_t i = 8; i < 12; ++i) bin.Allocate(i);
  }
  EXPECT_EQ(bin.PagesReturned(), 0u);
  EXPECT_EQ(bin.ResidentPages(), bin.pages());
  EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
}

// Only one page per superbin stays idle: the next page a free empties
// sends it back, and a store that shrinks gives back all but that page.
TEST_F(PageReturnTest, TheIdlePageGoesWhenTheSuperbinEmptiesAnother) {
  FullBin bin(1024);
  bin.Free(4);
  for (size_t i = 8; i < 12; ++i) bin.Free(i);
  EXPECT_EQ(bin.PagesReturned(), 0u);
  for (size_t i = 12; i < 16; ++i) bin.Free(i);
  EXPECT_FALSE(bin.Resident(2));
  EXPECT_TRUE(bin.Resident(3));
  EXPECT_EQ(bin.PagesReturned(), 1u);
  EXPECT_EQ(bin.mm().HeldPageBytes(), bin.ResidentPages() * kPage);
  // Everything but the first and the last chunk: pages 0 and 1 (chunks 0
  // and 4, the lowest free), the last page, and the idle page.
  for (size_t i = 1; i + 1 < kChunksPerBin; ++i) {
    if (i != 4 && (i < 8 || i >= 16)) bin.Free(i);
  }
  EXPECT_EQ(bin.ResidentPages(), 3u);
  EXPECT_EQ(bin.PagesReturned(), bin.pages() - 3);
  EXPECT_EQ(bin.mm().HeldPageBytes(), bin.ResidentPages() * kPage);
  EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
}

// A superbin at the edge of use empties its bin and makes a new one on the
// cached segment, again and again: the idle page goes with the segment.
TEST_F(PageReturnTest, TheIdlePageStaysWithTheCachedSegment) {
  MemoryManager mm;
  std::vector<HyperionPointer> chunks;
  for (size_t i = 0; i < 8; ++i) {  // pages 0 and 1
    chunks.push_back(mm.Allocate(1024));
    std::memset(mm.Resolve(chunks.back()), 0xab, 1024);
  }
  const char* segment = static_cast<const char*>(mm.Resolve(chunks[0]));
  for (int round = 0; round < 100; ++round) {
    for (HyperionPointer hp : chunks) mm.Free(hp);
    ASSERT_EQ(mm.Stats().Total().bins, 0u);
    ASSERT_EQ(mm.Stats().cached_segments, 1u);
    // Chunk 0's page, kept as the lowest free chunk's, and the idle page,
    // both the cache's, which HeldPageBytes does not count.
    EXPECT_EQ(CountResident(segment, 2), 2u);
    EXPECT_EQ(mm.HeldPageBytes(), 0u);
    for (HyperionPointer& hp : chunks) {
      hp = mm.Allocate(1024);
      std::memset(mm.Resolve(hp), 0xab, 1024);
    }
    ASSERT_EQ(mm.Resolve(chunks[0]), segment);
  }
  EXPECT_EQ(mm.Stats().Total().pages_returned, 0u);
  EXPECT_EQ(mm.HeldPageBytes(), 2 * kPage);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  for (HyperionPointer hp : chunks) mm.Free(hp);
  CompactionPolicy release_all;
  mm.BeginCompaction(release_all);
  mm.FinishCompaction();  // unmaps the cached segment
  EXPECT_EQ(mm.Stats().cached_segments, 0u);
  EXPECT_EQ(mm.HeldPageBytes(), 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

// A compaction empties a sparse bin into a dense one's holes: the emptied
// bin's pages go back in one call when it is released, not chunk by chunk.
// HeldPageBytes (what MemoryUsage counts for the bins) is exactly what the
// kernel says is resident, through frees that leave pages wholly free,
// partly free and shared by two chunks, the kept chunk, and allocations
// back into them. 96-byte chunks straddle page boundaries.
TEST_F(PageReturnTest, HeldPageBytesAreTheResidentPages) {
  for (const FreePagePolicy policy :
       {FreePagePolicy::kKeepLastPerSuperbin, FreePagePolicy::kReturnAtOnce})
    for (const size_t chunk_size :
         {size_t{32}, size_t{96}, size_t{1024}, size_t{2016}}) {
      FullBin bin(chunk_size, policy);
      const auto expect_resident = [&](const char* step) {
        EXPECT_EQ(bin.mm().HeldPageBytes(), bin.ResidentPages() * kPage)
            << "chunk size " << chunk_size << ", " << step;
      };
      expect_resident("full");
      uint64_t x = 12345;  // a fixed pseudo-random pattern
      std::vector<size_t> freed;
      for (size_t i = 0; i < kChunksPerBin; ++i) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        // Runs of free chunks long enough to empty whole pages (the first
        // one from chunk 0, so the lowest free chunk's wholly free page is
        // kept), and single free chunks between live ones.
        if ((x >> 60) < 9 || (i / 200) % 3 == 0) {
          bin.Free(i);
          freed.push_back(i);
        }
      }
      expect_resident("after the frees");
      // Allocations take the lowest free chunks: a seventh of them, in order,
      // each written as the trie writes a new chunk (a page comes back into
      // the resident set when touched).
      for (size_t k = 0; k < freed.size() / 7; ++k) {
        bin.Allocate(freed[k]);
        std::memset(bin.mm().Resolve(bin.chunk(freed[k])), 0xcd, chunk_size);
      }
      expect_resident("after allocating some back");
      EXPECT_EQ(bin.mm().CheckConsistency(), absl::OkStatus());
    }
}

TEST_F(PageReturnTest, ACompactedBinIsReturnedWhole) {
  MemoryManager mm;
  std::vector<HyperionPointer> all, live;
  for (size_t i = 0; i < 2 * kChunksPerBin; ++i) {
    all.push_back(mm.Allocate(1024));
    std::memset(mm.Resolve(all.back()), 0xab, 1024);
  }
  // Bin 0 keeps every other chunk (no page wholly free), bin 1 one chunk in
  // 40, each alone on its page.
  for (size_t i = 0; i < all.size(); ++i) {
    const bool keep = i < kChunksPerBin ? i % 2 == 0 : i % 40 == 0;
    if (keep) {
      live.push_back(all[i]);
    } else {
      mm.Free(all[i]);
    }
  }
  const uint64_t returned_before = mm.Stats().Total().pages_returned;
  CompactionPolicy keep_cache;
  keep_cache.release_cache = false;  // bin 1's segment stays cached
  EXPECT_EQ(mm.BeginCompaction(keep_cache).bins_released, 1u);
  for (HyperionPointer& hp : live) hp = mm.Forward(hp);
  EXPECT_EQ(mm.FinishCompaction().bins_released, 1u);
  EXPECT_EQ(mm.Stats().Total().pages_returned, returned_before);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  // Fill bin 0's holes, then one more: a new bin on the cached segment,
  // of which only that chunk's page is resident.
  const size_t holes = kChunksPerBin - live.size();
  for (size_t i = 0; i <= holes; ++i) live.push_back(mm.Allocate(1024));
  ASSERT_EQ(live.back().chunk(), 0u);
  const char* segment = static_cast<const char*>(mm.Resolve(live.back()));
  const size_t resident = CountResident(segment, kChunksPerBin * 1024 / kPage);
  EXPECT_LE(resident, 1u);
  for (size_t i = 0; i < live.size(); ++i) {
    if (i < live.size() - holes - 1) {
      ASSERT_EQ(static_cast<const uint8_t*>(mm.Resolve(live[i]))[1023], 0xab);
    }
    mm.Free(live[i]);
  }
}

}  // namespace
}  // namespace kvlab::stage5
