#include "node.h"

#include "find_byte.h"

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

}  // namespace

int FindChild(const Node* n, uint8_t b, FindMethod method) {
  const size_t count = NumChildren(n);
  if (count == 0) return -1;
  const uint8_t* branch = BranchArray(n);
  return method == FindMethod::kSimd ? FindByte(branch, count, b)
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
