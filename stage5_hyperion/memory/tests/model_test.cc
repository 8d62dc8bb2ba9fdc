// A randomized model test: a million mixed operations on one manager,
// every result checked against a plain model of what should be live.
//
// After every operation: the touched allocation's old bytes survived, its
// new bytes are zero, and its address range overlaps no other live one.
// Every kCheckEvery operations: every live allocation's bytes, the
// statistics against the model, and the manager's own consistency walk.
// About 40 times at random points, a compaction with a random policy: the
// model rewrites its pointers through Forward, and the statistics in the
// middle and after it, the contents and the non-overlap are checked; moved
// chunks' zero tails are checked when they grow later. At the end
// everything is freed and all memory must be back.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage5/memory_manager.h"
#include "kvlab/testing/test_scale.h"
#include "segment_cache.h"

namespace kvlab::testing {
// This binary links the shared test library for Scaled() only.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);
}  // namespace kvlab::testing

namespace kvlab::stage5 {
namespace {

// The bytes of one block: the first `size` hold `tag`; the manager
// guarantees nothing else, so nothing else is read.
struct Block {
  size_t size = 0;
  uint8_t tag = 0;
};

struct Live {
  HyperionPointer hp;
  Block block;
};

class ModelTest : public ::testing::Test {
 protected:
  static constexpr size_t kCheckEvery = 50000;

  // A size: mostly small ones of every class, some extended ones.
  size_t RandomSize() {
    const uint32_t kind = rng_() % 100;
    if (kind < 30) return 1 + rng_() % 64;  // crowds superbins 1 and 2
    if (kind < 92) return 1 + rng_() % kMaxSmallSize;
    return kMaxSmallSize + 1 + rng_() % 30000;
  }

  uint8_t NextTag() { return uint8_t(1 + rng_() % 255); }

  // Checks `block` at `address`: its first `keep` bytes hold the old tag and
  // the rest up to `size` are zero. Then records the new contents.
  void CheckAndFill(void* address, size_t keep, Block* block, size_t size) {
    auto* bytes = static_cast<uint8_t*>(address);
    ASSERT_EQ(FirstNotEqual(bytes, keep, block->tag), keep) << "old bytes";
    ASSERT_EQ(FirstNotEqual(bytes + keep, size - keep, 0), size - keep)
        << "new bytes after " << keep << " of " << size;
    block->size = size;
    block->tag = NextTag();
    if (size != 0) std::memset(bytes, block->tag, size);
  }

  // The index of the first of `n` bytes that is not `value`, or n. memcmp
  // of the range against itself shifted by one byte keeps it fast at -O0.
  static size_t FirstNotEqual(const uint8_t* bytes, size_t n, uint8_t value) {
    if (n == 0) return 0;
    if (bytes[0] == value && std::memcmp(bytes, bytes + 1, n - 1) == 0) {
      return n;
    }
    size_t i = 0;
    while (bytes[i] == value) ++i;
    return i;
  }

  // The address ranges of live blocks; none may overlap.
  void AddRange(const void* address, size_t size) {
    if (size == 0) return;
    const auto begin = reinterpret_cast<uintptr_t>(address);
    auto next = ranges_.lower_bound(begin);
    if (next != ranges_.end()) {
      ASSERT_LE(begin + size, next->first) << "overlaps the next block";
    }
    if (next != ranges_.begin()) {
      auto prev = std::prev(next);
      ASSERT_LE(prev->first + prev->second, begin) << "overlaps the previous";
    }
    ranges_.emplace(begin, size);
  }
  void RemoveRange(const void* address, size_t size) {
    if (size == 0) return;
    ASSERT_EQ(ranges_.erase(reinterpret_cast<uintptr_t>(address)), 1u);
  }

  // An allocation of `size` bytes, or of a random size for 0.
  void AllocateOne(size_t size = 0) {
    Live live;
    if (size == 0) size = RandomSize();
    live.hp = mm_.Allocate(size);
    ASSERT_EQ(live.hp.superbin(), SuperbinForSize(size));
    ASSERT_NO_FATAL_FAILURE(
        CheckAndFill(mm_.Resolve(live.hp), 0, &live.block, size));
    ASSERT_NO_FATAL_FAILURE(AddRange(mm_.Resolve(live.hp), size));
    lives_.push_back(live);
  }

  size_t NewSize(size_t old_size) {
    switch (rng_() % 4) {
      case 0:
        return old_size > 32 ? old_size - 32 : old_size + 32;
      case 3:
        return RandomSize();
      default:  // the trie's pattern: grow by 32 bytes
        return old_size + 32;
    }
  }

  void ReallocateOne(Live& live) {
    const size_t size = NewSize(live.block.size);
    ASSERT_NO_FATAL_FAILURE(RemoveRange(mm_.Resolve(live.hp), live.block.size));
    const HyperionPointer moved = mm_.Reallocate(live.hp, size);
    if (SuperbinForSize(size) == live.hp.superbin()) {
      ASSERT_EQ(moved, live.hp) << "a resize within a class moved";
    }
    live.hp = moved;
    ASSERT_EQ(mm_.Size(live.hp), size);
    ASSERT_NO_FATAL_FAILURE(CheckAndFill(mm_.Resolve(live.hp),
                                         std::min(live.block.size, size),
                                         &live.block, size));
    ASSERT_NO_FATAL_FAILURE(AddRange(mm_.Resolve(live.hp), size));
  }

  void FreeAt(size_t index) {
    Live& live = lives_[index];
    ASSERT_NO_FATAL_FAILURE(RemoveRange(mm_.Resolve(live.hp), live.block.size));
    mm_.Free(live.hp);
    lives_[index] = lives_.back();
    lives_.pop_back();
  }

  void CheckBlock(const void* address, const Block& block) {
    ASSERT_EQ(FirstNotEqual(static_cast<const uint8_t*>(address), block.size,
                            block.tag),
              block.size);
  }

  // Everything live, and the statistics the model predicts exactly.
  void CheckAll() {
    std::array<SuperbinStats, kSuperbins> expected = {};
    for (const Live& live : lives_) {
      ASSERT_NO_FATAL_FAILURE(CheckBlock(mm_.Resolve(live.hp), live.block));
      const uint32_t superbin = SuperbinForSize(live.block.size);
      ASSERT_EQ(live.hp.superbin(), superbin);
      SuperbinStats& s = expected[superbin];
      s.chunks_in_use += 1;
      s.requested_bytes += live.block.size;
      s.held_bytes += superbin == 0 ? ExtendedHeldSize(live.block.size)
                                    : ChunkSize(superbin);
    }
    const MemoryStats stats = mm_.Stats();
    for (uint32_t i = 0; i < kSuperbins; ++i) {
      const SuperbinStats& s = stats.superbins[i];
      ASSERT_EQ(s.chunks_in_use, expected[i].chunks_in_use) << "superbin " << i;
      ASSERT_EQ(s.requested_bytes, expected[i].requested_bytes) << i;
      ASSERT_EQ(s.held_bytes, expected[i].held_bytes) << i;
      ASSERT_EQ(s.extended_heap_bytes, i == 0 ? expected[0].held_bytes : 0);
      ASSERT_EQ(s.mapped_bytes, s.bins * ChunkSize(i) * kChunksPerBin);
      // Every chunk of a mapped bin is in use or free, except the one
      // superbin 0 reserves for the null pointer.
      const uint64_t accounted = s.chunks_free + s.chunks_in_use;
      ASSERT_LE(accounted, s.bins * kChunksPerBin);
      ASSERT_LE(s.bins * kChunksPerBin - accounted, i == 0 ? 1u : 0u);
      // Figure 14's books balance: held chunks plus free chunks fill the
      // mapped bins.
      if (i != 0) {
        ASSERT_EQ((s.chunks_in_use + s.chunks_free) * ChunkSize(i),
                  s.mapped_bytes);
      }
    }
    ASSERT_EQ(mm_.CheckConsistency(), absl::OkStatus());
    ASSERT_LE(stats.cached_segments, SegmentCache::kCapacity);
  }

  // Many allocations of one small class, most of them freed again at
  // random: the class's bins are left sparse, as after mmbench's phases,
  // so that a compaction has bins to empty.
  void Burst() {
    const size_t chunk = kSizeStep * (1 + rng_() % 8);
    const size_t count = size_t(kvlab::testing::Scaled(12'000, 9'000));
    const size_t first = lives_.size();
    for (size_t i = 0; i < count; ++i) {
      ASSERT_NO_FATAL_FAILURE(AllocateOne(chunk - rng_() % kSizeStep));
    }
    for (size_t i = lives_.size(); i-- > first;) {
      if (rng_() % 100 < 85) {
        ASSERT_NO_FATAL_FAILURE(FreeAt(i));
      }
    }
  }

  // Compacts with a random policy and forwards every model pointer.
  void CompactOnce() {
    const MemoryStats before = mm_.Stats();
    CompactionPolicy policy;
    policy.max_occupancy = std::array{0.3, 0.9, 1.0}[rng_() % 3];
    policy.min_bins = uint32_t(1 + rng_() % 2);
    policy.release_cache = rng_() % 2 == 0;
    if (rng_() % 4 == 0) policy.superbins = rng_();
    const CompactionStats begun = mm_.BeginCompaction(policy);
    // Until Finish, each moved chunk is counted at both places.
    const SuperbinStats mid = mm_.Stats().Total();
    const SuperbinStats old = before.Total();
    ASSERT_EQ(mid.chunks_in_use, old.chunks_in_use + begun.chunks_moved);
    ASSERT_EQ(mid.requested_bytes, old.requested_bytes + begun.bytes_moved);
    ASSERT_EQ(mid.bins, old.bins);
    ASSERT_EQ(mm_.CheckConsistency(), absl::OkStatus());
    uint64_t forwarded = 0, forwarded_bytes = 0;
    for (Live& live : lives_) {
      const HyperionPointer to = mm_.Forward(live.hp);
      if (to == live.hp) continue;
      ASSERT_EQ(to.superbin(), live.hp.superbin());
      live.hp = to;
      ++forwarded;
      forwarded_bytes += live.block.size;
    }
    ASSERT_EQ(forwarded, begun.chunks_moved);
    ASSERT_EQ(forwarded_bytes, begun.bytes_moved);
    // Every address may have changed: rebuild the ranges, which checks
    // that no two live blocks overlap.
    ranges_.clear();
    for (const Live& live : lives_) {
      ASSERT_EQ(mm_.Size(live.hp), live.block.size);
      ASSERT_NO_FATAL_FAILURE(AddRange(mm_.Resolve(live.hp), live.block.size));
    }
    const CompactionStats done = mm_.FinishCompaction();
    ASSERT_EQ(done.chunks_moved, begun.chunks_moved);
    ASSERT_EQ(done.bins_released, begun.bins_released);
    const MemoryStats after = mm_.Stats();
    ASSERT_EQ(before.Total().bins - after.Total().bins, done.bins_released);
    ASSERT_EQ(done.bytes_released,
              before.FootprintBytes() - after.FootprintBytes());
    if (policy.release_cache) {
      ASSERT_EQ(after.cached_segments, 0u);
    }
    ASSERT_NO_FATAL_FAILURE(CheckAll());
    chunks_moved_ += done.chunks_moved;
    bins_released_ += done.bins_released;
  }

  uint64_t chunks_moved_ = 0;
  uint64_t bins_released_ = 0;
  std::mt19937_64 rng_{20240517};
  MemoryManager mm_;
  std::vector<Live> lives_;
  std::map<uintptr_t, size_t> ranges_;
};

TEST_F(ModelTest, MillionMixedOperations) {
  const uint64_t operations = kvlab::testing::Scaled(1'000'000, 20'000);
  // The live population swings between a few and kHigh, so bins fill,
  // empty and are unmapped again and again.
  const size_t high = size_t(kvlab::testing::Scaled(30'000, 3'000));
  const uint64_t compact_every =
      std::max<uint64_t>(1, operations / kvlab::testing::Scaled(40, 10));
  bool growing = true;
  for (uint64_t op = 0; op < operations; ++op) {
    if (lives_.size() >= high) growing = false;
    if (lives_.size() <= high / 100) growing = true;
    const uint32_t dice = rng_() % 100;
    if (lives_.empty() || dice < (growing ? 35u : 10u)) {
      ASSERT_NO_FATAL_FAILURE(AllocateOne()) << "op " << op;
    } else if (dice < 65) {
      ASSERT_NO_FATAL_FAILURE(ReallocateOne(lives_[rng_() % lives_.size()]))
          << "op " << op;
    } else {
      ASSERT_NO_FATAL_FAILURE(FreeAt(rng_() % lives_.size())) << "op " << op;
    }
    if ((op + 1) % kCheckEvery == 0) {
      ASSERT_NO_FATAL_FAILURE(CheckAll()) << "op " << op;
    }
    if (rng_() % compact_every == 0) {
      if (rng_() % 2 == 0) {
        ASSERT_NO_FATAL_FAILURE(Burst()) << "op " << op;
      }
      ASSERT_NO_FATAL_FAILURE(CompactOnce()) << "op " << op;
    }
  }
  // The run must have exercised compaction.
  EXPECT_GT(chunks_moved_, 0u);
  EXPECT_GT(bins_released_, 0u);
  ASSERT_NO_FATAL_FAILURE(CheckAll());
  while (!lives_.empty()) ASSERT_NO_FATAL_FAILURE(FreeAt(lives_.size() - 1));
  ASSERT_NO_FATAL_FAILURE(CheckAll());
  const MemoryStats stats = mm_.Stats();
  const SuperbinStats total = stats.Total();
  EXPECT_EQ(total.chunks_in_use, 0u);
  EXPECT_EQ(total.requested_bytes, 0u);
  EXPECT_EQ(total.extended_heap_bytes, 0u);
  EXPECT_EQ(total.mapped_bytes, 0u);
  EXPECT_EQ(total.metadata_bytes, 0u);
  EXPECT_EQ(total.bins, 0u);
  EXPECT_EQ(total.metabins, 0u);
  EXPECT_LE(stats.cached_segments, SegmentCache::kCapacity);
  EXPECT_EQ(stats.FootprintBytes(), stats.cached_bytes + stats.manager_bytes);
  EXPECT_TRUE(ranges_.empty());
}

}  // namespace
}  // namespace kvlab::stage5
