// Compaction (MemoryManager::BeginCompaction, Forward, FinishCompaction):
// sparse bins are emptied into dense ones, every moved allocation keeps its
// bytes, size and zero tail, the statistics stay exact at every step, and
// the emptied bins' memory goes back.

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage5/memory_manager.h"

namespace kvlab::stage5 {
namespace {

// Allocations of one size class whose pointers live in a byte array, as an
// owner keeps them, each filled with its own tag.
class Owner {
 public:
  explicit Owner(MemoryManager* mm) : mm_(mm) {}

  void Add(size_t size) {
    const HyperionPointer hp = mm_->Allocate(size);
    const size_t i = sizes_.size();
    sizes_.push_back(size);
    table_.resize(table_.size() + HyperionPointer::kBytes);
    hp.Store(Slot(i));
    std::memset(mm_->Resolve(hp), Tag(i), size);
  }
  // Frees allocation i (its slot becomes null).
  void Remove(size_t i) {
    mm_->Free(Get(i));
    HyperionPointer().Store(Slot(i));
    sizes_[i] = 0;
  }
  // Rewrites every slot through Forward; returns how many changed.
  size_t ForwardAll() {
    size_t changed = 0;
    for (size_t i = 0; i < sizes_.size(); ++i) {
      const HyperionPointer hp = Get(i);
      const HyperionPointer to = mm_->Forward(hp);
      if (!(to == hp)) ++changed;
      EXPECT_EQ(mm_->Forward(to), to) << "Forward is idempotent";
      to.Store(Slot(i));
    }
    return changed;
  }
  // Every live allocation has its size and tag bytes; with `grow`, growing
  // it to its chunk's end shows zeros past the old size.
  void CheckAll(bool grow = false) {
    for (size_t i = 0; i < sizes_.size(); ++i) {
      if (sizes_[i] == 0) continue;
      HyperionPointer hp = Get(i);
      ASSERT_EQ(mm_->Size(hp), sizes_[i]) << i;
      const auto* bytes = static_cast<const uint8_t*>(mm_->Resolve(hp));
      for (size_t k = 0; k < sizes_[i]; ++k) ASSERT_EQ(bytes[k], Tag(i)) << i;
      if (!grow) continue;
      const size_t chunk = ChunkSize(hp.superbin());
      ASSERT_EQ(mm_->Reallocate(hp, chunk), hp);
      bytes = static_cast<const uint8_t*>(mm_->Resolve(hp));
      for (size_t k = sizes_[i]; k < chunk; ++k) ASSERT_EQ(bytes[k], 0) << i;
      ASSERT_EQ(mm_->Reallocate(hp, sizes_[i]), hp);
    }
  }
  void FreeAll() {
    for (size_t i = 0; i < sizes_.size(); ++i) {
      if (sizes_[i] != 0) Remove(i);
    }
  }
  HyperionPointer Get(size_t i) { return HyperionPointer::Load(Slot(i)); }
  size_t count() const { return sizes_.size(); }
  uint64_t live_bytes() const {
    uint64_t total = 0;
    for (size_t size : sizes_) total += size;
    return total;
  }

 private:
  uint8_t* Slot(size_t i) {
    return table_.data() + i * HyperionPointer::kBytes;
  }
  static uint8_t Tag(size_t i) { return uint8_t(i % 251 + 1); }

  MemoryManager* mm_;
  std::vector<uint8_t> table_;
  std::vector<size_t> sizes_;
};

// Three full bins of `size`-byte allocations, then all but every
// `keep_every`-th freed in bins 1 and 2: bin 0 stays full.
void FillAndThin(Owner& owner, size_t size, size_t keep_every) {
  const size_t first = owner.count();
  for (size_t i = 0; i < 3 * kChunksPerBin; ++i) owner.Add(size);
  for (size_t i = kChunksPerBin; i < 3 * kChunksPerBin; ++i) {
    if (i % keep_every != 0) owner.Remove(first + i);
  }
}

class CompactionBySize : public ::testing::TestWithParam<size_t> {};

TEST_P(CompactionBySize, EmptiesSparseBinsAndKeepsEveryAllocation) {
  const size_t size = GetParam();
  const uint32_t superbin = SuperbinForSize(size);
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, size, 3);
  // Bin 0 is full; bins 1 and 2 hold a third each, so one of them fits
  // into the other's holes.
  const MemoryStats before = mm.Stats();
  ASSERT_EQ(before.superbins[superbin].bins, 3u);
  const uint64_t live = before.superbins[superbin].chunks_in_use;

  const CompactionStats begun = mm.BeginCompaction();
  EXPECT_TRUE(mm.compacting());
  EXPECT_EQ(begun.bins_released, 1u);
  EXPECT_GT(begun.chunks_moved, kChunksPerBin / 4);
  EXPECT_LT(begun.chunks_moved, kChunksPerBin / 2);
  EXPECT_EQ(begun.bytes_moved, begun.chunks_moved * size);
  // Mid-compaction: a moved chunk counts twice until Finish.
  MemoryStats mid = mm.Stats();
  EXPECT_EQ(mid.superbins[superbin].chunks_in_use, live + begun.chunks_moved);
  EXPECT_EQ(mid.superbins[superbin].requested_bytes,
            before.superbins[superbin].requested_bytes + begun.bytes_moved);
  EXPECT_EQ(mid.superbins[superbin].bins, 3u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());

  EXPECT_EQ(owner.ForwardAll(), begun.chunks_moved);
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll());
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());

  const CompactionStats done = mm.FinishCompaction();
  EXPECT_FALSE(mm.compacting());
  EXPECT_EQ(done.chunks_moved, begun.chunks_moved);
  EXPECT_EQ(done.bytes_moved, begun.bytes_moved);
  EXPECT_EQ(done.bins_released, 1u);
  const MemoryStats after = mm.Stats();
  EXPECT_EQ(done.bytes_released,
            before.FootprintBytes() - after.FootprintBytes());
  EXPECT_GE(done.bytes_released, ChunkSize(superbin) * kChunksPerBin);
  EXPECT_EQ(after.superbins[superbin].bins, 2u);
  EXPECT_EQ(after.superbins[superbin].chunks_in_use, live);
  EXPECT_EQ(after.superbins[superbin].requested_bytes, owner.live_bytes());
  EXPECT_EQ(after.cached_segments, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll(/*grow=*/true));
  owner.FreeAll();
  EXPECT_EQ(mm.Stats().Total().mapped_bytes, 0u);
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

// The smallest and largest chunks, a middle one, and sizes shorter than a
// forwarding record.
INSTANTIATE_TEST_SUITE_P(Sizes, CompactionBySize,
                         ::testing::Values(1, 3, 32, 40, 512, 1000, 2016));

TEST(CompactionTest, NothingToCompact) {
  MemoryManager mm;
  EXPECT_EQ(mm.Forward(HyperionPointer()), HyperionPointer());
  CompactionStats stats = mm.BeginCompaction();
  EXPECT_EQ(stats, CompactionStats());
  EXPECT_EQ(mm.FinishCompaction(), CompactionStats());
  // One full bin and one nearly empty: the full one has no room.
  Owner owner(&mm);
  for (size_t i = 0; i < kChunksPerBin + 10; ++i) owner.Add(64);
  const MemoryStats before = mm.Stats();
  EXPECT_EQ(mm.BeginCompaction(), CompactionStats());
  EXPECT_EQ(owner.ForwardAll(), 0u);
  EXPECT_EQ(mm.FinishCompaction(), CompactionStats());
  EXPECT_EQ(mm.Stats(), before);
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll());
  owner.FreeAll();
}

TEST(CompactionTest, PolicyLimitsWhatMoves) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 100, 3);  // superbin 4, bins a third full
  FillAndThin(owner, 200, 3);  // superbin 7
  CompactionPolicy policy;
  policy.max_occupancy = 0.25;  // a third is too full
  EXPECT_EQ(mm.BeginCompaction(policy), CompactionStats());
  mm.FinishCompaction();
  policy = CompactionPolicy();
  policy.min_bins = 2;  // only one bin per superbin can go
  EXPECT_EQ(mm.BeginCompaction(policy), CompactionStats());
  mm.FinishCompaction();
  policy = CompactionPolicy();
  policy.superbins = uint64_t{1} << 7;
  const CompactionStats begun = mm.BeginCompaction(policy);
  EXPECT_EQ(begun.bins_released, 1u);
  owner.ForwardAll();
  mm.FinishCompaction();
  EXPECT_EQ(mm.Stats().superbins[4].bins, 3u);
  EXPECT_EQ(mm.Stats().superbins[7].bins, 2u);
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll(/*grow=*/true));
  owner.FreeAll();
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(CompactionTest, EmptiesEveryBinItCanAndPacksTheRest) {
  MemoryManager mm;
  Owner owner(&mm);
  // Ten bins of 32-byte chunks, each left with a tenth: all fit in one.
  for (size_t i = 0; i < 10 * kChunksPerBin; ++i) owner.Add(32);
  for (size_t i = 0; i < owner.count(); ++i) {
    if (i % 10 != 0) owner.Remove(i);
  }
  const CompactionStats begun = mm.BeginCompaction();
  EXPECT_EQ(begun.bins_released, 9u);
  owner.ForwardAll();
  const CompactionStats done = mm.FinishCompaction();
  EXPECT_EQ(done.bins_released, 9u);
  const SuperbinStats s = mm.Stats().superbins[1];
  EXPECT_EQ(s.bins, 1u);
  EXPECT_EQ(s.chunks_free, kChunksPerBin - s.chunks_in_use);
  // The survivor bin was the densest (ties: the lowest id).
  for (size_t i = 0; i < owner.count(); i += 10) {
    EXPECT_EQ(owner.Get(i).metabin(), 0u);
    EXPECT_EQ(owner.Get(i).bin(), 0u);
  }
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll(/*grow=*/true));
  owner.FreeAll();
}

// The moves fill the densest target first and go on to the next once it
// is full: bin 0 has six holes, bin 1 is half full, bin 2 holds 100
// chunks. Bin 2's chunks, in order, land in bin 0's holes and then in
// bin 1's lowest free chunks.
TEST(CompactionTest, AFullTargetIsLeftForTheNextDensest) {
  MemoryManager mm;
  Owner owner(&mm);
  for (size_t i = 0; i < 3 * kChunksPerBin; ++i) owner.Add(32);
  const std::vector<uint32_t> holes = {7, 100, 1000, 2000, 3000, 4095};
  for (uint32_t chunk : holes) owner.Remove(chunk);
  for (size_t i = kChunksPerBin + 2000; i < 2 * kChunksPerBin; ++i) {
    owner.Remove(i);
  }
  std::vector<size_t> survivors;  // bin 2's, every 40th chunk
  for (size_t i = 2 * kChunksPerBin; i < 3 * kChunksPerBin; ++i) {
    if (i % 40 == 0 && survivors.size() < 100) {
      survivors.push_back(i);
    } else {
      owner.Remove(i);
    }
  }
  ASSERT_EQ(owner.Get(survivors[0]).bin(), 2u);

  const CompactionStats begun = mm.BeginCompaction();
  EXPECT_EQ(begun.bins_released, 1u);
  EXPECT_EQ(begun.chunks_moved, 100u);
  EXPECT_EQ(owner.ForwardAll(), 100u);
  for (size_t j = 0; j < survivors.size(); ++j) {
    const HyperionPointer hp = owner.Get(survivors[j]);
    EXPECT_EQ(hp.metabin(), 0u) << j;
    if (j < holes.size()) {
      EXPECT_EQ(hp.bin(), 0u) << j;
      EXPECT_EQ(hp.chunk(), holes[j]) << j;
    } else {
      EXPECT_EQ(hp.bin(), 1u) << j;
      EXPECT_EQ(hp.chunk(), 2000 + (j - holes.size())) << j;
    }
  }
  mm.FinishCompaction();
  const SuperbinStats s = mm.Stats().superbins[1];
  EXPECT_EQ(s.bins, 2u);
  EXPECT_EQ(s.chunks_in_use, kChunksPerBin + 2000 + 100 - holes.size());
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll(/*grow=*/true));
  owner.FreeAll();
}

TEST(CompactionTest, SuperbinZeroPointersStayPut) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 64, 4);
  std::vector<HyperionPointer> extended;
  for (int i = 0; i < 300; ++i) extended.push_back(mm.Allocate(3000 + i));
  for (int i = 0; i < 300; i += 3) {
    mm.Free(extended[size_t(i)]);
    extended[size_t(i)] = HyperionPointer();
  }
  const uint64_t superbin0_bins = mm.Stats().superbins[0].bins;
  const CompactionStats begun = mm.BeginCompaction();
  EXPECT_EQ(begun.bins_released, 1u);  // superbin 2 only
  for (HyperionPointer hp : extended) EXPECT_EQ(mm.Forward(hp), hp);
  owner.ForwardAll();
  mm.FinishCompaction();
  EXPECT_EQ(mm.Stats().superbins[0].bins, superbin0_bins);
  for (HyperionPointer hp : extended) {
    if (!hp.IsNull()) {
      EXPECT_GE(mm.Size(hp), 3000u);
    }
  }
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
  for (HyperionPointer hp : extended) mm.Free(hp);
  owner.FreeAll();
  EXPECT_EQ(mm.Stats().Total().mapped_bytes, 0u);
}

TEST(CompactionTest, EmptiedSegmentsComeBackZero) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 3, 3);  // 3-byte allocations: forwards reach past them
  CompactionPolicy policy;
  policy.release_cache = false;
  mm.BeginCompaction(policy);
  owner.ForwardAll();
  mm.FinishCompaction();
  EXPECT_EQ(mm.Stats().cached_segments, 1u);
  // Fill every hole and a new bin, which takes the cached segment: every
  // chunk handed out is zero.
  std::vector<HyperionPointer> fresh;
  while (mm.Stats().superbins[1].bins < 3) fresh.push_back(mm.Allocate(32));
  EXPECT_EQ(mm.Stats().cached_segments, 0u);
  for (size_t i = 0; i < kChunksPerBin; ++i) fresh.push_back(mm.Allocate(32));
  for (HyperionPointer hp : fresh) {
    const auto* bytes = static_cast<const uint8_t*>(mm.Resolve(hp));
    for (size_t k = 0; k < 32; ++k) ASSERT_EQ(bytes[k], 0);
  }
  for (HyperionPointer hp : fresh) mm.Free(hp);
  ASSERT_NO_FATAL_FAILURE(owner.CheckAll(/*grow=*/true));
  owner.FreeAll();
  EXPECT_EQ(mm.CheckConsistency(), absl::OkStatus());
}

TEST(CompactionTest, RepeatedCompactionsConverge) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 96, 5);
  mm.BeginCompaction();
  owner.ForwardAll();
  EXPECT_EQ(mm.FinishCompaction().bins_released, 1u);
  // Nothing left to gain: a second compaction moves nothing.
  EXPECT_EQ(mm.BeginCompaction().chunks_moved, 0u);
  EXPECT_EQ(owner.ForwardAll(), 0u);
  EXPECT_EQ(mm.FinishCompaction().bins_released, 0u);
  owner.FreeAll();
}

#ifndef NDEBUG
TEST(CompactionDeathTest, ResolvingAStalePointerAsserts) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 64, 3);
  mm.BeginCompaction();
  // The highest allocation sat in the evacuated bin 2.
  const HyperionPointer stale = owner.Get(owner.count() - 3);
  ASSERT_FALSE(mm.Forward(stale) == stale);
  EXPECT_DEATH(mm.Resolve(stale), "evacuating");
  EXPECT_DEATH(mm.Allocate(64), "compacting");
  owner.ForwardAll();
  mm.FinishCompaction();
  owner.FreeAll();
}
#endif

#if defined(__SANITIZE_ADDRESS__)
TEST(CompactionDeathTest, StaleAddressIsPoisoned) {
  MemoryManager mm;
  Owner owner(&mm);
  FillAndThin(owner, 64, 3);
  const HyperionPointer moved = owner.Get(owner.count() - 3);
  const void* old_address = mm.Resolve(moved);
  mm.BeginCompaction();
  ASSERT_FALSE(mm.Forward(moved) == moved);
  EXPECT_DEATH((void)static_cast<const volatile uint8_t*>(old_address)[0],
               "use-after-poison");
  owner.ForwardAll();
  mm.FinishCompaction();
  owner.FreeAll();
}
#endif

}  // namespace
}  // namespace kvlab::stage5
