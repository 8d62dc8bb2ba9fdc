// Word scans over bitmaps of 64-bit words, the only search the memory
// manager does: a set bit means "free" (a chunk in a bin's free map) or
// "not full" (a bin in a metabin's map). count-trailing-zeros finds the
// lowest set bit of a word in one instruction, so a 4,096-chunk bin is
// searched in at most 64 word loads and a 256-bin metabin in 4.

#ifndef KVLAB_STAGE5_SRC_BITMAP_H_
#define KVLAB_STAGE5_SRC_BITMAP_H_

#include <cstddef>
#include <cstdint>

namespace kvlab::stage5 {

inline constexpr size_t kNoBit = ~size_t{0};

inline bool TestBit(const uint64_t* words, size_t bit) {
  return (words[bit / 64] >> (bit % 64)) & 1;
}
inline void SetBit(uint64_t* words, size_t bit) {
  words[bit / 64] |= uint64_t{1} << (bit % 64);
}
inline void ClearBit(uint64_t* words, size_t bit) {
  words[bit / 64] &= ~(uint64_t{1} << (bit % 64));
}

// The lowest set bit in words[first_word .. word_count), or kNoBit.
inline size_t FindFirstSet(const uint64_t* words, size_t word_count,
                           size_t first_word = 0) {
  for (size_t w = first_word; w < word_count; ++w) {
    if (words[w] != 0) return w * 64 + size_t(__builtin_ctzll(words[w]));
  }
  return kNoBit;
}

// True if bits first..last (inclusive, first <= last) are all set: a mask
// for each end word, whole words between.
inline bool AllSetInRange(const uint64_t* words, size_t first, size_t last) {
  const size_t first_word = first / 64, last_word = last / 64;
  const uint64_t low_mask = ~uint64_t{0} << (first % 64);
  const uint64_t high_mask = ~uint64_t{0} >> (63 - last % 64);
  if (first_word == last_word) {
    const uint64_t mask = low_mask & high_mask;
    return (words[first_word] & mask) == mask;
  }
  if ((words[first_word] & low_mask) != low_mask) return false;
  for (size_t w = first_word + 1; w < last_word; ++w) {
    if (words[w] != ~uint64_t{0}) return false;
  }
  return (words[last_word] & high_mask) == high_mask;
}

// True if all bits of words[0 .. word_count) are zero.
inline bool AllClear(const uint64_t* words, size_t word_count) {
  for (size_t w = 0; w < word_count; ++w) {
    if (words[w] != 0) return false;
  }
  return true;
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_BITMAP_H_
