#include "segment_cache.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#include "poison.h"

namespace kvlab::stage5 {

char* MapSegment(size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  // Small pages only: a transparent huge page would make one live chunk
  // hold 2 MiB resident, and ReturnPages works page by page.
  madvise(p, size, MADV_NOHUGEPAGE);
  PoisonRegion(p, size);
  return static_cast<char*>(p);
}

void UnmapSegment(char* segment, size_t size) {
  // The next mapping at this address must not inherit the poison.
  UnpoisonRegion(segment, size);
  munmap(segment, size);
}

size_t PageSize() {
  static const size_t page_size = size_t(sysconf(_SC_PAGESIZE));
  return page_size;
}

void ReturnPages(char* address, size_t bytes) {
  // A failure (locked pages, for one) leaves them resident, which costs
  // memory, not correctness: they hold the same zeros.
  madvise(address, bytes, MADV_DONTNEED);
}

SegmentCache::~SegmentCache() { Clear(); }

void SegmentCache::Clear() {
  for (Entry& entry : entries_) {
    if (entry.segment == nullptr) continue;
    UnmapSegment(entry.segment, entry.size);
    entry = Entry();
  }
  count_ = 0;
  cached_bytes_ = 0;
}

char* SegmentCache::Acquire(uint32_t superbin, size_t size) {
  Entry& entry = entries_[superbin];
  if (entry.segment == nullptr) return MapSegment(size);
  char* const segment = entry.segment;
  entry = Entry();
  --count_;
  cached_bytes_ -= size;
  return segment;
}

void SegmentCache::Release(uint32_t superbin, char* segment, size_t size) {
  Entry& entry = entries_[superbin];
  if (entry.segment != nullptr) {
    // The newer segment stays: the page of its chunk 0 may still be in the
    // CPU's cache.
    UnmapSegment(entry.segment, entry.size);
  } else {
    ++count_;
    cached_bytes_ += size;
  }
  entry = Entry{segment, size};
}

}  // namespace kvlab::stage5
