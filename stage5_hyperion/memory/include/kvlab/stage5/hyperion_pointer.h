// Hyperion pointers: the 5-byte handles the stage-5 memory manager returns
// instead of 8-byte addresses (Hyperion paper, section 3.2).
//
// A pointer names a chunk by its place in the manager's hierarchy:
//
//   bits  39..34   33..20    19..12  11..0
//         superbin metabin   bin     chunk
//         6 bits   14 bits   8 bits  12 bits
//
// and is stored as that 40-bit number in 5 little-endian bytes, at any
// alignment, inside the caller's byte arrays. The all-zero value is the null
// pointer; the manager never hands out superbin 0, metabin 0, bin 0, chunk 0.
// Only MemoryManager::Resolve turns a pointer into an address.

#ifndef KVLAB_STAGE5_HYPERION_POINTER_H_
#define KVLAB_STAGE5_HYPERION_POINTER_H_

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "kvlab/coding.h"

namespace kvlab::stage5 {

class HyperionPointer {
 public:
  static constexpr size_t kBytes = 5;
  static constexpr int kChunkBits = 12;
  static constexpr int kBinBits = 8;
  static constexpr int kMetabinBits = 14;
  static constexpr int kSuperbinBits = 6;
  static constexpr uint32_t kMaxChunk = (1u << kChunkBits) - 1;
  static constexpr uint32_t kMaxBin = (1u << kBinBits) - 1;
  static constexpr uint32_t kMaxMetabin = (1u << kMetabinBits) - 1;
  static constexpr uint32_t kMaxSuperbin = (1u << kSuperbinBits) - 1;
  // Load and Store move the fields as one 40-bit number.
  static_assert(kSuperbinBits + kMetabinBits + kBinBits + kChunkBits ==
                    8 * kBytes &&
                kBytes == 5);

  // The null pointer.
  constexpr HyperionPointer() = default;

  // Requires every field to be within its maximum above.
  static constexpr HyperionPointer Make(uint32_t superbin, uint32_t metabin,
                                        uint32_t bin, uint32_t chunk) {
    assert(superbin <= kMaxSuperbin && metabin <= kMaxMetabin &&
           bin <= kMaxBin && chunk <= kMaxChunk);
    return HyperionPointer(
        (uint64_t{superbin} << (kChunkBits + kBinBits + kMetabinBits)) |
        (uint64_t{metabin} << (kChunkBits + kBinBits)) |
        (uint64_t{bin} << kChunkBits) | chunk);
  }

  // Reads the 5 bytes at `src` (any alignment).
  static HyperionPointer Load(const uint8_t* src) {
    return HyperionPointer(LoadLE40(src));
  }

  // Writes the 5 bytes at `dst` (any alignment).
  void Store(uint8_t* dst) const { StoreLE40(dst, raw_); }

  constexpr uint32_t superbin() const {
    return uint32_t(raw_ >> (kChunkBits + kBinBits + kMetabinBits));
  }
  constexpr uint32_t metabin() const {
    return uint32_t(raw_ >> (kChunkBits + kBinBits)) & kMaxMetabin;
  }
  constexpr uint32_t bin() const {
    return uint32_t(raw_ >> kChunkBits) & kMaxBin;
  }
  constexpr uint32_t chunk() const { return uint32_t(raw_) & kMaxChunk; }

  constexpr bool IsNull() const { return raw_ == 0; }
  // The 40-bit number, for hashing and printing.
  constexpr uint64_t raw() const { return raw_; }

  friend constexpr bool operator==(HyperionPointer a, HyperionPointer b) {
    return a.raw_ == b.raw_;
  }

 private:
  constexpr explicit HyperionPointer(uint64_t raw) : raw_(raw) {}

  uint64_t raw_ = 0;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_HYPERION_POINTER_H_
