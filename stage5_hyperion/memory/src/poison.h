// AddressSanitizer's manual poisoning, used so that ASan sees the chunks
// inside the manager's mmap'd bins as it sees malloc'd blocks: a free chunk
// and the unused tail of a live one are poisoned, and touching them reports
// "use-after-poison". Without ASan both calls compile to nothing.
//
// Granularity: ASan's shadow describes 8-byte granules, each either fully
// poisoned or addressable in a prefix of k bytes. Chunks and heap blocks
// start and end on multiples of 16 bytes, so a live block's addressable
// part [0, size) and its poisoned tail [size, end) are both representable:
// an overflow by one byte is reported.

#ifndef KVLAB_STAGE5_SRC_POISON_H_
#define KVLAB_STAGE5_SRC_POISON_H_

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define KVLAB_STAGE5_ASAN 1
#else
#define KVLAB_STAGE5_ASAN 0
#endif

namespace kvlab::stage5 {

inline void PoisonRegion(const void* begin, size_t size) {
#if KVLAB_STAGE5_ASAN
  if (size != 0) __asan_poison_memory_region(begin, size);
#else
  (void)begin;
  (void)size;
#endif
}

inline void UnpoisonRegion(const void* begin, size_t size) {
#if KVLAB_STAGE5_ASAN
  if (size != 0) __asan_unpoison_memory_region(begin, size);
#else
  (void)begin;
  (void)size;
#endif
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_POISON_H_
