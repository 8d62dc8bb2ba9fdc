#ifndef KVLAB_STAGE5_TRIE_SRC_PREPROCESS_KEY_PREPROCESSING_H_
#define KVLAB_STAGE5_TRIE_SRC_PREPROCESS_KEY_PREPROCESSING_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kvlab/kv_store.h"

namespace kvlab::stage5 {

// Key pre-processing for uniformly distributed keys (the zero-bit injection of
// Hyperion, section 3.4): the 24 bits of key bytes 1-3 are spread over four
// bytes of 6 bits each, every one of them followed by two zero bits. Byte 0
// and the bytes after byte 3 are copied unchanged. The first four bytes of a
// transformed key then carry 8 + 3 * 6 = 26 bits instead of 32, so random
// keys fill 2^26 third-level containers instead of 2^32, and each holds more.
//
//   key:        [ b0 ][ b1 ][ b2 ][ b3 ][ b4 ...
//   bits:         8     24 bits in order    rest
//   transformed:[ b0 ][6|00][6|00][6|00][6|00][ b4 ...
//
// A key shorter than four bytes has fewer bits after byte 0; they fill as
// many 6-bit groups as they need and the last group is padded with zeros.
// The transform is injective (each key length maps to its own transformed
// length), invertible (RestoreKey), and keeps the byte-wise order of keys: the
// zero bits sit at the same positions in every transformed key, so the first
// bit in which two keys differ is also the first in which their transforms
// differ, and a key that is a prefix of another transforms to one that is a
// prefix of, or smaller than, the other's.

// The length of the transform of a key of `key_size` bytes: key_size for 0 or
// 1, key_size + 1 for 2 and more (2 -> 3 bytes, 3 -> 4, n -> n + 1).
constexpr size_t PreprocessedSize(size_t key_size) {
  return key_size <= 1 ? key_size : key_size + 1;
}

// Writes the transform of `key` to out[0, PreprocessedSize(key.size())).
void PreprocessKey(std::string_view key, uint8_t* out);
std::string PreprocessKey(std::string_view key);

// Inverse of PreprocessKey: writes the original key of `transformed` to
// out[0, transformed.size() - 1) (or size 0/1 for those sizes) and returns
// its size. Returns false, writing nothing useful, if `transformed` is not
// the transform of any key (a length of 2 or a non-zero injected bit).
// `out` may be transformed.data(): a key is restored in place.
bool RestoreKey(std::string_view transformed, uint8_t* out, size_t* key_size);
bool RestoreKey(std::string_view transformed, std::string* key);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_TRIE_SRC_PREPROCESS_KEY_PREPROCESSING_H_
