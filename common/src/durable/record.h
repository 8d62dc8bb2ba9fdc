// The logical records of logs and checkpoints: what one payload of the
// physical format (log_format.h) says.
//
//   log files:         kPut    seq, key, value
//                      kDelete seq, key
//                      kNextFile  the number of the file the log goes on in
//   checkpoint files:  kCheckpointBegin  seq covered, first log file after
//                      kPair   key, value        (in key order)
//                      kCheckpointEnd    number of pairs
//
// Encoding: one op byte, then the fields: seq as 8 bytes, file numbers as
// 4 bytes, offsets and counts as 8 bytes (all little-endian), strings as a
// varint32 length and the bytes.

#ifndef KVLAB_DURABLE_RECORD_H_
#define KVLAB_DURABLE_RECORD_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace kvlab::durable {

enum class Op : uint8_t {
  kPut = 1,
  kDelete = 2,
  kNextFile = 3,
  kCheckpointBegin = 4,
  kPair = 5,
  kCheckpointEnd = 6,
};

// A decoded record. The views point into the payload it was decoded from.
struct Record {
  Op op = Op::kPut;
  uint64_t seq = 0;        // kPut, kDelete, kCheckpointBegin
  uint32_t file = 0;       // kNextFile, kCheckpointBegin
  uint64_t offset = 0;     // kCheckpointBegin
  uint64_t count = 0;      // kCheckpointEnd
  std::string_view key;    // kPut, kDelete, kPair
  std::string_view value;  // kPut, kPair
};

// Replaces `*out` with the encoding of `record` (only its op's fields).
void EncodeRecord(const Record& record, std::string* out);

// Decodes `payload`; false if it is not exactly one well-formed record.
bool DecodeRecord(std::string_view payload, Record* record);

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_RECORD_H_
