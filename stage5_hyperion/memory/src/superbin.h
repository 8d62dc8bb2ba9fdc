// One superbin of the memory manager: every chunk of one size, organised as
// metabins of bins of chunks (Hyperion paper, section 3.2 and Figure 9).
//
//   Superbin   up to 2^14 metabins, a table of pointers to them, and a
//              sorted list of up to 16 ids of metabins that are not full
//   Metabin    256 bins, a 256-bit map of bins that are not full (a bin not
//              yet created counts as not full); the bins' descriptors are
//              in one table per superbin
//   Bin        one mmap'd segment of 4,096 chunks and a 4,096-bit free map
//
// Allocation takes the lowest metabin of the list, the lowest not-full bin
// of its map and the lowest free chunk of that bin's map: three short word
// scans (bitmap.h). Preferring low ids packs live chunks into few bins, so
// that the others empty out and can be returned.
//
// Invariants:
//   - A bin exists (descriptor and segment) iff it holds a chunk in use; a
//     metabin exists iff it holds a bin. Empty ones are released at once,
//     their segments handed to the SegmentCache.
//   - Metabin::not_full bit b is set iff bin b is absent or has a free chunk.
//   - The list holds, sorted, distinct ids of existing metabins that are not
//     full; not-full metabins may be missing from it when it overflows.
//   - Bin::used counts chunks whose free-map bit is clear, the reserved one
//     included; no free bit lies below word first_free_word.
//   - In superbins 1..63 every chunk in use lies below its bin's
//     slack_capacity, and slack_bytes_ is the sum of the capacities.
//   - Every page of a bin's segment that lies wholly inside free chunks has
//     been returned to the system (ReturnPages), except the pages of the
//     bin's lowest free chunk: the next allocation in the bin takes that
//     chunk, and keeping its page spares a chunk that is freed and taken
//     again in turn a page fault each time. Bin::kept_chunk names the chunk
//     whose pages were spared, so that they are looked at again once a
//     lower chunk is the lowest free one. A bin a compaction empties
//     returns its pages at once when it is released, not chunk by chunk.
//     (Residency is the kernel's to report: tests/page_return_test.cc
//     checks this one with mincore; Check() checks the others.)
//   - With FreePagePolicy::kKeepLastPerSuperbin, one more wholly free page
//     may stay resident: the idle page, the lowest page that the latest
//     ReturnFreePages found wholly free outside its kept chunk. The next
//     such page sends it back. The idle page lies in an existing bin and,
//     while wholly free, outside the pages of that bin's kept chunk; its
//     chunks may have been taken since (it then counts as any page in
//     use). A bin released hands it to the segment cache with its segment
//     (the superbin's next bin takes both), unless a compaction emptied
//     the bin; the cache unmapping that segment ends it.
//   - Superbin 0, metabin 0, bin 0, chunk 0 is reserved (never handed out):
//     its pointer is the all-zero null pointer.
//   - During a compaction (compaction.cc), exactly the bins listed in
//     evacuating_ have Bin::evacuating set; every chunk in use in them holds
//     a forwarding record, and nothing is allocated in them.
//
// Chunk contents are the manager's business; this class only hands out and
// takes back positions. Not thread-safe.

#ifndef KVLAB_STAGE5_SRC_SUPERBIN_H_
#define KVLAB_STAGE5_SRC_SUPERBIN_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "kvlab/stage5/free_page_policy.h"
#include "kvlab/stage5/hyperion_pointer.h"
#include "kvlab/stage5/size_classes.h"
#include "segment_cache.h"

namespace kvlab::stage5 {

struct Bin {
  static constexpr size_t kWords = kChunksPerBin / 64;

  uint64_t free_map[kWords];  // bit set = chunk free
  char* segment;              // kChunksPerBin chunks
  // Superbins 1..63: per chunk below slack_capacity, its size minus the
  // requested size (0..31). Chunks are taken lowest first, so a bin that
  // never held more than a few hundred chunks needs no entry for the rest:
  // the array grows with the highest chunk taken (Superbin::GrowSlack).
  uint8_t* slack;
  uint16_t slack_capacity;   // a power of two up to kChunksPerBin; 0: none
  uint16_t used;             // chunks not free, the reserved one included
  uint16_t first_free_word;  // no free bit in earlier words
  uint16_t reserved;         // 1 in the bin holding the null chunk, else 0
  uint8_t evacuating;        // 1 while a compaction empties this bin
  // The lowest free chunk when Free last spared its page(s) while wholly
  // free (they may still be resident), or kNoKeptChunk.
  uint16_t kept_chunk;
};
inline constexpr uint16_t kNoKeptChunk = 0xffff;

struct Metabin {
  static constexpr size_t kWords = kBinsPerMetabin / 64;

  uint64_t not_full[kWords];  // bit set = bin absent or has a free chunk
  uint16_t live_bins;
};

// Where a chunk is.
struct ChunkLocation {
  HyperionPointer hp;
  char* address;
  Bin* bin;
};

class Superbin {
 public:
  static constexpr size_t kListCapacity = 16;
  // Slack entries a new bin of superbins 1..63 starts with.
  static constexpr uint16_t kInitialSlack = 64;

  Superbin() = default;
  Superbin(const Superbin&) = delete;
  Superbin& operator=(const Superbin&) = delete;
  // Unmaps every segment and deletes every descriptor.
  ~Superbin();

  // Must be called once before anything else.
  void Init(uint32_t id, SegmentCache* cache, FreePagePolicy policy);

  // A free chunk, now in use. Its memory is as the manager left it when it
  // was freed (the manager keeps free chunks zeroed and poisoned). Throws
  // std::bad_alloc, changing nothing, if it needs a new bin and the system
  // refuses the memory (or the pointers have no room for another metabin).
  ChunkLocation Allocate();
  // Frees the in-use chunk `hp`.
  void Free(HyperionPointer hp);

  // The chunk `hp` names, which must be in use.
  ChunkLocation Locate(HyperionPointer hp) const;
  // Its address alone: one load from the segment table, where Locate
  // also reads the metabin's and the bin's descriptors.
  char* Address(HyperionPointer hp) const {
    char* const address = segments_[hp.metabin() * kBinsPerMetabin + hp.bin()] +
                          hp.chunk() * chunk_size_;
    assert(Locate(hp).address == address);
    return address;
  }
  // True if `hp` names an existing bin and its chunk is in use.
  bool InUse(HyperionPointer hp) const;

  // Calls `fn` for every chunk in use (the reserved one excluded).
  void ForEachInUse(absl::FunctionRef<void(const ChunkLocation&)> fn) const;

  size_t chunk_size() const { return chunk_size_; }
  size_t segment_size() const { return chunk_size_ * kChunksPerBin; }
  uint64_t chunks_in_use() const { return chunks_in_use_; }
  uint64_t reserved_chunks() const;
  uint64_t bins() const { return bins_; }
  uint64_t metabins() const { return metabin_count_; }
  uint64_t metadata_bytes() const;
  // Pages of the bins' segments that hold part of a chunk in use or of a
  // bin's kept chunk, and the idle page unless it lies in the cached
  // segment: the ones the bins keep resident. O(bins + chunks in use).
  uint64_t held_pages() const;
  // Pages returned to the system since Init (a page touched again and
  // returned again counts twice).
  uint64_t pages_returned() const { return pages_returned_; }

  // Compaction (compaction.cc). PlanEvacuation marks the bins to empty:
  // the sparsest ones, as many as the free chunks of the others can take,
  // each at most `max_occupancy` full, and only if they are at least
  // `min_bins`; it returns their number. TakeForMove then hands out a free
  // chunk of the densest bin not being emptied that has one, as often as
  // the marked bins have chunks in use. EndMoves drops that target list.
  // PlanEvacuation throws std::bad_alloc, marking nothing, if memory runs
  // out; CancelEvacuation drops its marks and list before any move.
  size_t PlanEvacuation(double max_occupancy, uint32_t min_bins);
  ChunkLocation TakeForMove();
  void EndMoves();
  void CancelEvacuation();
  // Calls `fn` for every chunk in use in the marked bins.
  void ForEachEvacuating(
      absl::FunctionRef<void(const ChunkLocation&)> fn) const;
  // Calls `fn` for every chunk in use in the marked bins and frees it, so
  // that the bins are released; clears the marks.
  void ReleaseEvacuated(absl::FunctionRef<void(const ChunkLocation&)> fn);
  // The bin of `hp`, which names a chunk in use (evacuating or not).
  const Bin* BinOf(HyperionPointer hp) const;
  uint64_t evacuating_bins() const { return evacuating_.size(); }

  // Recounts everything from the maps and checks every invariant above.
  // OK, or Internal naming the superbin and the first violation.
  absl::Status Check() const;

 private:
  // Check's steps. What they recount as they go, compared at the end.
  struct CheckCounts {
    uint64_t in_use = 0, bins = 0, metabins = 0, evacuating = 0;
    uint64_t slack_bytes = 0;
  };
  // Internal naming this superbin and `what`.
  absl::Status Violation(const std::string& what) const;
  // The bin and segment tables against each other and the metabins.
  absl::Status CheckTables() const;
  // Metabin `metabin_id` (if present) and each of its bins.
  absl::Status CheckMetabin(uint32_t metabin_id, CheckCounts* counts) const;
  // One bin's free map, counts and slack array.
  absl::Status CheckBin(uint32_t metabin_id, uint32_t bin_id, const Bin& bin,
                        CheckCounts* counts) const;
  // The list of metabins with a free chunk, and the idle page.
  absl::Status CheckListAndIdlePage() const;

  // The descriptor of bin `bin_id` of metabin `metabin_id`; nullptr if
  // that bin is absent.
  Bin* BinAt(uint32_t metabin_id, uint32_t bin_id) const {
    const size_t index = size_t{metabin_id} * kBinsPerMetabin + bin_id;
    return index < bin_table_.size() ? bin_table_[index] : nullptr;
  }
  // The id of a not-full metabin, created if needed.
  uint32_t NotFullMetabin();
  // Both throw std::bad_alloc and change nothing if memory runs out;
  // CreateBin then also releases `metabin` if it has no bin.
  uint32_t CreateMetabin();
  Bin* CreateBin(Metabin* metabin, uint32_t metabin_id, uint32_t bin_id);
  // Takes the free chunk `chunk` of an existing bin.
  ChunkLocation Take(uint32_t metabin_id, uint32_t bin_id, Bin* bin,
                     size_t chunk);
  void ReleaseBin(Metabin* metabin, uint32_t metabin_id, uint32_t bin_id);
  // Makes `bin`'s slack array hold at least `chunks` entries (doubling it,
  // up to kChunksPerBin). Throws std::bad_alloc, changing nothing, if
  // memory runs out.
  void GrowSlack(Bin* bin, size_t chunks);
  // The same for every compaction target, all or none: TakeForMove may
  // hand out any of their free chunks and must not fail.
  void GrowTargetsSlack();
  // Returns the pages of `bin` that overlap chunks first..last and lie
  // wholly inside free chunks, except those of chunk `keep`, the lowest
  // free one, and under kKeepLastPerSuperbin the lowest of the others,
  // which becomes the idle page (the previous one goes back); records
  // `keep` as the bin's kept chunk if it spares one of its pages.
  void ReturnFreePages(Bin* bin, size_t first, size_t last, size_t keep);
  // Gives pages first_page.. of `bin` back to the system and counts them.
  void ReturnPageRun(Bin* bin, size_t first_page, size_t pages);
  // True if every chunk with bytes in page `page` of `bin` is free.
  bool PageWhollyFree(const Bin& bin, size_t page) const;
  // Makes page `page` of `bin` the idle page, returning the previous one
  // if it is still wholly free.
  void SetIdlePage(Bin* bin, size_t page);
  // True if the idle page lies in the segment the cache holds for this
  // superbin (its bin released, no new one made on it yet).
  bool IdlePageCached() const;
  // 1 if the idle page lies in a bin, resident but held by no chunk in
  // use; else 0.
  uint64_t UnheldIdlePages() const;
  void ReleaseMetabin(uint32_t metabin_id);
  void ListInsert(uint32_t metabin_id);
  void ListRemove(uint32_t metabin_id);

  struct BinRef {
    uint32_t metabin_id;
    uint32_t bin_id;
  };

  uint32_t id_ = 0;
  size_t chunk_size_ = 0;
  SegmentCache* cache_ = nullptr;
  std::vector<Metabin*> metabins_;  // nullptr for absent metabins
  // Each bin's segment by metabin * kBinsPerMetabin + bin, nullptr for
  // absent bins, up to the highest bin created: resolving a pointer reads
  // this entry and no descriptor (a descriptor is a cache miss of its own).
  std::vector<char*> segments_;
  // Each bin's descriptor, indexed and sized as segments_. One table for
  // the superbin rather than 256 pointers in every metabin: a metabin with
  // one bin, as most are in an arena of hyperion:arenas=N, would carry
  // 2 KiB of null pointers.
  std::vector<Bin*> bin_table_;
  uint16_t list_[kListCapacity] = {};
  size_t list_size_ = 0;
  uint64_t chunks_in_use_ = 0;
  uint64_t bins_ = 0;
  uint64_t metabin_count_ = 0;
  uint64_t slack_bytes_ = 0;  // the bins' slack arrays
  uint64_t pages_returned_ = 0;
  FreePagePolicy policy_ = FreePagePolicy::kReturnAtOnce;
  // The idle page: its bin, or nullptr if there is none or it lies in the
  // cached segment of a released bin; that bin's segment; the page's
  // index in it.
  Bin* idle_bin_ = nullptr;
  char* idle_segment_ = nullptr;
  size_t idle_page_ = 0;
  std::vector<BinRef> evacuating_;  // bins being emptied
  std::vector<BinRef> targets_;     // where their chunks go, densest first
  size_t next_target_ = 0;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_SUPERBIN_H_
