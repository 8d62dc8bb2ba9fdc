// Five-byte little-endian integers at any alignment: the width of a
// Hyperion pointer and of a trie's key count.
//
// Both are read in the trie's hottest loops (GetNth sums key counts, every
// descent loads a pointer), so the bytes are spelled out one by one: g++
// merges such a pattern into one 4-byte and one 1-byte access, while a loop
// over the bytes stays five loads and a branch. Neither touches a byte past
// the fifth, which may be the last of its chunk.

#ifndef KVLAB_STAGE5_LITTLE_ENDIAN_40_H_
#define KVLAB_STAGE5_LITTLE_ENDIAN_40_H_

#include <cstdint>

namespace kvlab::stage5 {

inline constexpr uint64_t kMax40 = (uint64_t{1} << 40) - 1;

// The 40-bit number in the 5 bytes at `p`.
inline uint64_t Load40(const uint8_t* p) {
  return uint64_t{p[0]} | uint64_t{p[1]} << 8 | uint64_t{p[2]} << 16 |
         uint64_t{p[3]} << 24 | uint64_t{p[4]} << 32;
}

// Writes the low 40 bits of `v` to the 5 bytes at `p`.
inline void Store40(uint8_t* p, uint64_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
  p[2] = uint8_t(v >> 16);
  p[3] = uint8_t(v >> 24);
  p[4] = uint8_t(v >> 32);
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_LITTLE_ENDIAN_40_H_
