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
  for (size_t i = 0; i < count_; ++i) {
    UnmapSegment(entries_[i].segment, entries_[i].size);
  }
  count_ = 0;
  cached_bytes_ = 0;
}

char* SegmentCache::Acquire(uint32_t superbin, size_t size) {
  // Newest first: its pages are the most likely to still be in cache.
  for (size_t i = count_; i-- > 0;) {
    if (entries_[i].superbin != superbin) continue;
    char* segment = entries_[i].segment;
    for (size_t j = i; j + 1 < count_; ++j) entries_[j] = entries_[j + 1];
    --count_;
    cached_bytes_ -= size;
    return segment;
  }
  return MapSegment(size);
}

void SegmentCache::Release(uint32_t superbin, char* segment, size_t size) {
  if (count_ == kCapacity) {
    UnmapSegment(entries_[0].segment, entries_[0].size);
    cached_bytes_ -= entries_[0].size;
    for (size_t j = 0; j + 1 < count_; ++j) entries_[j] = entries_[j + 1];
    --count_;
  }
  entries_[count_++] = Entry{segment, size, superbin};
  cached_bytes_ += size;
}

}  // namespace kvlab::stage5
