// Allocation in superbins 1..63 and what all superbins share; superbin 0's
// extended records are in extended_bins.cc.

#include "kvlab/stage5/memory_manager.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "extended_record.h"
#include "forwarding_record.h"
#include "poison.h"
#include "segment_cache.h"
#include "superbin.h"

namespace kvlab::stage5 {

MemoryManager::MemoryManager(FreePagePolicy free_pages)
    : cache_(std::make_unique<SegmentCache>()),
      superbins_(std::make_unique<std::array<Superbin, kSuperbins>>()) {
  for (uint32_t i = 0; i < kSuperbins; ++i) {
    (*superbins_)[i].Init(i, cache_.get(), free_pages);
  }
}

MemoryManager::~MemoryManager() {
  // Heap blocks are the only memory the superbins do not own themselves.
  (*superbins_)[0].ForEachInUse([](const ChunkLocation& chunk) {
    auto* record = reinterpret_cast<ExtendedRecord*>(chunk.address);
    if (record->block != nullptr) {
      UnpoisonRegion(record->block, record->held());
      std::free(record->block);
    }
  });
}

HyperionPointer MemoryManager::Allocate(size_t size, Fit fit) {
  return AllocateWith(size, {}, fit);
}

HyperionPointer MemoryManager::AllocateWith(
    size_t size, std::initializer_list<std::string_view> parts, Fit fit) {
  // handout: MemoryManager::AllocateWith -> #sizes-zeroing-and-reallocation
  assert(!compacting_);  // would allocate in a bin being emptied
  if (size == 0) return HyperionPointer();
  assert(size <= kMaxAllocation);
  const uint32_t superbin = SuperbinForSize(size);
  if (superbin == 0) return AllocateExtended(size, fit, parts);
  const ChunkLocation chunk = (*superbins_)[superbin].Allocate();
  // Free chunks are kept zeroed, so the new chunk is zero already.
  UnpoisonRegion(chunk.address, size);
  CopyParts(chunk.address, parts);
  chunk.bin->slack[chunk.hp.chunk()] = uint8_t(ChunkSize(superbin) - size);
  requested_bytes_[superbin] += size;
  return chunk.hp;
  // handout: end
}

size_t MemoryManager::CopyParts(char* to,
                                std::initializer_list<std::string_view> parts) {
  size_t copied = 0;
  for (const std::string_view part : parts) {
    std::memcpy(to + copied, part.data(), part.size());
    copied += part.size();
  }
  return copied;
}

HyperionPointer MemoryManager::Reallocate(HyperionPointer hp, size_t new_size) {
  // handout: MemoryManager::Reallocate -> #sizes-zeroing-and-reallocation
  assert(!compacting_);
  if (hp.IsNull()) return Allocate(new_size);
  if (new_size == 0) {
    Free(hp);
    return HyperionPointer();
  }
  assert(new_size <= kMaxAllocation);
  const uint32_t superbin = hp.superbin();
  if (superbin == SuperbinForSize(new_size)) {
    if (superbin == 0) {
      ResizeBlock(Record(hp), new_size);
    } else {
      ResizeSmallInPlace(hp, new_size);
    }
    return hp;
  }
  const size_t old_size = Size(hp);
  const HyperionPointer moved = Allocate(new_size);
  std::memcpy(Resolve(moved), Resolve(hp), std::min(old_size, new_size));
  Free(hp);
  return moved;
  // handout: end
}

bool MemoryManager::ResizesInPlace(HyperionPointer hp, size_t new_size) const {
  if (hp.IsNull() || new_size == 0) return false;
  if (hp.superbin() != SuperbinForSize(new_size)) return false;
  if (hp.superbin() != 0) return true;
  const uint64_t held = Record(hp)->held();
  return HeldSizeAfterResize(held, new_size) == held;
}

void MemoryManager::ResizeSmallInPlace(HyperionPointer hp, size_t new_size) {
  const ChunkLocation chunk = (*superbins_)[hp.superbin()].Locate(hp);
  const size_t chunk_size = ChunkSize(hp.superbin());
  uint8_t& slack = chunk.bin->slack[hp.chunk()];
  const size_t old_size = chunk_size - slack;
  if (new_size < old_size) {
    // Cleared now so that a later regrow finds zeros.
    std::memset(chunk.address + new_size, 0, old_size - new_size);
    PoisonRegion(chunk.address + new_size, chunk_size - new_size);
  } else {
    UnpoisonRegion(chunk.address, new_size);
  }
  slack = uint8_t(chunk_size - new_size);
  requested_bytes_[hp.superbin()] += new_size;
  requested_bytes_[hp.superbin()] -= old_size;
}

void MemoryManager::Free(HyperionPointer hp) {
  assert(!compacting_);
  if (hp.IsNull()) return;
  if (hp.superbin() == 0) {
    FreeExtended(hp);
  } else {
    FreeSmall(hp);
  }
}

void MemoryManager::FreeSmall(HyperionPointer hp) {
  // handout: MemoryManager::FreeSmall -> #sizes-zeroing-and-reallocation
  Superbin& superbin = (*superbins_)[hp.superbin()];
  const ChunkLocation chunk = superbin.Locate(hp);
  const size_t size = superbin.chunk_size() - chunk.bin->slack[hp.chunk()];
  // Zero on free, not on allocate: the bytes are likely still in cache, a
  // fresh segment needs no clearing, and an emptied segment is all zero
  // when the cache hands it to a new bin.
  std::memset(chunk.address, 0, size);
  PoisonRegion(chunk.address, superbin.chunk_size());
  requested_bytes_[hp.superbin()] -= size;
  superbin.Free(hp);
  // handout: end
}

void* MemoryManager::Resolve(HyperionPointer hp) const {
  // handout: MemoryManager::Resolve -> #hyperion-pointers
  if (hp.IsNull()) return nullptr;
  if (hp.superbin() == 0) {
    const ExtendedRecord* record = Record(hp);
    assert(record->flags == ExtendedRecord::kInUse);
    return record->block;
  }
  return (*superbins_)[hp.superbin()].Address(hp);
  // handout: end
}

MemoryManager::Span MemoryManager::ResolveSpan(HyperionPointer hp) const {
  if (hp.IsNull()) return {};
  if (hp.superbin() == 0) {
    const ExtendedRecord* record = Record(hp);
    assert(record->flags == ExtendedRecord::kInUse);
    return {record->block, record->requested};
  }
  return {(*superbins_)[hp.superbin()].Address(hp), ChunkSize(hp.superbin())};
}

size_t MemoryManager::Size(HyperionPointer hp) const {
  // handout: MemoryManager::Size -> #sizes-zeroing-and-reallocation
  if (hp.IsNull()) return 0;
  if (hp.superbin() == 0) {
    const ExtendedRecord* record = Record(hp);
    assert(record->flags == ExtendedRecord::kInUse);
    return record->requested;
  }
  const ChunkLocation chunk = (*superbins_)[hp.superbin()].Locate(hp);
  return ChunkSize(hp.superbin()) - chunk.bin->slack[hp.chunk()];
  // handout: end
}

MemoryStats MemoryManager::Stats() const {
  MemoryStats stats;
  for (uint32_t i = 0; i < kSuperbins; ++i) {
    const Superbin& superbin = (*superbins_)[i];
    SuperbinStats& s = stats.superbins[i];
    s.chunks_in_use = superbin.chunks_in_use();
    s.chunks_free = superbin.bins() * kChunksPerBin - s.chunks_in_use -
                    superbin.reserved_chunks();
    s.requested_bytes = requested_bytes_[i];
    s.held_bytes =
        i == 0 ? extended_heap_bytes_ : s.chunks_in_use * superbin.chunk_size();
    s.mapped_bytes = superbin.bins() * superbin.segment_size();
    s.metadata_bytes = superbin.metadata_bytes();
    s.extended_heap_bytes = i == 0 ? extended_heap_bytes_ : 0;
    s.pages_returned = superbin.pages_returned();
    s.bins = superbin.bins();
    s.metabins = superbin.metabins();
  }
  stats.cached_segments = cache_->cached_segments();
  stats.cached_bytes = cache_->cached_bytes();
  stats.manager_bytes = sizeof(MemoryManager) + sizeof(SegmentCache) +
                        sizeof(std::array<Superbin, kSuperbins>);
  return stats;
}

uint64_t MemoryManager::HeldPageBytes() const {
  uint64_t pages = 0;
  for (const Superbin& superbin : *superbins_) pages += superbin.held_pages();
  return pages * PageSize();
}

absl::Status MemoryManager::CheckConsistency() const {
  std::array<uint64_t, kSuperbins> requested = {};
  uint64_t heap_bytes = 0;
  for (uint32_t i = 0; i < kSuperbins; ++i) {
    const Superbin& superbin = (*superbins_)[i];
    if (absl::Status s = superbin.Check(); !s.ok()) return s;
    const char* error = i == 0
                            ? CheckExtendedRecords(&requested[0], &heap_bytes)
                            : CheckChunks(superbin, &requested[i]);
    if (error != nullptr) {
      return absl::InternalError(absl::StrCat("superbin ", i, ": ", error));
    }
  }
  if (requested != requested_bytes_) {
    return absl::InternalError("requested byte counters disagree");
  }
  if (heap_bytes != extended_heap_bytes_) {
    return absl::InternalError("extended heap bytes disagree");
  }
  uint64_t evacuating = 0;
  for (const Superbin& superbin : *superbins_) {
    evacuating += superbin.evacuating_bins();
  }
  if (evacuating != evacuating_bins_ || (evacuating != 0 && !compacting_)) {
    return absl::InternalError(
        "evacuating bins outside a compaction or miscounted");
  }
  return absl::OkStatus();
}

const char* MemoryManager::CheckChunks(const Superbin& superbin,
                                       uint64_t* requested) const {
  const char* error = nullptr;
  superbin.ForEachInUse([&](const ChunkLocation& chunk) {
    const uint8_t slack = chunk.bin->slack[chunk.hp.chunk()];
    if (slack >= kSizeStep) error = "slack beyond a 32-byte step";
    *requested += superbin.chunk_size() - slack;
    if (chunk.bin->evacuating != 0) {
      // A moved chunk: its forward names a live chunk of the same size in a
      // bin that stays.
      const HyperionPointer to = LoadForward(chunk.address);
      if (!superbin.InUse(to) || superbin.BinOf(to)->evacuating != 0 ||
          superbin.BinOf(to)->slack[to.chunk()] != slack) {
        error = "forwarding record names a wrong chunk";
      }
    }
  });
  return error;
}

const char* MemoryManager::CheckExtendedRecords(uint64_t* requested,
                                                uint64_t* heap_bytes) const {
  const char* error = nullptr;
  (*superbins_)[0].ForEachInUse([&](const ChunkLocation& chunk) {
    const auto* record = reinterpret_cast<const ExtendedRecord*>(chunk.address);
    const bool has_block = record->block != nullptr;
    if (has_block != (record->requested != 0) ||
        (has_block && (record->held() < ExactHeldSize(record->requested) ||
                       record->held() > ExtendedHeldSize(record->requested))) ||
        (!has_block && record->overallocation != 0)) {
      error = "extended record with a wrong size or block";
    }
    *requested += record->requested;
    *heap_bytes += record->held();
  });
  return error;
}

SuperbinStats& SuperbinStats::operator+=(const SuperbinStats& other) {
  chunks_in_use += other.chunks_in_use;
  chunks_free += other.chunks_free;
  requested_bytes += other.requested_bytes;
  held_bytes += other.held_bytes;
  mapped_bytes += other.mapped_bytes;
  metadata_bytes += other.metadata_bytes;
  extended_heap_bytes += other.extended_heap_bytes;
  pages_returned += other.pages_returned;
  bins += other.bins;
  metabins += other.metabins;
  return *this;
}

SuperbinStats MemoryStats::Total() const {
  SuperbinStats total;
  for (const SuperbinStats& s : superbins) total += s;
  return total;
}

uint64_t MemoryStats::FootprintBytes() const {
  const SuperbinStats total = Total();
  return total.mapped_bytes + total.metadata_bytes + total.extended_heap_bytes +
         cached_bytes + manager_bytes;
}

}  // namespace kvlab::stage5
