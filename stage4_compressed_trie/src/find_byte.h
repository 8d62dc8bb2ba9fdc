// Finding a byte in a short array: the linear child search of find=simd.
//
// FindByte compares 16 bytes per instruction where the compiler targets
// SSE2 (every x86-64 CPU) and falls back to a plain loop elsewhere (arm64,
// or any build with -DKVLAB_NO_SIMD); both answer the same. Each
// implementation also has a name of its own so a test can hold them side by
// side. Inline, as the search runs at every node of every lookup.

#ifndef KVLAB_STAGE4_SRC_FIND_BYTE_H_
#define KVLAB_STAGE4_SRC_FIND_BYTE_H_

#include <cstddef>
#include <cstdint>

// KVLAB_STAGE4_SSE2 is 1 when FindByte uses SSE2 intrinsics.
#if defined(__SSE2__) && !defined(KVLAB_NO_SIMD)
#define KVLAB_STAGE4_SSE2 1
#include <emmintrin.h>  // SSE2: part of every x86-64 CPU, no -march needed
#else
#define KVLAB_STAGE4_SSE2 0
#endif

namespace kvlab::stage4 {

// FindByte's portable path: one byte at a time.
inline int FindBytePortable(const uint8_t* bytes, size_t n, uint8_t b) {
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] == b) return static_cast<int>(i);
  }
  return -1;
}

#if KVLAB_STAGE4_SSE2
// FindByte's SSE2 path: 16 bytes at a time. The last block is the array's
// final 16 bytes, overlapping the block before it: a byte is compared twice
// rather than read past the array, which would reach bytes that are not the
// array's (or not the node's). Arrays of fewer than 16 bytes are searched
// one byte at a time.
inline int FindByteSse2(const uint8_t* bytes, size_t n, uint8_t b) {
  if (n < 16) return FindBytePortable(bytes, n, b);
  const __m128i needle = _mm_set1_epi8(static_cast<char>(b));
  for (size_t i = 0;; i += 16) {
    const size_t at = i + 16 <= n ? i : n - 16;
    const __m128i block =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + at));
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(block, needle));
    if (mask != 0) return static_cast<int>(at) + __builtin_ctz(mask);
    if (at + 16 == n) return -1;
  }
}
#endif

// The index of the first byte of `bytes[0, n)` equal to `b`, or -1. Reads
// no byte outside the array.
inline int FindByte(const uint8_t* bytes, size_t n, uint8_t b) {
#if KVLAB_STAGE4_SSE2
  return FindByteSse2(bytes, n, b);
#else
  return FindBytePortable(bytes, n, b);
#endif
}

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_SRC_FIND_BYTE_H_
