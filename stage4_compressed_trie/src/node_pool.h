// NodePool: fixed-size objects from free lists per size class, carved from
// large slabs; or, for comparison, plain operator new/delete.
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
// Free pushes the object on its class's list; blocks are never merged, and
// memory goes back to the system only when the pool is destroyed. So once
// the store has reached its working size, inserts and deletes make no
// system call at all.
//
// A slab is 2 MiB, mapped at a 2 MiB boundary and advised as a transparent
// huge page (madvise MADV_HUGEPAGE): a walk through the trie then needs one
// TLB entry per 2 MiB of nodes, not one per 4 KiB, and filling a slab takes
// one page fault instead of 512. The price is that the newest slab is
// resident in full (up to 2 MiB) as soon as it is touched. Where the kernel
// has no transparent huge pages, the advice is ignored.
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

  bool uses_slabs() const { return use_slabs_; }

  // The bytes the pool holds from the system: every slab plus its own
  // tables (slab mode), or the sum of the live objects' sizes (malloc mode).
  size_t BytesReserved() const;
  // Bytes skipped to align objects (slab mode).
  size_t BytesAlignmentGaps() const { return gap_bytes_; }
  // Bytes of live objects, rounded to their size class.
  size_t BytesLive() const { return live_bytes_; }
  size_t Slabs() const { return slabs_.size(); }
  uint64_t LiveObjects() const { return live_objects_; }
  uint64_t FreeObjects() const { return free_objects_; }

  struct ClassStats {
    size_t object_bytes;
    uint64_t live;
    uint64_t free;
  };
  // One entry per size class that has ever been used, smallest first.
  std::vector<ClassStats> Classes() const;

  // A multi-line report: slabs, bytes, and live/free objects per class.
  std::string DebugString() const;

 private:
  // A free block's first 8 bytes hold the next block of its list, read and
  // written with memcpy since the block may be only 4-byte aligned.
  static void* NextOf(void* block);
  static void SetNext(void* block, void* next);
  static size_t ClassOf(size_t bytes) {
    const size_t c = (bytes + kGranule - 1) / kGranule;
    return c < 2 ? 2 : c;  // at least 8 bytes, room for the link
  }

  void NewSlab();
  void* PopFree(size_t c, bool aligned);
  void PushFree(void* object, size_t c);
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
};

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_SRC_NODE_POOL_H_
