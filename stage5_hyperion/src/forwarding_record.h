// The forwarding record compaction leaves in a chunk it has moved: the
// chunk's new HyperionPointer in its first 5 bytes (every chunk of
// superbins 1..63 has at least 32).
//
// The old chunk stays allocated until FinishCompaction but is poisoned
// whole under ASan, so that an owner touching it through a stale address
// is reported. Only the manager reads or writes the record, through these
// two functions, which ASan does not instrument. They spell out the five
// byte accesses instead of calling HyperionPointer::Load/Store, which
// would be instrumented when not inlined.

#ifndef KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_
#define KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_

#include <cstdint>

#include "kvlab/stage5/hyperion_pointer.h"

namespace kvlab::stage5 {

__attribute__((no_sanitize("address"))) inline void StoreForward(
    char* chunk, HyperionPointer to) {
  const uint64_t raw = to.raw();
  auto* bytes = reinterpret_cast<volatile uint8_t*>(chunk);
  bytes[0] = uint8_t(raw);
  bytes[1] = uint8_t(raw >> 8);
  bytes[2] = uint8_t(raw >> 16);
  bytes[3] = uint8_t(raw >> 24);
  bytes[4] = uint8_t(raw >> 32);
}

__attribute__((no_sanitize("address"))) inline HyperionPointer LoadForward(
    const char* chunk) {
  const auto* bytes = reinterpret_cast<const volatile uint8_t*>(chunk);
  const uint64_t raw = uint64_t{bytes[0]} | uint64_t{bytes[1]} << 8 |
                       uint64_t{bytes[2]} << 16 | uint64_t{bytes[3]} << 24 |
                       uint64_t{bytes[4]} << 32;
  using HP = HyperionPointer;
  return HP::Make(
      uint32_t(raw >> (HP::kChunkBits + HP::kBinBits + HP::kMetabinBits)),
      uint32_t(raw >> (HP::kChunkBits + HP::kBinBits)) & HP::kMaxMetabin,
      uint32_t(raw >> HP::kChunkBits) & HP::kMaxBin,
      uint32_t(raw) & HP::kMaxChunk);
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_
