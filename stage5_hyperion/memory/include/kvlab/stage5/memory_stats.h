// What the stage-5 memory manager reports about its memory, per superbin:
// enough to draw the Hyperion paper's Figure 14 (chunks in use and empty
// per superbin, and the memory they take) and to split a footprint into
// payload, internal fragmentation, external fragmentation and metadata.

#ifndef KVLAB_STAGE5_MEMORY_STATS_H_
#define KVLAB_STAGE5_MEMORY_STATS_H_

#include <array>
#include <cstdint>

#include "kvlab/stage5/size_classes.h"

namespace kvlab::stage5 {

struct SuperbinStats {
  // Chunks handed out (superbin 0: extended records; the record reserved
  // for the null pointer is not counted).
  uint64_t chunks_in_use = 0;
  // Free chunks inside mapped bins: external fragmentation.
  uint64_t chunks_free = 0;
  // Bytes callers asked for (superbin 0: the heap blocks' requested sizes).
  uint64_t requested_bytes = 0;
  // Bytes held for them: chunks_in_use * chunk size, and for superbin 0 the
  // heap blocks' sizes, requested plus over-allocation. held - requested is
  // the internal fragmentation.
  uint64_t held_bytes = 0;
  // Address space of this superbin's mapped bins (cached ones excluded);
  // pages never touched are not resident.
  uint64_t mapped_bytes = 0;
  // Bin and metabin descriptors and the superbin's metabin table.
  uint64_t metadata_bytes = 0;
  // Superbin 0 only: bytes of heap blocks (requested + over-allocation).
  uint64_t extended_heap_bytes = 0;
  // Pages of free chunks given back to the system since the manager was
  // created (they stay mapped but leave the resident set; a page taken and
  // given back again counts again). The segments of bins a compaction
  // empties go back whole and are not counted.
  uint64_t pages_returned = 0;
  uint64_t bins = 0;      // bins with a mapped segment
  uint64_t metabins = 0;  // metabins with a descriptor

  SuperbinStats& operator+=(const SuperbinStats& other);
  friend bool operator==(const SuperbinStats&, const SuperbinStats&) = default;
};

struct MemoryStats {
  std::array<SuperbinStats, kSuperbins> superbins;
  // Empty segments kept mapped for reuse, and their address space.
  uint64_t cached_segments = 0;
  uint64_t cached_bytes = 0;
  // The manager object itself.
  uint64_t manager_bytes = 0;

  SuperbinStats Total() const;
  // Everything the manager holds: mapped and cached segments, heap blocks,
  // metadata. An upper bound on what it adds to the process's RSS.
  uint64_t FootprintBytes() const;
  friend bool operator==(const MemoryStats&, const MemoryStats&) = default;
};

// What one compaction did (MemoryManager::BeginCompaction and
// FinishCompaction).
struct CompactionStats {
  uint64_t chunks_moved = 0;
  // Requested bytes copied (the moved chunks' sizes).
  uint64_t bytes_moved = 0;
  // Bins emptied by the moves. Begin reports the bins it is evacuating;
  // Finish, the bins it released (the same number).
  uint64_t bins_released = 0;
  // Finish only: MemoryStats::FootprintBytes() before Begin minus after
  // Finish.
  uint64_t bytes_released = 0;
  friend bool operator==(const CompactionStats&,
                         const CompactionStats&) = default;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_MEMORY_STATS_H_
