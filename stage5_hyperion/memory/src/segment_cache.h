// Segments: the anonymous memory mappings that hold a bin's 4,096 chunks,
// and a small cache of empty ones.
//
// A bin maps its segment when it is created and unmaps it when its last
// chunk is freed, so memory returns to the OS. A superbin at the edge of
// use (its one bin emptied, then a chunk allocated again, and so on) would
// then pay an mmap and a munmap each time. Stores split into arenas
// (arena_store.h) meet that edge all the time: each arena's manager has a
// bin or two with few chunks in most superbins, and a 1M-pair load with 16
// arenas mapped and unmapped some 25,000 segments. Every mmap and munmap
// takes the process's address-space lock and a munmap makes every core the
// process runs on flush its TLB, so threads writing to different arenas
// still waited for each other in the kernel. The cache therefore keeps,
// for each superbin, the segment it emptied last, and hands it to that
// superbin's next bin: at most kCapacity segments, one per superbin.
// Cached segments cost address space and at most two pages of memory
// each: all their pages were given back (ReturnPages) while their chunks
// were freed, except at most the page of chunk 0 (superbin.h, the bin's
// lowest free chunk) and the superbin's idle page (superbin.h), which
// the superbin's next bin is likely to take first.
//
// Every segment given out or taken back is entirely zero and poisoned for
// ASan: the manager zeroes chunks when it frees them.
//
// Not thread-safe; owned by one MemoryManager.

#ifndef KVLAB_STAGE5_SRC_SEGMENT_CACHE_H_
#define KVLAB_STAGE5_SRC_SEGMENT_CACHE_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "kvlab/stage5/size_classes.h"

namespace kvlab::stage5 {

class SegmentCache {
 public:
  static constexpr size_t kCapacity = kSuperbins;

  SegmentCache() = default;
  SegmentCache(const SegmentCache&) = delete;
  SegmentCache& operator=(const SegmentCache&) = delete;
  ~SegmentCache();  // Unmaps the cached segments.

  // A zeroed, poisoned segment of `size` bytes for `superbin`: the cached
  // one if there is one, else a fresh mapping. `size` is the superbin's
  // segment size, the same on every call. Throws std::bad_alloc, changing
  // nothing, if mmap fails.
  char* Acquire(uint32_t superbin, size_t size);
  // Takes back an empty (all-zero, poisoned) segment of `superbin` and
  // keeps it, unmapping the one the superbin had cached, if any.
  void Release(uint32_t superbin, char* segment, size_t size);
  // Unmaps every cached segment.
  void Clear();

  // The segment cached for `superbin`, or nullptr.
  const char* cached(uint32_t superbin) const {
    return entries_[superbin].segment;
  }
  size_t cached_segments() const { return count_; }
  uint64_t cached_bytes() const { return cached_bytes_; }

 private:
  struct Entry {
    char* segment = nullptr;  // null: none cached
    size_t size = 0;
  };

  std::array<Entry, kCapacity> entries_ = {};  // by superbin
  size_t count_ = 0;
  uint64_t cached_bytes_ = 0;
};

// mmap and munmap of anonymous private memory, poisoned while mapped.
// MapSegment throws std::bad_alloc if mmap fails.
char* MapSegment(size_t size);
void UnmapSegment(char* segment, size_t size);
// The system's page size, which divides every segment's size.
size_t PageSize();
// Gives `bytes` of whole pages at `address`, inside a segment, back to the
// system (madvise MADV_DONTNEED): they stay mapped, leave the resident set,
// and read as zero when touched again. Their poison is unchanged.
void ReturnPages(char* address, size_t bytes);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_SEGMENT_CACHE_H_
