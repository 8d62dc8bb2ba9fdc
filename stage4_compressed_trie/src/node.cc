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

// Compares 16 branch bytes at a time with one instruction. Only whole
// 16-byte blocks are loaded, so nothing past the array is read.
int FindSimd(const uint8_t* branch, size_t n, uint8_t b) {
  const __m128i needle = _mm_set1_epi8(static_cast<char>(b));
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i block =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(branch + i));
    const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(block, needle));
    if (mask != 0) return static_cast<int>(i) + __builtin_ctz(mask);
  }
  for (; i < n; ++i) {
    if (branch[i] == b) return static_cast<int>(i);
  }
  return -1;
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
