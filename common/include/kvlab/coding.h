// Fixed-width integers stored as bytes at any address: little-endian loads
// and stores of 2, 3, 4, 5 and 8 bytes, and a big-endian 8-byte load for
// keys compared as numbers.
//
// Every function reads or writes exactly its width, never a byte past it,
// so a field may end its allocation. They go through std::memcpy, which is
// defined for any alignment, and give the same bytes on any host: on a
// little-endian host a 2-, 4- or 8-byte access is one load or store, and the
// odd widths are one such access plus one byte; elsewhere the bytes are
// assembled one by one.

#ifndef KVLAB_CODING_H_
#define KVLAB_CODING_H_

#include <bit>
#include <cstdint>
#include <cstring>

namespace kvlab {

inline constexpr bool kLittleEndianHost =
    std::endian::native == std::endian::little;

inline uint16_t LoadLE16(const uint8_t* p) {
  if constexpr (kLittleEndianHost) {
    uint16_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  } else {
    return uint16_t(p[0] | p[1] << 8);
  }
}

inline uint32_t LoadLE32(const uint8_t* p) {
  if constexpr (kLittleEndianHost) {
    uint32_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  } else {
    return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 |
           uint32_t{p[3]} << 24;
  }
}

inline uint64_t LoadLE64(const uint8_t* p) {
  if constexpr (kLittleEndianHost) {
    uint64_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  } else {
    return uint64_t{LoadLE32(p)} | uint64_t{LoadLE32(p + 4)} << 32;
  }
}

// The odd widths: the low bytes as one access, the top byte on its own.
inline uint32_t LoadLE24(const uint8_t* p) {
  return uint32_t{LoadLE16(p)} | uint32_t{p[2]} << 16;
}
inline uint64_t LoadLE40(const uint8_t* p) {
  return uint64_t{LoadLE32(p)} | uint64_t{p[4]} << 32;
}

inline void StoreLE16(uint8_t* p, uint16_t v) {
  if constexpr (kLittleEndianHost) {
    std::memcpy(p, &v, sizeof(v));
  } else {
    p[0] = uint8_t(v);
    p[1] = uint8_t(v >> 8);
  }
}

inline void StoreLE32(uint8_t* p, uint32_t v) {
  if constexpr (kLittleEndianHost) {
    std::memcpy(p, &v, sizeof(v));
  } else {
    StoreLE16(p, uint16_t(v));
    StoreLE16(p + 2, uint16_t(v >> 16));
  }
}

inline void StoreLE64(uint8_t* p, uint64_t v) {
  if constexpr (kLittleEndianHost) {
    std::memcpy(p, &v, sizeof(v));
  } else {
    StoreLE32(p, uint32_t(v));
    StoreLE32(p + 4, uint32_t(v >> 32));
  }
}

// The odd widths store the low 24 or 40 bits of `v`; the rest is dropped.
inline void StoreLE24(uint8_t* p, uint32_t v) {
  StoreLE16(p, uint16_t(v));
  p[2] = uint8_t(v >> 16);
}
inline void StoreLE40(uint8_t* p, uint64_t v) {
  StoreLE32(p, uint32_t(v));
  p[4] = uint8_t(v >> 32);
}

// The 8 bytes at `p` as a big-endian number: the first byte is the most
// significant, so numbers compare like the byte strings.
inline uint64_t LoadBE64(const uint8_t* p) {
  const uint64_t v = LoadLE64(p);
  if constexpr (kLittleEndianHost) return __builtin_bswap64(v);
  return v;
}

}  // namespace kvlab

#endif  // KVLAB_CODING_H_
