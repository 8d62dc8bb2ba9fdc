// Superbin 0's chunk: a 16-byte extended record owning one heap block
// (Hyperion paper, section 3.2: heap pointer, requested size,
// over-allocation, two bytes of flags).
//
// Invariants: block is null iff requested is 0; the block holds
// requested + overallocation bytes, from ExactHeldSize(requested) (an
// exact-fit block) to ExtendedHeldSize(requested) (one with room to grow),
// and the bytes past `requested` are zero (and poisoned under ASan).

#ifndef KVLAB_STAGE5_SRC_EXTENDED_RECORD_H_
#define KVLAB_STAGE5_SRC_EXTENDED_RECORD_H_

#include <cstdint>

#include "kvlab/stage5/size_classes.h"

namespace kvlab::stage5 {

struct ExtendedRecord {
  enum Flags : uint16_t {
    kInUse = 1,  // owned by a pointer
  };

  char* block;
  uint32_t requested;
  uint16_t overallocation;
  uint16_t flags;

  uint64_t held() const { return uint64_t{requested} + overallocation; }
};

static_assert(sizeof(ExtendedRecord) == kExtendedRecordSize);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SRC_EXTENDED_RECORD_H_
