// Compaction: moving live chunks out of sparse bins so that the bins can be
// unmapped (memory_manager.h; docs/stage5_hyperion_memory.md,
// "Compaction"). A copying collector's forwarding scheme without a
// forwarding table: the moved chunk's old place holds its new pointer until
// the owner has forwarded every pointer it stores.

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>
#include <tuple>
#include <vector>

#include "bitmap.h"
#include "forwarding_record.h"
#include "kvlab/stage5/memory_manager.h"
#include "poison.h"
#include "segment_cache.h"
#include "superbin.h"

namespace kvlab::stage5 {

size_t Superbin::PlanEvacuation(double max_occupancy, uint32_t min_bins) {
  // handout: Superbin::PlanEvacuation -> #compaction
  assert(evacuating_.empty() && id_ != 0);
  struct Candidate {
    uint32_t used;
    BinRef ref;
  };
  std::vector<Candidate> candidates;
  uint64_t free_chunks = 0;
  for (uint32_t metabin_id = 0; metabin_id < metabins_.size(); ++metabin_id) {
    const Metabin* metabin = metabins_[metabin_id];
    if (metabin == nullptr) continue;
    for (uint32_t bin_id = 0; bin_id < kBinsPerMetabin; ++bin_id) {
      const Bin* bin = BinAt(metabin_id, bin_id);
      if (bin == nullptr) continue;
      candidates.push_back({bin->used, {metabin_id, bin_id}});
      free_chunks += kChunksPerBin - bin->used;
    }
  }
  // Emptying k bins needs their live chunks to fit into the free chunks of
  // the rest, which holds exactly when k * kChunksPerBin <= free_chunks,
  // whichever k bins they are; the sparsest k cost the fewest moves.
  const uint64_t releasable = free_chunks / kChunksPerBin;
  if (releasable == 0 || releasable < min_bins) return 0;
  // Sparsest first; among equals the highest ids, so that live chunks
  // gather at the low ids where Allocate looks first.
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) {
              return std::tie(a.used, b.ref.metabin_id, b.ref.bin_id) <
                     std::tie(b.used, a.ref.metabin_id, a.ref.bin_id);
            });
  const double limit = max_occupancy * double(kChunksPerBin);
  size_t count = 0;
  while (count < releasable && count < candidates.size() &&
         double(candidates[count].used) <= limit) {
    ++count;
  }
  if (count == 0 || count < min_bins) return 0;
  // The lists' room and the targets' slack arrays first: if they cannot be
  // had, no bin is marked yet.
  evacuating_.reserve(count);
  targets_.reserve(candidates.size() - count);
  for (size_t i = candidates.size(); i-- > count;) {
    if (candidates[i].used < kChunksPerBin)
      targets_.push_back(candidates[i].ref);
  }
  try {
    GrowTargetsSlack();
  } catch (const std::bad_alloc&) {
    targets_.clear();
    throw;
  }
  for (size_t i = 0; i < count; ++i) {
    const BinRef ref = candidates[i].ref;
    BinAt(ref.metabin_id, ref.bin_id)->evacuating = 1;
    evacuating_.push_back(ref);
  }
  next_target_ = 0;
  return count;
  // handout: end
}

void Superbin::GrowTargetsSlack() {
  // Every new array first, then the swaps, which cannot fail.
  std::vector<std::unique_ptr<uint8_t[]>> grown;
  grown.reserve(targets_.size());
  for (const BinRef& ref : targets_) {
    const Bin* bin = BinAt(ref.metabin_id, ref.bin_id);
    grown.emplace_back(bin->slack_capacity == kChunksPerBin
                           ? nullptr
                           : new uint8_t[kChunksPerBin]);
  }
  for (size_t i = 0; i < targets_.size(); ++i) {
    if (grown[i] == nullptr) continue;
    Bin* bin = BinAt(targets_[i].metabin_id, targets_[i].bin_id);
    std::memcpy(grown[i].get(), bin->slack, bin->slack_capacity);
    delete[] bin->slack;
    bin->slack = grown[i].release();
    slack_bytes_ += kChunksPerBin - bin->slack_capacity;
    bin->slack_capacity = uint16_t(kChunksPerBin);
  }
}

ChunkLocation Superbin::TakeForMove() {
  // handout: Superbin::TakeForMove -> #compaction
  for (;; ++next_target_) {
    assert(next_target_ < targets_.size());
    const BinRef ref = targets_[next_target_];
    Bin* bin = BinAt(ref.metabin_id, ref.bin_id);
    if (bin->used == kChunksPerBin) continue;
    const size_t chunk =
        FindFirstSet(bin->free_map, Bin::kWords, bin->first_free_word);
    bin->first_free_word = uint16_t(chunk / 64);
    return Take(ref.metabin_id, ref.bin_id, bin, chunk);
  }
  // handout: end
}

void Superbin::CancelEvacuation() {
  for (const BinRef& ref : evacuating_) {
    BinAt(ref.metabin_id, ref.bin_id)->evacuating = 0;
  }
  evacuating_.clear();
  EndMoves();
}

void Superbin::EndMoves() {
  targets_.clear();
  targets_.shrink_to_fit();
  next_target_ = 0;
}

void Superbin::ForEachEvacuating(
    absl::FunctionRef<void(const ChunkLocation&)> fn) const {
  for (const BinRef& ref : evacuating_) {
    Bin* bin = BinAt(ref.metabin_id, ref.bin_id);
    for (size_t w = 0; w < Bin::kWords; ++w) {
      for (uint64_t used = ~bin->free_map[w]; used != 0; used &= used - 1) {
        const uint32_t chunk = uint32_t(w * 64 + __builtin_ctzll(used));
        fn(ChunkLocation{
            HyperionPointer::Make(id_, ref.metabin_id, ref.bin_id, chunk),
            bin->segment + chunk * chunk_size_, bin});
      }
    }
  }
}

void Superbin::ReleaseEvacuated(
    absl::FunctionRef<void(const ChunkLocation&)> fn) {
  for (const BinRef& ref : evacuating_) {
    Bin* bin = BinAt(ref.metabin_id, ref.bin_id);
    // The last Free releases the bin, so count instead of scanning on.
    size_t left = bin->used;
    for (size_t w = 0; left != 0; ++w) {
      for (uint64_t used = ~bin->free_map[w]; used != 0 && left != 0;
           used &= used - 1) {
        const uint32_t chunk = uint32_t(w * 64 + __builtin_ctzll(used));
        const HyperionPointer hp =
            HyperionPointer::Make(id_, ref.metabin_id, ref.bin_id, chunk);
        fn(ChunkLocation{hp, bin->segment + chunk * chunk_size_, bin});
        --left;
        Free(hp);
      }
    }
  }
  evacuating_.clear();
  evacuating_.shrink_to_fit();
}

const Bin* Superbin::BinOf(HyperionPointer hp) const {
  assert(InUse(hp));
  return BinAt(hp.metabin(), hp.bin());
}

CompactionStats MemoryManager::BeginCompaction(const CompactionPolicy& policy) {
  assert(!compacting_);
  // Every superbin's plan before the first move: planning may run out of
  // memory, moving never does, so a failure leaves nothing moved.
  std::array<size_t, kSuperbins> planned = {};
  try {
    for (uint32_t i = 1; i < kSuperbins; ++i) {
      if (((policy.superbins >> i) & 1) == 0) continue;
      planned[i] = (*superbins_)[i].PlanEvacuation(policy.max_occupancy,
                                                   policy.min_bins);
    }
  } catch (const std::bad_alloc&) {
    for (Superbin& superbin : *superbins_) {
      if (superbin.evacuating_bins() != 0) superbin.CancelEvacuation();
    }
    throw;
  }
  compacting_ = true;
  release_cache_ = policy.release_cache;
  footprint_before_ = Stats().FootprintBytes();
  compaction_ = CompactionStats();
  for (uint32_t i = 1; i < kSuperbins; ++i) {
    const size_t bins = planned[i];
    if (bins == 0) continue;
    Superbin& superbin = (*superbins_)[i];
    compaction_.bins_released += bins;
    const size_t chunk_size = superbin.chunk_size();
    superbin.ForEachEvacuating([&](const ChunkLocation& from) {
      const uint8_t slack = from.bin->slack[from.hp.chunk()];
      const size_t size = chunk_size - slack;
      const ChunkLocation to = superbin.TakeForMove();
      // The target is free, hence zero and poisoned; its tail stays so.
      UnpoisonRegion(to.address, size);
      std::memcpy(to.address, from.address, size);
      to.bin->slack[to.hp.chunk()] = slack;
      // The old chunk keeps its size and bytes until Finish clears it.
      StoreForward(from.address, to.hp);
      PoisonRegion(from.address, chunk_size);
      requested_bytes_[i] += size;
      ++compaction_.chunks_moved;
      compaction_.bytes_moved += size;
    });
    superbin.EndMoves();
  }
  evacuating_bins_ = compaction_.bins_released;
  return compaction_;
}

HyperionPointer MemoryManager::Forward(HyperionPointer hp) const {
  // handout: MemoryManager::Forward -> #compaction
  // Null and superbin 0 pointers have superbin 0.
  if (evacuating_bins_ == 0 || hp.superbin() == 0) return hp;
  const Superbin& superbin = (*superbins_)[hp.superbin()];
  const Bin* bin = superbin.BinOf(hp);
  if (bin->evacuating == 0) return hp;
  return LoadForward(bin->segment + hp.chunk() * superbin.chunk_size());
  // handout: end
}

CompactionStats MemoryManager::FinishCompaction() {
  assert(compacting_);
  for (uint32_t i = 1; i < kSuperbins; ++i) {
    Superbin& superbin = (*superbins_)[i];
    if (superbin.evacuating_bins() == 0) continue;
    const size_t chunk_size = superbin.chunk_size();
    superbin.ReleaseEvacuated([&](const ChunkLocation& chunk) {
      const size_t size = chunk_size - chunk.bin->slack[chunk.hp.chunk()];
      // As FreeSmall, and the forwarding record may reach past `size`.
      const size_t dirty = std::max(size, HyperionPointer::kBytes);
      UnpoisonRegion(chunk.address, dirty);
      std::memset(chunk.address, 0, dirty);
      PoisonRegion(chunk.address, chunk_size);
      requested_bytes_[i] -= size;
    });
  }
  if (release_cache_) cache_->Clear();
  evacuating_bins_ = 0;
  compacting_ = false;
  const uint64_t footprint_after = Stats().FootprintBytes();
  assert(footprint_after <= footprint_before_);
  compaction_.bytes_released = footprint_before_ - footprint_after;
  return compaction_;
}

}  // namespace kvlab::stage5
