#include "node.h"

#include <emmintrin.h>  // SSE2: part of every x86-64 CPU, no -march needed

namespace kvlab::stage4 {
namespace {

int FindBinary(const uint8_t* branch, size_t n, uint8_t b) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (branch[mid] < b) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < n && branch[lo] == b ? static_cast<int>(lo) : -1;
}

// Compares 16 branch bytes at a time with one instruction. The last block
// is the array's final 16 bytes, overlapping the block before it: a byte is
// compared twice rather than read past the array, which would reach bytes
// that are not the branch array's (or not the node's). Arrays of fewer than
// 16 bytes are searched one byte at a time.
int FindSimd(const uint8_t* branch, size_t n, uint8_t b) {
  if (n < 16) {
    for (size_t i = 0; i < n; ++i) {
      if (branch[i] == b) return static_cast<int>(i);
    }
    return -1;
  }
  const __m128i needle = _mm_set1_epi8(static_cast<char>(b));
  for (size_t i = 0;; i += 16) {
    const size_t at = i + 16 <= n ? i : n - 16;
    const __m128i block =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(branch + at));
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(block, needle));
    if (mask != 0) return static_cast<int>(at) + __builtin_ctz(mask);
    if (at + 16 == n) return -1;
  }
}

}  // namespace

int FindChild(const Node* n, uint8_t b, FindMethod method) {
  const size_t count = NumChildren(n);
  if (count == 0) return -1;
  const uint8_t* branch = BranchArray(n);
  return method == FindMethod::kSimd ? FindSimd(branch, count, b)
                                     : FindBinary(branch, count, b);
}

size_t LowerBoundChild(const Node* n, uint8_t b) {
  const uint8_t* branch = BranchArray(n);
  size_t lo = 0, hi = NumChildren(n);
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (branch[mid] < b) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace kvlab::stage4
