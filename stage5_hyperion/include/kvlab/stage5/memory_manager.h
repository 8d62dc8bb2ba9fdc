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
// coarse steps (size_classes.h). A chained pointer owns 8 consecutive
// extended records (slots), each with its own heap block, for the trie's
// split containers.
//
// Contract:
//   - New memory is zero: an allocation is all zero, and the bytes a
//     reallocation adds past the old size are zero (also after a shrink and
//     regrow). Callers write only within the size they asked for.
//   - Reallocate keeps the first min(old, new) bytes and may return a new
//     pointer (it does when the size leaves its 32-byte class, except within
//     superbin 0, whose pointer stays put while its heap block moves).
//   - An address from Resolve stays valid until that pointer is freed or
//     reallocated; for superbin 0 until its block is resized.
//   - A bin whose chunks are all free is unmapped at once (at most
//     SegmentCache::kCapacity empty segments stay mapped for reuse), and a
//     metabin without bins gives back its descriptor.
//   - Under AddressSanitizer, free chunks, unused tails of live chunks and
//     of heap blocks are poisoned: touching them is reported as
//     use-after-poison.
//
// One manager per arena: it has no global state. Not thread-safe; the
// arena's lock serialises calls.

#ifndef KVLAB_STAGE5_MEMORY_MANAGER_H_
#define KVLAB_STAGE5_MEMORY_MANAGER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "kvlab/stage5/hyperion_pointer.h"
#include "kvlab/stage5/memory_stats.h"
#include "kvlab/stage5/size_classes.h"

namespace kvlab::stage5 {

struct ExtendedRecord;
class SegmentCache;
class Superbin;

class MemoryManager {
 public:
  MemoryManager();
  MemoryManager(const MemoryManager&) = delete;
  MemoryManager& operator=(const MemoryManager&) = delete;
  // Releases everything, live allocations included.
  ~MemoryManager();

  // A pointer to `size` zero bytes (size <= kMaxAllocation); null for 0.
  HyperionPointer Allocate(size_t size);
  // Resizes `hp`'s allocation to `new_size` bytes, as described above.
  // Reallocate(null, n) is Allocate(n); Reallocate(hp, 0) frees hp and
  // returns null. `hp` must not be chained.
  HyperionPointer Reallocate(HyperionPointer hp, size_t new_size);
  // Frees an allocation or a chained pointer with all its slots. Null is a
  // no-op.
  void Free(HyperionPointer hp);
  // The address of `hp`'s bytes; nullptr for null. `hp` must not be chained.
  void* Resolve(HyperionPointer hp) const;
  // The size `hp` was last given; 0 for null. `hp` must not be chained.
  size_t Size(HyperionPointer hp) const;

  // A chained pointer: kChainLength empty slots.
  HyperionPointer AllocateChained();
  // Resizes slot `slot` (< kChainLength) of chained `hp` to `new_size`
  // bytes, with Reallocate's rules; returns its new address (nullptr for 0).
  void* ResizeSlot(HyperionPointer hp, size_t slot, size_t new_size);
  void* ResolveSlot(HyperionPointer hp, size_t slot) const;
  size_t SlotSize(HyperionPointer hp, size_t slot) const;
  bool IsChained(HyperionPointer hp) const;

  // Counters kept on every call; O(superbins).
  MemoryStats Stats() const;
  // Walks every bin and record, recounts, and compares with Stats() and
  // the structures' invariants. Returns "" or the first violation. O(size).
  std::string CheckConsistency() const;

 private:
  HyperionPointer AllocateExtended(size_t size);
  ExtendedRecord* Record(HyperionPointer hp) const;
  // Resizes the heap block of `record` (0 frees it), keeping the contract.
  void ResizeBlock(ExtendedRecord* record, size_t new_size);
  void ResizeSmallInPlace(HyperionPointer hp, size_t new_size);
  void FreeSmall(HyperionPointer hp);
  void FreeExtended(HyperionPointer hp);

  std::unique_ptr<SegmentCache> cache_;
  std::unique_ptr<std::array<Superbin, kSuperbins>> superbins_;
  std::array<uint64_t, kSuperbins> requested_bytes_ = {};
  uint64_t extended_heap_bytes_ = 0;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_MEMORY_MANAGER_H_
