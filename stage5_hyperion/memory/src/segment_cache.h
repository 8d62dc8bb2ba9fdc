// Segments: the anonymous memory mappings that hold a bin's 4,096 chunks,
// and a small cache of empty ones.
//
// A bin maps its segment when it is created and unmaps it when its last
// chunk is freed, so memory returns to the OS. A bin at the edge of use
// (one chunk allocated and freed again and again) would then pay an mmap
// and a munmap each time; the cache keeps up to kCapacity empty segments
// mapped and hands them back to the next bin of the same superbin.
//
// Every segment given out or taken back is entirely zero and poisoned for
// ASan: the manager zeroes chunks when it frees them.
//
// Not thread-safe; owned by one MemoryManager.

#ifndef KVLAB_STAGE5_SRC_SEGMENT_CACHE_H_
#define KVLAB_STAGE5_SRC_SEGMENT_CACHE_H_

#include <cstddef>
#include <cstdint>

namespace kvlab::stage5 {

class SegmentCache {
 public:
  static constexpr size_t kCapacity = 4;

  SegmentCache() = default;
  SegmentCache(const SegmentCache&) = delete;
  SegmentCache& operator=(const SegmentCache&) = delete;
  ~SegmentCache();  // Unmaps the cached segments.

  // A zeroed, poisoned segment of `size` bytes for `superbin`: a cached one
  // if there is one, else a fresh mapping. Throws std::bad_alloc, changing
  // nothing, if mmap fails.
  char* Acquire(uint32_t superbin, size_t size);
  // Takes back an empty (all-zero, poisoned) segment of `superbin`; unmaps
  // the oldest cached segment if the cache is full.
  void Release(uint32_t superbin, char* segment, size_t size);
  // Unmaps every cached segment.
  void Clear();

  size_t cached_segments() const { return count_; }
  uint64_t cached_bytes() const { return cached_bytes_; }

 private:
  struct Entry {
    char* segment;
    size_t size;
    uint32_t superbin;
  };

  Entry entries_[kCapacity] = {};  // oldest first
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
