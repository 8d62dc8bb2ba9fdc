#include "kvlab/stage5/memory_manager.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "segment_cache.h"

namespace kvlab::stage5 {
namespace {

bool AllZero(const void* p, size_t n) {
  const auto* bytes = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

TEST(MemoryManagerTest, NullHandling) {
  MemoryManager mm;
  EXPECT_TRUE(mm.Allocate(0).IsNull());
  EXPECT_EQ(mm.Resolve(HyperionPointer()), nullptr);
  EXPECT_EQ(mm.Size(HyperionPointer()), 0u);
  mm.Free(HyperionPointer());
  const HyperionPointer hp = mm.Reallocate(HyperionPointer(), 10);
  EXPECT_FALSE(hp.IsNull());
  EXPECT_EQ(mm.Size(hp), 10u);
  EXPECT_TRUE(mm.Reallocate(hp, 0).IsNull());
  EXPECT_EQ(mm.Stats().Total().chunks_in_use, 0u);
}

// One superbin's first bins against a hand-computed expectation: chunks
// are handed out lowest first (bin by bin, chunk by chunk), a freed chunk
// is the next one taken, and a full bin that frees a chunk takes the next
// allocation again.
TEST(MemoryManagerTest, ChunksAreTakenLowestFirstAndReused) {
  MemoryManager mm;
  std::vector<HyperionPointer> hps;
  for (size_t i = 0; i < kChunksPerBin + 10; ++i) {
    hps.push_back(mm.Allocate(64));
    ASSERT_EQ(hps[i].superbin(), 2u) << i;
    ASSERT_EQ(hps[i].metabin(), 0u) << i;
    ASSERT_EQ(hps[i].bin(), i / kChunksPerBin) << i;
    ASSERT_EQ(hps[i].chunk(), i % kChunksPerBin) << i;
    ASSERT_EQ(mm.Size(hps[i]), 64u);
  }
  EXPECT_EQ(mm.Stats().superbins[2].chunks_in_use, kChunksPerBin + 10);
  // Bin 0 is full: freeing its chunks 5 and 3 makes it the first not full.
  mm.Free(hps[5]);
  mm.Free(hps[3]);
  EXPECT_EQ(mm.Stats().superbins[2].chunks_in_use, kChunksPerBin + 8);
  EXPECT_EQ(mm.Allocate(33), hps[3]);
  EXPECT_EQ(mm.Allocate(64), hps[5]);
  const HyperionPointer next = mm.Allocate(40);
  EXPECT_EQ(next.bin(), 1u);
  EXPECT_EQ(next.chunk(), 10u);
  hps.push_back(next);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  for (HyperionPointer hp : hps) mm.Free(hp);
  const MemoryStats stats = mm.Stats();
  EXPECT_EQ(stats.Total().chunks_in_use, 0u);
  EXPECT_EQ(stats.Total().mapped_bytes, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

// Random small allocations and frees against a model of what each holds:
// every allocation starts with its parts and then zeros (a freed chunk is
// reused, so it must have been cleared), keeps its size and bytes while
// others come and go, resolves where ResolveSpan says, and the superbins'
// counts of chunks and bytes match the model's.
TEST(MemoryManagerTest, SmallAllocationsAgainstAModel) {
  struct Live {
    HyperionPointer hp;
    size_t size;
    uint8_t fill;
  };
  MemoryManager mm;
  std::vector<Live> live;
  std::mt19937 rng(5);
  auto check = [&](int step) {
    std::array<uint64_t, kSuperbins> chunks = {};
    std::array<uint64_t, kSuperbins> requested = {};
    for (const Live& l : live) {
      const uint32_t superbin = SuperbinForSize(l.size);
      ASSERT_EQ(l.hp.superbin(), superbin) << step;
      ASSERT_EQ(mm.Size(l.hp), l.size) << step;
      ASSERT_EQ(mm.Resolve(l.hp), mm.ResolveSpan(l.hp).address) << step;
      const auto* bytes = static_cast<const uint8_t*>(mm.Resolve(l.hp));
      for (size_t i = 0; i < l.size; ++i) {
        ASSERT_EQ(bytes[i], l.fill) << "step " << step << " byte " << i;
      }
      ++chunks[superbin];
      requested[superbin] += l.size;
    }
    const MemoryStats stats = mm.Stats();
    for (uint32_t i = 1; i < kSuperbins; ++i) {
      ASSERT_EQ(stats.superbins[i].chunks_in_use, chunks[i])
          << step << " " << i;
      ASSERT_EQ(stats.superbins[i].requested_bytes, requested[i]) << step;
      ASSERT_EQ(stats.superbins[i].held_bytes, chunks[i] * ChunkSize(i));
    }
    ASSERT_EQ(mm.CheckConsistency(), absl::OkStatus()) << step;
  };
  // A few sizes of each of three superbins, so that chunks are reused.
  const size_t sizes[] = {1, 7, 32, 33, 50, 64, 1990, 2016};
  for (int step = 0; step < 3000; ++step) {
    if (live.empty() || rng() % 8 < 5) {
      const size_t size = sizes[rng() % std::size(sizes)];
      const std::string head(std::min<size_t>(size, 3), 'h');
      const std::string tail(size > 3 ? 1 : 0, 't');
      const HyperionPointer hp = mm.AllocateWith(size, {head, tail});
      auto* bytes = static_cast<uint8_t*>(mm.Resolve(hp));
      ASSERT_NE(bytes, nullptr);
      const std::string parts = head + tail;
      ASSERT_EQ(std::memcmp(bytes, parts.data(), parts.size()), 0) << step;
      ASSERT_TRUE(AllZero(bytes + parts.size(), size - parts.size()))
          << "step " << step << ": a reused chunk was not cleared";
      const auto fill = static_cast<uint8_t>(1 + step % 255);
      std::memset(bytes, fill, size);
      live.push_back({hp, size, fill});
    } else {
      const size_t at = rng() % live.size();
      mm.Free(live[at].hp);
      live[at] = live.back();
      live.pop_back();
    }
    if (step % 100 == 0) check(step);
  }
  check(3000);
  for (const Live& l : live) mm.Free(l.hp);
  live.clear();
  check(3001);
}

// ResolveSpan names the bytes a reader may ask the cache for: the whole
// chunk of a small allocation (not only the bytes asked for), the
// requested bytes of a heap block.
TEST(MemoryManagerTest, ResolveSpanCoversTheChunkOrTheRequestedBytes) {
  MemoryManager mm;
  EXPECT_EQ(mm.ResolveSpan(HyperionPointer()).address, nullptr);
  EXPECT_EQ(mm.ResolveSpan(HyperionPointer()).bytes, 0u);
  for (const size_t size :
       {size_t{1}, size_t{40}, size_t{2016}, kMaxSmallSize + 1, size_t{5000}}) {
    const HyperionPointer hp = mm.Allocate(size);
    const MemoryManager::Span span = mm.ResolveSpan(hp);
    EXPECT_EQ(span.address, mm.Resolve(hp)) << size;
    EXPECT_EQ(span.bytes, hp.superbin() == 0 ? size : ChunkSize(hp.superbin()))
        << size;
    EXPECT_GE(span.bytes, size);
    mm.Free(hp);
  }
}

TEST(MemoryManagerTest, FirstExtendedRecordIsNeverTheNullPointer) {
  MemoryManager mm;
  const HyperionPointer hp = mm.Allocate(5000);
  EXPECT_FALSE(hp.IsNull());
  EXPECT_EQ(hp.superbin(), 0u);
  EXPECT_EQ(hp.chunk(), 1u);
  EXPECT_EQ(mm.Stats().superbins[0].chunks_in_use, 1u);
  mm.Free(hp);
  EXPECT_EQ(mm.Stats().superbins[0].bins, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(MemoryManagerTest, ReallocateWithinAClassKeepsThePointer) {
  MemoryManager mm;
  HyperionPointer hp = mm.Allocate(33);
  std::memset(mm.Resolve(hp), 0xab, 33);
  const HyperionPointer same = mm.Reallocate(hp, 64);
  EXPECT_EQ(same, hp);
  const auto* bytes = static_cast<const uint8_t*>(mm.Resolve(hp));
  for (size_t i = 0; i < 33; ++i) EXPECT_EQ(bytes[i], 0xab);
  EXPECT_TRUE(AllZero(bytes + 33, 31));
  EXPECT_EQ(mm.Stats().superbins[2].requested_bytes, 64u);
  mm.Free(hp);
}

TEST(MemoryManagerTest, ShrinkThenRegrowExposesZerosNotOldBytes) {
  MemoryManager mm;
  HyperionPointer hp = mm.Allocate(60);
  std::memset(mm.Resolve(hp), 0x5a, 60);
  hp = mm.Reallocate(hp, 40);  // same 64-byte chunk
  hp = mm.Reallocate(hp, 60);
  const auto* bytes = static_cast<const uint8_t*>(mm.Resolve(hp));
  EXPECT_TRUE(AllZero(bytes + 40, 20));
  // Across classes and through superbin 0 as well.
  std::memset(mm.Resolve(hp), 0x5a, 60);
  hp = mm.Reallocate(hp, 3000);
  std::memset(mm.Resolve(hp), 0x77, 3000);
  hp = mm.Reallocate(hp, 2100);
  hp = mm.Reallocate(hp, 2900);
  bytes = static_cast<const uint8_t*>(mm.Resolve(hp));
  for (size_t i = 0; i < 2100; ++i) ASSERT_EQ(bytes[i], 0x77);
  EXPECT_TRUE(AllZero(bytes + 2100, 800));
  mm.Free(hp);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(MemoryManagerTest, GrowingIn32ByteStepsMovesAcrossEverySuperbin) {
  MemoryManager mm;
  std::vector<uint8_t> expected;
  HyperionPointer hp = mm.Allocate(32);
  for (size_t size = 32; size <= 40000; size += 32) {
    hp = mm.Reallocate(hp, size);
    ASSERT_EQ(hp.superbin(), SuperbinForSize(size));
    auto* bytes = static_cast<uint8_t*>(mm.Resolve(hp));
    // The previous step's bytes survive, the new 32 are zero.
    if (!expected.empty()) {
      ASSERT_EQ(std::memcmp(bytes, expected.data(), expected.size()), 0);
    }
    ASSERT_TRUE(AllZero(bytes + size - 32, 32));
    for (size_t i = size - 32; i < size; ++i) {
      bytes[i] = uint8_t(i % 251 + 1);
      expected.push_back(bytes[i]);
    }
    ASSERT_EQ(mm.Stats().Total().chunks_in_use, 1u);
  }
  mm.Free(hp);
  EXPECT_EQ(mm.Stats().Total().chunks_in_use, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(MemoryManagerTest, ExtendedGrowthReallocatesOnlyAtStepEdges) {
  MemoryManager mm;
  HyperionPointer hp = mm.Allocate(2017);
  const HyperionPointer first = hp;
  size_t block_changes = 0;
  uint64_t held = mm.Stats().superbins[0].extended_heap_bytes;
  for (size_t size = 2049; size <= 65536; size += 32) {
    hp = mm.Reallocate(hp, size);
    ASSERT_EQ(hp, first);  // superbin 0 pointers never move
    const uint64_t now = mm.Stats().superbins[0].extended_heap_bytes;
    ASSERT_EQ(now, ExtendedHeldSize(size));
    if (now != held) ++block_changes;
    held = now;
  }
  // 2048 -> 8192 in 32 B steps (192), -> 16384 in 1 KiB (8), -> 65536 in
  // 4 KiB (12): 212 heap reallocations for 1,984 growths.
  EXPECT_EQ(block_changes, 212u);
  mm.Free(hp);
  EXPECT_EQ(mm.Stats().superbins[0].extended_heap_bytes, 0u);
}

// A heap block that grows past its room moves to one the C library may
// have used before: its bytes past the old size must read zero anyway.
// Just before each growth a block of the new held size is dirtied and
// freed, which glibc's realloc then tends to hand out (the freed block
// itself, or the top of the heap it went back to; ASan's fills new
// blocks with 0xbe); the kept bytes are checked against a model.
TEST(MemoryManagerTest, ExtendedGrowthZeroesTheBytesAMovedBlockAdds) {
  MemoryManager mm;
  std::vector<uint8_t> expected;
  HyperionPointer hp = mm.Allocate(kMaxSmallSize + 1);
  expected.assign(kMaxSmallSize + 1, 0);
  std::vector<void*> fences;
  for (size_t size = kMaxSmallSize + 1; size < 40000; size += 1000) {
    const size_t new_size = size + 1000;
    void* dirty = std::malloc(ExtendedHeldSize(new_size));
    ASSERT_NE(dirty, nullptr);
    std::memset(dirty, 0xa5, ExtendedHeldSize(new_size));
    fences.push_back(std::malloc(64));  // keeps `dirty` off the heap's top
    std::free(dirty);
    const HyperionPointer same = mm.Reallocate(hp, new_size);
    ASSERT_EQ(same, hp);  // superbin 0: the record stays, the block moves
    auto* bytes = static_cast<uint8_t*>(mm.Resolve(hp));
    ASSERT_EQ(std::memcmp(bytes, expected.data(), size), 0) << new_size;
    for (size_t i = size; i < new_size; ++i) {
      ASSERT_EQ(bytes[i], 0) << i << " of " << new_size;
    }
    for (size_t i = size; i < new_size; ++i) bytes[i] = uint8_t(i % 251 + 1);
    expected.insert(expected.end(), bytes + size, bytes + new_size);
  }
  for (void* p : fences) std::free(p);
  mm.Free(hp);
  EXPECT_EQ(mm.Stats().superbins[0].extended_heap_bytes, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(MemoryManagerTest, ExactFitHoldsNoRoomUntilItGrows) {
  MemoryManager mm;
  // Small sizes take a chunk whatever the fit.
  const HyperionPointer small = mm.Allocate(100, Fit::kExact);
  EXPECT_EQ(small.superbin(), 4u);
  mm.Free(small);

  HyperionPointer hp = mm.Allocate(8224, Fit::kExact);
  const HyperionPointer first = hp;
  const auto held = [&] { return mm.Stats().superbins[0].held_bytes; };
  EXPECT_EQ(held(), 8224u);
  auto* bytes = static_cast<uint8_t*>(mm.Resolve(hp));
  for (size_t i = 0; i < 8224; ++i) ASSERT_EQ(bytes[i], 0) << i;
  bytes[0] = 1;
  bytes[8223] = 2;
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());

  // A shrink within the step stays in place, the freed bytes zero.
  hp = mm.Reallocate(hp, 8192);
  EXPECT_EQ(held(), 8192u);
  hp = mm.Reallocate(hp, 8224);
  EXPECT_EQ(held(), 9216u);  // the first growth gets the step's room
  bytes = static_cast<uint8_t*>(mm.Resolve(hp));
  EXPECT_EQ(bytes[0], 1);
  EXPECT_EQ(bytes[8223], 0);
  hp = mm.Reallocate(hp, 9216);
  EXPECT_EQ(held(), 9216u);  // and grows in place from then on
  EXPECT_EQ(hp, first);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());

  // An exact block shrinking by 32 bytes keeps its block: its bytes past the
  // new size are zero, and it still passes the consistency check.
  const HyperionPointer other = mm.Allocate(8256, Fit::kExact);
  static_cast<uint8_t*>(mm.Resolve(other))[8255] = 7;
  EXPECT_EQ(mm.Reallocate(other, 8224), other);
  EXPECT_EQ(mm.Stats().superbins[0].held_bytes, 9216u + 8256u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  EXPECT_EQ(mm.Reallocate(other, 8256), other);
  EXPECT_EQ(static_cast<uint8_t*>(mm.Resolve(other))[8255], 0);
  mm.Free(other);
  mm.Free(hp);
  EXPECT_EQ(mm.Stats().superbins[0].extended_heap_bytes, 0u);
}

TEST(MemoryManagerTest, BinsAreMappedOnDemandAndReturnedWhenEmpty) {
  MemoryManager mm;
  std::vector<HyperionPointer> hps;
  for (size_t i = 0; i < kChunksPerBin; ++i) hps.push_back(mm.Allocate(64));
  EXPECT_EQ(mm.Stats().superbins[2].bins, 1u);
  EXPECT_EQ(mm.Stats().superbins[2].chunks_free, 0u);
  hps.push_back(mm.Allocate(64));
  MemoryStats stats = mm.Stats();
  EXPECT_EQ(stats.superbins[2].bins, 2u);
  EXPECT_EQ(stats.superbins[2].chunks_free, kChunksPerBin - 1);
  EXPECT_EQ(stats.superbins[2].mapped_bytes, 2 * 64 * kChunksPerBin);
  EXPECT_EQ(hps.back().bin(), 1u);
  // Freeing the lone chunk of bin 1 unmaps it into the cache.
  mm.Free(hps.back());
  hps.pop_back();
  stats = mm.Stats();
  EXPECT_EQ(stats.superbins[2].bins, 1u);
  EXPECT_EQ(stats.cached_segments, 1u);
  // A hole in bin 0 is filled before any new bin.
  mm.Free(hps[1234]);
  hps[1234] = mm.Allocate(50);
  EXPECT_EQ(hps[1234].bin(), 0u);
  EXPECT_EQ(hps[1234].chunk(), 1234u);
  for (HyperionPointer hp : hps) mm.Free(hp);
  stats = mm.Stats();
  EXPECT_EQ(stats.Total().mapped_bytes, 0u);
  EXPECT_EQ(stats.Total().metadata_bytes, 0u);
  EXPECT_EQ(stats.Total().metabins, 0u);
  EXPECT_LE(stats.cached_segments, SegmentCache::kCapacity);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(MemoryManagerTest, SegmentCacheKeepsOneSegmentPerSuperbin) {
  MemoryManager mm;
  std::vector<HyperionPointer> hps;
  for (size_t i = 1; i <= 10; ++i) hps.push_back(mm.Allocate(32 * i));
  const void* address = mm.Resolve(hps[4]);
  for (HyperionPointer hp : hps) mm.Free(hp);
  MemoryStats stats = mm.Stats();
  // Superbins 1..10 each keep the segment of their emptied bin.
  EXPECT_EQ(stats.cached_segments, 10u);
  EXPECT_EQ(stats.cached_bytes, 55 * 32 * kChunksPerBin);
  EXPECT_EQ(stats.Total().mapped_bytes, 0u);
  // A superbin's next bin takes its segment back: the same address.
  hps[4] = mm.Allocate(5 * 32);
  EXPECT_EQ(mm.Resolve(hps[4]), address);
  EXPECT_EQ(mm.Stats().cached_segments, 9u);
  // Two bins of one superbin emptied: it keeps one segment, not two.
  std::vector<HyperionPointer> two_bins;
  for (size_t i = 0; i <= kChunksPerBin; ++i) {
    two_bins.push_back(mm.Allocate(64));
  }
  EXPECT_EQ(mm.Stats().superbins[2].bins, 2u);
  for (HyperionPointer hp : two_bins) mm.Free(hp);
  mm.Free(hps[4]);
  stats = mm.Stats();
  EXPECT_EQ(stats.cached_segments, 10u);
  EXPECT_EQ(stats.cached_bytes, 55 * 32 * kChunksPerBin);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

// A bin's per-chunk slack bytes (the requested sizes) grow with the
// highest chunk it hands out: a bin of few chunks, as each arena of
// hyperion:arenas=N has in most superbins, costs little more than its
// descriptor.
TEST(MemoryManagerTest, SlackArrayGrowsWithTheChunksInUse) {
  MemoryManager mm;
  std::vector<HyperionPointer> hps = {mm.Allocate(64)};
  const uint64_t one_chunk = mm.Stats().superbins[2].metadata_bytes;
  EXPECT_LT(one_chunk, kChunksPerBin);
  // Every size survives the array's growth; a full bin has the whole array.
  for (size_t i = 1; i < kChunksPerBin; ++i) {
    hps.push_back(mm.Allocate(33 + i % 32));
  }
  EXPECT_EQ(mm.Size(hps[0]), 64u);
  for (size_t i = 1; i < kChunksPerBin; ++i) {
    ASSERT_EQ(mm.Size(hps[i]), 33 + i % 32) << i;
  }
  EXPECT_GE(mm.Stats().superbins[2].metadata_bytes,
            one_chunk + kChunksPerBin / 2);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  for (HyperionPointer hp : hps) mm.Free(hp);
  EXPECT_EQ(mm.Stats().superbins[2].metadata_bytes, 0u);
}

TEST(MemoryManagerTest, SecondMetabinAndReleaseOfItsMetadata) {
  MemoryManager mm;
  const size_t per_metabin = kChunksPerBin * kBinsPerMetabin;
  std::vector<HyperionPointer> hps(per_metabin + 1);
  for (auto& hp : hps) hp = mm.Allocate(32);
  EXPECT_EQ(hps.back().metabin(), 1u);
  EXPECT_EQ(mm.Stats().superbins[1].metabins, 2u);
  // A free chunk in the full metabin 0 is preferred over metabin 1.
  mm.Free(hps[77]);
  hps[77] = mm.Allocate(1);
  EXPECT_EQ(hps[77].metabin(), 0u);
  mm.Free(hps.back());
  hps.pop_back();
  EXPECT_EQ(mm.Stats().superbins[1].metabins, 1u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  for (HyperionPointer hp : hps) mm.Free(hp);
  const SuperbinStats s = mm.Stats().superbins[1];
  EXPECT_EQ(s.metabins, 0u);
  EXPECT_EQ(s.metadata_bytes, 0u);
  EXPECT_EQ(s.mapped_bytes, 0u);
}

TEST(MemoryManagerTest, ManagersAreIndependentArenas) {
  MemoryManager a, b;
  const HyperionPointer ha = a.Allocate(100);
  const HyperionPointer hb = b.Allocate(100);
  EXPECT_EQ(ha, hb);  // same position in each hierarchy
  EXPECT_NE(a.Resolve(ha), b.Resolve(hb));
  a.Free(ha);
  EXPECT_EQ(a.Stats().Total().chunks_in_use, 0u);
  EXPECT_EQ(b.Stats().Total().chunks_in_use, 1u);
  b.Free(hb);
}

TEST(MemoryManagerTest, PointersStoredInBytesResolve) {
  MemoryManager mm;
  std::vector<uint8_t> table(HyperionPointer::kBytes * 100 + 3);
  std::vector<void*> addresses;
  for (size_t i = 0; i < 100; ++i) {
    const HyperionPointer hp = mm.Allocate(1 + i * 37);
    hp.Store(table.data() + 3 + i * HyperionPointer::kBytes);
    addresses.push_back(mm.Resolve(hp));
  }
  std::set<void*> distinct(addresses.begin(), addresses.end());
  EXPECT_EQ(distinct.size(), 100u);
  for (size_t i = 0; i < 100; ++i) {
    const HyperionPointer hp =
        HyperionPointer::Load(table.data() + 3 + i * HyperionPointer::kBytes);
    EXPECT_EQ(mm.Resolve(hp), addresses[i]);
    EXPECT_EQ(mm.Size(hp), 1 + i * 37);
  }
}

TEST(MemoryManagerTest, DestructorReleasesLiveAllocations) {
  // Valgrind and LeakSanitizer would report heap blocks left behind.
  MemoryManager mm;
  mm.Allocate(100);
  mm.Allocate(50000);
}

}  // namespace
}  // namespace kvlab::stage5
