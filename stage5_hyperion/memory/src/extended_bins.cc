// Superbin 0: extended records (see extended_record.h).

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <new>

#include "extended_record.h"
#include "kvlab/stage5/memory_manager.h"
#include "poison.h"
#include "superbin.h"

namespace kvlab::stage5 {

ExtendedRecord* MemoryManager::Record(HyperionPointer hp) const {
  assert(hp.superbin() == 0);
  return reinterpret_cast<ExtendedRecord*>((*superbins_)[0].Address(hp));
}

HyperionPointer MemoryManager::AllocateExtended(
    size_t size, Fit fit, std::initializer_list<std::string_view> parts) {
  // handout: MemoryManager::AllocateExtended -> #sizes-zeroing-and-reallocation
  const size_t held =
      fit == Fit::kExact ? ExactHeldSize(size) : ExtendedHeldSize(size);
  char* block = static_cast<char*>(std::malloc(held));
  if (block == nullptr) throw std::bad_alloc();
  ChunkLocation chunk;
  try {
    chunk = (*superbins_)[0].Allocate();
  } catch (const std::bad_alloc&) {
    std::free(block);
    throw;
  }
  const size_t filled = CopyParts(block, parts);
  std::memset(block + filled, 0, held - filled);
  PoisonRegion(block + size, held - size);
  UnpoisonRegion(chunk.address, kExtendedRecordSize);
  auto* record = reinterpret_cast<ExtendedRecord*>(chunk.address);
  record->flags = ExtendedRecord::kInUse;
  record->block = block;
  record->requested = uint32_t(size);
  record->overallocation = uint16_t(held - size);
  requested_bytes_[0] += size;
  extended_heap_bytes_ += held;
  return chunk.hp;
  // handout: end
}

void MemoryManager::ResizeBlock(ExtendedRecord* record, size_t new_size) {
  ResizeBlock(record, new_size, HeldSizeAfterResize(record->held(), new_size));
}

void MemoryManager::ResizeBlock(ExtendedRecord* record, size_t new_size,
                                size_t new_held) {
  // handout: MemoryManager::ResizeBlock -> #sizes-zeroing-and-reallocation
  const size_t old_size = record->requested;
  const size_t old_held = record->held();
  char* block = record->block;
  if (new_held == old_held) {
    // The common case of a 32-byte growth: the over-allocation absorbs it.
    if (new_size < old_size) {
      std::memset(block + new_size, 0, old_size - new_size);
      PoisonRegion(block + new_size, new_held - new_size);
    } else {
      UnpoisonRegion(block, new_size);
    }
  } else {
    UnpoisonRegion(block, old_held);  // realloc copies and frees it all
    if (new_held == 0) {
      std::free(block);
      block = nullptr;
    } else {
      char* moved = static_cast<char*>(std::realloc(block, new_held));
      if (moved == nullptr) {
        // realloc left the block as it was; so is everything else.
        PoisonRegion(block + old_size, old_held - old_size);
        throw std::bad_alloc();
      }
      block = moved;
      // Bytes past new_size that survived the move must be zero.
      if (new_size < old_size) {
        std::memset(block + new_size, 0,
                    std::min(old_size, new_held) - new_size);
      }
      if (new_held > old_held) {
        std::memset(block + old_held, 0, new_held - old_held);
      }
      PoisonRegion(block + new_size, new_held - new_size);
    }
  }
  record->block = block;
  record->requested = uint32_t(new_size);
  record->overallocation = uint16_t(new_held - new_size);
  requested_bytes_[0] += new_size;
  requested_bytes_[0] -= old_size;
  extended_heap_bytes_ += new_held;
  extended_heap_bytes_ -= old_held;
  // handout: end
}

void MemoryManager::FreeExtended(HyperionPointer hp) {
  // handout: MemoryManager::FreeExtended -> #sizes-zeroing-and-reallocation
  ExtendedRecord* record = Record(hp);
  assert(record->flags == ExtendedRecord::kInUse);
  ResizeBlock(record, 0, 0);
  std::memset(record, 0, kExtendedRecordSize);
  PoisonRegion(record, kExtendedRecordSize);
  (*superbins_)[0].Free(hp);
  // handout: end
}

}  // namespace kvlab::stage5
