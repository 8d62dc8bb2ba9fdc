// CopyShort: a copy of at most 16 bytes without a call. The scan rebuilds
// each key by appending the suffix it ends in, usually a few bytes; a call
// to memcpy (or the `rep movs` g++ emits for a copy of unknown length) costs
// more than the bytes themselves.

#ifndef KVLAB_STAGE5_SRC_SHORT_COPY_H_
#define KVLAB_STAGE5_SRC_SHORT_COPY_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace kvlab::stage5::hyperion {

inline constexpr size_t kMaxShortCopy = 16;

// Copies `n` <= kMaxShortCopy bytes from `src` to `dst` (not overlapping).
// Touches no byte outside [src, src + n) and [dst, dst + n).
inline void CopyShort(char* dst, const uint8_t* src, size_t n) {
  // Two fixed-size moves that overlap in the middle cover any length from
  // the size of one to twice it.
  if (n >= 8) {
    uint64_t head, tail;
    std::memcpy(&head, src, 8);
    std::memcpy(&tail, src + n - 8, 8);
    std::memcpy(dst, &head, 8);
    std::memcpy(dst + n - 8, &tail, 8);
  } else if (n >= 4) {
    uint32_t head, tail;
    std::memcpy(&head, src, 4);
    std::memcpy(&tail, src + n - 4, 4);
    std::memcpy(dst, &head, 4);
    std::memcpy(dst + n - 4, &tail, 4);
  } else if (n > 0) {
    // 1, 2 or 3 bytes: first, middle and last cover them all.
    dst[0] = char(src[0]);
    dst[n / 2] = char(src[n / 2]);
    dst[n - 1] = char(src[n - 1]);
  }
}

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_SRC_SHORT_COPY_H_
