#include "durable/exercises.h"

#include <algorithm>

#include "durable/log_format.h"

namespace kvlab::durable {

uint64_t PhysicalRecordsFor(uint64_t block_offset, size_t size) {
  // handout: PhysicalRecordsFor -> durability.md#exercises
  uint64_t room = kBlockSize - block_offset;
  if (room < kHeaderSize) room = kBlockSize;  // a trailer, then a new block
  const uint64_t first = room - kHeaderSize;  // payload the first one takes
  if (size <= first) return 1;
  const uint64_t per_block = kBlockSize - kHeaderSize;
  return 1 + (size - first + per_block - 1) / per_block;
  // handout: end
}

uint64_t LogBytesFor(uint64_t block_offset, size_t size) {
  // handout: LogBytesFor -> durability.md#exercises
  uint64_t total = 0;
  uint64_t room = kBlockSize - block_offset;
  if (room < kHeaderSize) {
    total += room;  // the zero trailer
    room = kBlockSize;
  }
  uint64_t left = size;
  bool first = true;
  while (first || left > 0) {
    const uint64_t n = std::min<uint64_t>(left, room - kHeaderSize);
    total += kHeaderSize + n;
    left -= n;
    // A record continues only after filling its block to the end.
    room -= kHeaderSize + n;
    if (room == 0) room = kBlockSize;
    first = false;
  }
  return total;
  // handout: end
}

}  // namespace kvlab::durable
