// The stage-5 memory manager: Hyperion's allocator for memory that grows
// and shrinks in 32-byte steps (Hyperion paper, section 3.2; design notes
// in docs/stage5_hyperion_memory.md).
//
// It hands out 5-byte HyperionPointers, not addresses:
//
//   HyperionPointer hp = mm.Allocate(40);    // a 64-byte chunk, 40 in use
//   std::memcpy(mm.Resolve(hp), data, 40);
//   hp = mm.Reallocate(hp, 72);              // moves to a 96-byte chunk
//   mm.Free(hp);
//
// Requests of 1..2016 bytes get a chunk of the next multiple of 32 bytes
// from superbins 1..63, packed 4,096 to an mmap'd bin. Larger requests get
// a 16-byte extended record in superbin 0 that owns a heap block growing in
// coarse steps (size_classes.h), or, allocated with Fit::kExact, rounded to
// 32 bytes until it first grows.
//
// Contract:
//   - New memory is zero: an allocation is all zero, and the bytes a
//     reallocation adds past the old size are zero (also after a shrink and
//     regrow). Callers write only within the size they asked for.
//   - Reallocate keeps the first min(old, new) bytes and may return a new
//     pointer (it does when the size leaves its 32-byte class, except within
//     superbin 0, whose pointer stays put while its heap block moves).
//   - An address from Resolve stays valid until that pointer is freed or
//     reallocated or a compaction moves it; for superbin 0 until its block
//     is resized.
//   - A bin whose chunks are all free is unmapped at once (each superbin
//     keeps the last segment it emptied mapped for its next bin), and a
//     metabin without bins gives back its descriptor. A page of a bin that
//     lies wholly inside free chunks leaves the resident set (it stays
//     mapped and reads as zero), except the page(s) of the bin's lowest
//     free chunk, which the next allocation there takes, and under
//     FreePagePolicy::kKeepLastPerSuperbin (the default) one page per
//     superbin, which goes once the superbin frees another
//     (free_page_policy.h).
//   - Under AddressSanitizer, free chunks, unused tails of live chunks and
//     of heap blocks are poisoned: touching them is reported as
//     use-after-poison.
//   - Pointers change only when their owner calls Reallocate, or during a
//     compaction the owner starts (below).
//   - Out of memory: a call that needs memory the system refuses (an mmap
//     for a new bin, a bin or metabin descriptor, a table's growth, a heap
//     block; or a 2^14th metabin, which pointers cannot name) throws
//     std::bad_alloc and leaves the manager as it was, every pointer and
//     byte unchanged. That is Allocate, AllocateWith, Reallocate and
//     BeginCompaction; each does its fallible steps before its first
//     change. Free, Resolve, Forward and
//     FinishCompaction never fail, and neither does a Reallocate that
//     ResizesInPlace allows: an owner can undo its own changes without
//     memory.
//
// It has no global state: each store owns its own manager. Not
// thread-safe; its owner serialises the calls (the store does, being
// single-threaded itself).

#ifndef KVLAB_STAGE5_MEMORY_MANAGER_H_
#define KVLAB_STAGE5_MEMORY_MANAGER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/stage5/free_page_policy.h"
#include "kvlab/stage5/hyperion_pointer.h"
#include "kvlab/stage5/memory_stats.h"
#include "kvlab/stage5/size_classes.h"

namespace kvlab::stage5 {

struct ExtendedRecord;
class SegmentCache;
class Superbin;

// Which bins a compaction empties (MemoryManager::BeginCompaction).
struct CompactionPolicy {
  // A bin is evacuated only if at most this fraction of its chunks is in
  // use.
  double max_occupancy = 0.9;
  // A superbin is compacted only if that releases at least this many bins.
  uint32_t min_bins = 1;
  // Bit i set: compact superbin i (1..63; superbin 0 is never compacted).
  uint64_t superbins = ~uint64_t{0};
  // Finish also unmaps the cached empty segments.
  bool release_cache = true;
};

class MemoryManager {
 public:
  explicit MemoryManager(
      FreePagePolicy free_pages = FreePagePolicy::kKeepLastPerSuperbin);
  MemoryManager(const MemoryManager&) = delete;
  MemoryManager& operator=(const MemoryManager&) = delete;
  // Releases everything, live allocations included.
  ~MemoryManager();

  // A pointer to `size` zero bytes (size <= kMaxAllocation); null for 0.
  // `fit` matters only past kMaxSmallSize: kExact leaves out the heap
  // block's over-allocation, for memory that is not expected to grow.
  HyperionPointer Allocate(size_t size, Fit fit = Fit::kRoomToGrow);
  // Allocate(size, fit) holding the concatenation of `parts` (at most
  // `size` bytes in all) and zeros after it: moves bytes into a new
  // allocation without clearing it first.
  HyperionPointer AllocateWith(size_t size,
                               std::initializer_list<std::string_view> parts,
                               Fit fit = Fit::kRoomToGrow);
  // Resizes `hp`'s allocation to `new_size` bytes, as described above.
  // Reallocate(null, n) is Allocate(n); Reallocate(hp, 0) frees hp and
  // returns null.
  HyperionPointer Reallocate(HyperionPointer hp, size_t new_size);
  // True if Reallocate(hp, new_size) would keep both `hp` and its address
  // (new_size in hp's 32-byte class, or a superbin 0 block that need not
  // move): such a Reallocate allocates nothing and cannot fail.
  bool ResizesInPlace(HyperionPointer hp, size_t new_size) const;
  // Frees an allocation. Null is a no-op.
  void Free(HyperionPointer hp);
  // The address of `hp`'s bytes; nullptr for null.
  void* Resolve(HyperionPointer hp) const;
  // The size `hp` was last given; 0 for null.
  size_t Size(HyperionPointer hp) const;
  // Resolve's address and a number of bytes that may be read from it (the
  // chunk's size, or the heap block's requested size), found without
  // touching the bytes: a caller can ask for their cache lines before the
  // first of them arrives. {nullptr, 0} for null.
  struct Span {
    void* address = nullptr;
    size_t bytes = 0;
  };
  Span ResolveSpan(HyperionPointer hp) const;

  // Compaction moves live chunks of superbins 1..63 out of their sparsest
  // bins into free chunks of the densest ones, so that the emptied bins are
  // unmapped. It takes three steps, the middle one the owner's:
  //
  //   mm.BeginCompaction(policy);   // copies the chunks, leaves forwards
  //   for every pointer p the owner stores: p = mm.Forward(p);
  //   mm.FinishCompaction();        // frees the old chunks, unmaps bins
  //
  // Per superbin, Begin evacuates the bins with the fewest chunks in use,
  // as many as the free chunks of the other bins can absorb (and at most
  // policy.max_occupancy full), and only if that is at least
  // policy.min_bins. Each moved chunk keeps its contents, its size and its
  // zero, poisoned tail; its old chunk holds the new pointer (a forwarding
  // record) and stays allocated until Finish, so between the two calls the
  // statistics count it twice (in use, requested and held). Superbin 0
  // never moves.
  //
  // Between Begin and Finish the owner may call Forward, Resolve, Size,
  // ResolveSpan, Stats and CheckConsistency, the
  // resolving ones only on forwarded pointers: resolving a pointer that was
  // moved but not yet forwarded is a misuse (it asserts in debug builds),
  // and so is any call that allocates, resizes or frees. Every pointer the
  // owner keeps must be forwarded before Finish; after it, a stale pointer
  // names a free chunk. Costs: Begin O(bins log bins + moved bytes),
  // Forward O(1), Finish O(moved chunks).
  //
  // Begin returns the chunks and bytes moved and the bins being emptied.
  CompactionStats BeginCompaction(const CompactionPolicy& policy = {});
  // The pointer `hp` now has: the new one if Begin moved its chunk, else
  // `hp` itself (also null, superbin 0 pointers, and outside a
  // compaction). `hp` must be a live pointer.
  HyperionPointer Forward(HyperionPointer hp) const;
  // Ends the compaction and returns its complete statistics.
  CompactionStats FinishCompaction();
  bool compacting() const { return compacting_; }

  // Counters kept on every call; O(superbins).
  MemoryStats Stats() const;
  // Bytes of the bins' pages that hold part of a chunk in use (or of a
  // bin's kept chunk, or a superbin's idle page, above): what the bins
  // keep resident, their free chunks on those pages included. Cached empty
  // segments are not counted, though each may keep two pages resident:
  // its chunk 0's and the superbin's idle page, if its bin held it when
  // released (at most two pages per superbin, segment_cache.h).
  // O(bins + chunks in use).
  uint64_t HeldPageBytes() const;
  // Walks every bin and record, recounts, and compares with Stats() and
  // the structures' invariants. OK, or Internal naming the first
  // violation. O(size).
  absl::Status CheckConsistency() const;

 private:
  // CheckConsistency's steps: the chunks of a superbin of small chunks
  // (their slack, and forwards of moved ones) and superbin 0's extended
  // records; each adds the bytes requested (and held on the heap) and
  // returns the first violation, or nullptr.
  const char* CheckChunks(const Superbin& superbin, uint64_t* requested) const;
  const char* CheckExtendedRecords(uint64_t* requested,
                                   uint64_t* heap_bytes) const;
  HyperionPointer AllocateExtended(
      size_t size, Fit fit, std::initializer_list<std::string_view> parts);
  // Copies `parts` one after another to `to`; returns the bytes copied.
  static size_t CopyParts(char* to,
                          std::initializer_list<std::string_view> parts);
  ExtendedRecord* Record(HyperionPointer hp) const;
  // Resizes the heap block of `record` to hold `new_size` bytes in a block
  // of `new_held` (0 frees it), keeping the contract.
  void ResizeBlock(ExtendedRecord* record, size_t new_size, size_t new_held);
  // The same, the block size by HeldSizeAfterResize.
  void ResizeBlock(ExtendedRecord* record, size_t new_size);
  void ResizeSmallInPlace(HyperionPointer hp, size_t new_size);
  void FreeSmall(HyperionPointer hp);
  void FreeExtended(HyperionPointer hp);

  std::unique_ptr<SegmentCache> cache_;
  // Between BeginCompaction and FinishCompaction.
  bool compacting_ = false;
  bool release_cache_ = false;
  uint64_t evacuating_bins_ = 0;
  uint64_t footprint_before_ = 0;
  CompactionStats compaction_;
  std::unique_ptr<std::array<Superbin, kSuperbins>> superbins_;
  std::array<uint64_t, kSuperbins> requested_bytes_ = {};
  uint64_t extended_heap_bytes_ = 0;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_MEMORY_MANAGER_H_
