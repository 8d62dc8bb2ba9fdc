// The forwarding record compaction leaves in a chunk it has moved: the
// chunk's new HyperionPointer in its first 5 bytes (every chunk of
// superbins 1..63 has at least 32).
//
// The old chunk stays allocated until FinishCompaction but is poisoned
// whole under ASan, so that an owner touching it through a stale address
// is reported. Only the manager reads or writes the record, through these
// two functions, which ASan does not instrument. They copy the five bytes
// one by one between the chunk and a local buffer, which HyperionPointer's
// Load and Store then decode: those are instrumented when not inlined, and
// must not touch the poisoned chunk themselves. The chunk's bytes are
// volatile so that g++ cannot turn the copy into a call to memcpy, which
// ASan checks.

#ifndef KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_
#define KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_

#include <cstddef>
#include <cstdint>

#include "kvlab/stage5/hyperion_pointer.h"

namespace kvlab::stage5 {

__attribute__((no_sanitize("address"))) inline void StoreForward(
    char* chunk, HyperionPointer to) {
  uint8_t record[HyperionPointer::kBytes];
  to.Store(record);
  auto* bytes = reinterpret_cast<volatile uint8_t*>(chunk);
  for (size_t i = 0; i < HyperionPointer::kBytes; ++i) bytes[i] = record[i];
}

__attribute__((no_sanitize("address"))) inline HyperionPointer LoadForward(
    const char* chunk) {
  uint8_t record[HyperionPointer::kBytes];
  const auto* bytes = reinterpret_cast<const volatile uint8_t*>(chunk);
  for (size_t i = 0; i < HyperionPointer::kBytes; ++i) record[i] = bytes[i];
  return HyperionPointer::Load(record);
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_FORWARDING_RECORD_H_
