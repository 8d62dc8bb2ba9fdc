// The physical format shared by log files and checkpoint files.
//
// A file is a sequence of kBlockSize-byte blocks. Each block holds physical
// records; a record never crosses a block boundary:
//
//   +--------+--------+------+-------------+-----------------+
//   | crc    | length | type | file number | payload         |
//   | 4 B    | 2 B    | 1 B  | 4 B         | `length` bytes  |
//   +--------+--------+------+-------------+-----------------+
//
// All integers are little-endian. `crc` is the CRC-32C of the 7 + length
// bytes that follow it. `file number` names the file the record was written
// for, so a record left in a reused file by its earlier life is recognised
// as stale, not replayed. When fewer than kHeaderSize bytes remain in a
// block, the writer fills them with zeros and starts the next block.
//
// A logical record (record.h) that does not fit in the rest of a block is cut
// into fragments: kFirst, any number of kMiddle, kLast. One that fits is a
// single kFull record. A header of eleven zero bytes marks the end of what
// was written (files are preallocated with zeros).

#ifndef KVLAB_DURABLE_LOG_FORMAT_H_
#define KVLAB_DURABLE_LOG_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace kvlab::durable {

inline constexpr size_t kBlockSize = 32768;
inline constexpr size_t kHeaderSize = 4 + 2 + 1 + 4;

enum class RecordType : uint8_t {
  kZero = 0,  // never written: the preallocated zeros
  kFull = 1,
  kFirst = 2,
  kMiddle = 3,
  kLast = 4,
};

// The bytes a payload of `size` takes when it starts `block_offset` bytes
// into a block, padding and headers included.
uint64_t FramedSize(uint64_t block_offset, size_t size);

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_LOG_FORMAT_H_
