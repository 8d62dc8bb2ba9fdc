#include "undo_log.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <utility>

#include "container_scan.h"

namespace kvlab::stage5::hyperion {

void UndoLog::SaveSplice(uint8_t* c, uint32_t pos, uint32_t old_len,
                         uint32_t new_len, uint32_t used) {
  // The header, then the bytes the splice replaces.
  Record record{.kind = Kind::kSplice,
                .address = c,
                .saved = Save(c, kHeaderBytes),
                .length = old_len,
                .pos = pos,
                .new_len = new_len,
                .used = used};
  Save(c + pos, old_len);
  Push(record);
}

HyperionPointer UndoLog::Allocate(
    absl::FunctionRef<HyperionPointer()> allocate) {
  // The record's room first, so that the chunk is never left unrecorded.
  Push(Record{.kind = Kind::kAllocated});
  records_.back().hp = allocate();
  return records_.back().hp;
}

void UndoLog::SavedBytes::Grow(size_t needed) {
  const size_t capacity = std::max(needed, size_t{capacity_} * 2);
  std::unique_ptr<uint8_t[]> block(new uint8_t[capacity]);
  std::memcpy(block.get(), data(), size_);
  heap_ = std::move(block);
  capacity_ = uint32_t(capacity);
}

void UndoLog::Commit(MemoryManager* mm) {
  for (const HyperionPointer hp : freed_) mm->Free(hp);
  Clear();
}

void UndoLog::Undo(MemoryManager* mm) {
  for (size_t i = records_.size(); i-- > 0;) {
    const Record& r = records_[i];
    const uint8_t* saved = saved_.data() + r.saved;
    switch (r.kind) {
      case Kind::kBytes:
        std::memcpy(r.address, saved, r.length);
        break;
      case Kind::kSplice: {
        // The splice made `now` bytes of the `used`; its inverse moves the
        // tail back, puts the old bytes in, and zeroes what the splice
        // added past the old end.
        uint8_t* c = r.address;
        const uint32_t tail = r.used - r.pos - r.length;
        const uint32_t now = r.used - r.length + r.new_len;
        std::memmove(c + r.pos + r.length, c + r.pos + r.new_len, tail);
        std::memcpy(c + r.pos, saved + kHeaderBytes, r.length);
        if (now > r.used) std::memset(c + r.used, 0, now - r.used);
        std::memcpy(c, saved, kHeaderBytes);
        break;
      }
      case Kind::kResized: {
        assert(mm->ResizesInPlace(r.hp, r.length));
        const HyperionPointer same = mm->Reallocate(r.hp, r.length);
        assert(same == r.hp);
        (void)same;
        break;
      }
      case Kind::kAllocated:
        mm->Free(r.hp);
        break;
    }
  }
  Clear();
}

}  // namespace kvlab::stage5::hyperion
