// NodePool: objects of any size from free lists per size class, carved
// from 2 MiB slabs that go back to the system once nothing in them is live;
// or, for comparison, plain operator new/delete.
//
// Size classes are multiples of 4 bytes (8, 12, 16, ..., up to the largest
// node), so a node wastes at most 3 bytes to rounding. Objects are 4-byte
// aligned unless the caller asks for 8 (inner nodes hold pointers); each
// class keeps two free lists, for 8-aligned and for other blocks, so an
// 8-aligned request never gets a misaligned block. Allocate, in order:
//   1. pops a free block of the request's class;
//   2. else splits the smallest larger free block that leaves at least 8
//      bytes: the front is the object, the rest goes on its own class's list
//      (copy on write frees blocks in sizes that are seldom asked for again;
//      this puts them to use). A bitmap of non-empty lists finds the block
//      with a few word operations;
//   3. else cuts the object from the current slab (a pointer bump, skipping
//      4 bytes when it must align), and only when the slab is used up maps a
//      new one.
// Free pushes the object on its class's list. Once the store has reached its
// working size, inserts and deletes therefore make no system call at all.
//
// Free blocks are never merged with their neighbours; memory goes back to
// the system a whole slab at a time instead. Every slab starts with a header
// that counts its live objects (allocated and not freed) and its free
// blocks. A slab whose live count is zero holds nothing but free blocks, and
// before it can be unmapped they must leave the free lists. A singly linked
// list is filtered only by walking it, so ReleaseEmptySlabs walks every list
// once, drops the blocks of empty slabs and unmaps those slabs. Free calls
// it when at least half of all free blocks lie in empty slabs, so a walk
// visits at most two blocks for each block it drops; the store also calls it
// when it becomes empty. The slab the bump pointer is in is never unmapped:
// when it empties it starts over, so a store that fills and empties one slab
// again and again makes no system call. Emptying a store thus gives back
// every slab but two at most, the one its root lives in and the current one;
// and memory that one size class emptied serves every other class again.
//
// A slab is 2 MiB, mapped at a 2 MiB boundary (so a block finds its slab's
// header by masking its address) and advised as a transparent huge page
// (madvise MADV_HUGEPAGE): a walk through the trie then needs one TLB entry
// per 2 MiB of nodes, not one per 4 KiB, and filling a slab takes one page
// fault instead of 512. The price is that the newest slab is resident in
// full (up to 2 MiB) as soon as it is touched. Where the kernel has no
// transparent huge pages, the advice is ignored.
//
// In malloc mode (ctrie:alloc=malloc) every Allocate is an operator new of
// the exact size and every Free an operator delete; the statistics then count
// live objects and requested bytes only. (That mode is also the one in which
// valgrind and ASan see every node as its own heap block.)
//
// Allocate throws std::bad_alloc, with the pool unchanged, when no slab can
// be mapped (malloc mode: when operator new throws). Free never allocates.
//
// Not thread-safe: the store calls it only from its (single) writer.

#ifndef KVLAB_STAGE4_SRC_NODE_POOL_H_
#define KVLAB_STAGE4_SRC_NODE_POOL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kvlab::stage4 {

class NodePool {
 public:
  static constexpr size_t kGranule = 4;
  static constexpr size_t kSlabBytes = size_t{1} << 21;

  // `max_object_bytes` bounds every request; `use_slabs` false gives the
  // malloc mode.
  NodePool(size_t max_object_bytes, bool use_slabs);
  ~NodePool();
  NodePool(const NodePool&) = delete;
  NodePool& operator=(const NodePool&) = delete;

  // Memory for `bytes` (1..max_object_bytes) bytes, 4-byte aligned, or 8-byte
  // aligned if `align8`.
  void* Allocate(size_t bytes, bool align8);
  // Returns an object; `bytes` must be the size it was allocated with.
  void Free(void* object, size_t bytes);
  // Unmaps every slab without live objects, after taking its blocks off the
  // free lists: O(free blocks).
  void ReleaseEmptySlabs();

  bool uses_slabs() const { return use_slabs_; }

  // The bytes the pool holds from the system: every slab plus its own
  // tables (slab mode), or the sum of the live objects' sizes (malloc mode).
  size_t BytesReserved() const;
  // Bytes skipped to align objects since the pool was made (slab mode).
  size_t BytesAlignmentGaps() const { return gap_bytes_; }
  // Bytes of live objects, rounded to their size class.
  size_t BytesLive() const { return live_bytes_; }
  size_t Slabs() const { return slabs_.size(); }
  // Slabs given back to the system so far.
  uint64_t SlabsReleased() const { return slabs_released_; }
  uint64_t LiveObjects() const { return live_objects_; }
  uint64_t FreeObjects() const { return free_objects_; }

  struct ClassStats {
    size_t object_bytes;
    uint64_t live;
    uint64_t free;
  };
  // One entry per size class that has live or free objects, smallest first.
  std::vector<ClassStats> Classes() const;

  // Where `object` (allocated here) lies: "slab 2 +0x1a8", the slab's index
  // in the pool and the offset in it, or "heap" in malloc mode.
  std::string Where(const void* object) const;

  // One non-empty free list: its class, its kind, and where its first
  // blocks lie (Where), head first.
  struct FreeList {
    size_t object_bytes;
    bool aligned;  // the list of 8-aligned blocks
    uint64_t blocks;
    std::vector<std::string> first;  // at most `max_shown` blocks
  };
  // Every non-empty free list, smallest class first, aligned before
  // unaligned; O(lists + shown blocks). Empty in malloc mode.
  std::vector<FreeList> FreeLists(size_t max_shown) const;

  // A multi-line report: slabs, bytes, and live/free objects per class.
  std::string DebugString() const;

 private:
  // The first bytes of every slab. Objects start right after it.
  struct SlabHeader {
    uint32_t live;         // objects allocated from this slab, not freed
    uint32_t free_blocks;  // blocks of this slab on the free lists
  };
  static constexpr size_t kHeaderBytes = 8;  // keeps the first object 8-aligned
  static_assert(sizeof(SlabHeader) <= kHeaderBytes);

  static SlabHeader* SlabOf(const void* block) {
    return reinterpret_cast<SlabHeader*>(reinterpret_cast<uintptr_t>(block) &
                                         ~(kSlabBytes - 1));
  }
  // A free block's first 8 bytes hold the next block of its list, read and
  // written with memcpy since the block may be only 4-byte aligned.
  static void* NextOf(void* block);
  static void SetNext(void* block, void* next);
  static size_t ClassOf(size_t bytes) {
    const size_t c = (bytes + kGranule - 1) / kGranule;
    return c < 2 ? 2 : c;  // at least 8 bytes, room for the link
  }

  void* AllocateFromSlabs(size_t c, bool align8);
  void NewSlab();
  // Counts one more live object in `slab`, which stops being empty.
  void Claim(SlabHeader* slab);
  void* PopFree(size_t c, bool aligned);
  void PushFree(void* object, size_t c);
  // Drops the blocks of empty slabs from one list; returns how many.
  uint64_t DropBlocksOfEmptySlabs(void** head);
  size_t FindNonEmpty(size_t from, bool need_aligned, bool* aligned) const;
  void MarkNonEmpty(size_t c, bool aligned) {
    const uint64_t bit = uint64_t{1} << (c % 64);
    (aligned ? nonempty_aligned_ : nonempty_unaligned_)[c / 64] |= bit;
  }
  void MarkEmpty(size_t c, bool aligned) {
    const uint64_t bit = uint64_t{1} << (c % 64);
    (aligned ? nonempty_aligned_ : nonempty_unaligned_)[c / 64] &= ~bit;
  }

  const bool use_slabs_;
  std::vector<void*> free_aligned_;    // by class: 8-aligned blocks
  std::vector<void*> free_unaligned_;  // by class: 4 mod 8 blocks
  std::vector<uint64_t> live_;         // by class
  std::vector<uint64_t> free_;         // by class
  // Bit c set iff the class-c list of that kind is non-empty.
  std::vector<uint64_t> nonempty_aligned_, nonempty_unaligned_;
  std::vector<char*> slabs_;
  char* cursor_ = nullptr;  // next unused byte of the newest slab
  char* slab_end_ = nullptr;
  size_t live_bytes_ = 0;
  size_t gap_bytes_ = 0;
  uint64_t live_objects_ = 0;
  uint64_t free_objects_ = 0;
  // Free blocks in slabs whose live count is zero.
  uint64_t free_in_empty_slabs_ = 0;
  uint64_t slabs_released_ = 0;
};

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_SRC_NODE_POOL_H_
