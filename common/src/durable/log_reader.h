// LogReader: reads back the logical records a LogWriter framed, stopping at
// the first byte it cannot trust.

#ifndef KVLAB_DURABLE_LOG_READER_H_
#define KVLAB_DURABLE_LOG_READER_H_

#include <cstdint>
#include <string>

#include "kvlab/durable/file.h"

namespace kvlab::durable {

// Reads one file sequentially. Not thread-safe.
class LogReader {
 public:
  enum class Result {
    kRecord,   // a whole, checksummed logical record
    kEnd,      // the written part ends here: zeros, the end of the file, or
               // a record stamped with another file number (left by the
               // file's earlier use)
    kCorrupt,  // a damaged or torn record: reason() says what
    kIoError,  // the file could not be read: reason() says why
  };

  // Reads `file` (not owned), expecting records stamped `number`, from byte
  // `offset`, which must be where a record begins.
  LogReader(File* file, uint32_t number, uint64_t offset);

  // The next logical record's payload into `*payload`. After anything but
  // kRecord, every later call returns the same result.
  Result Read(std::string* payload);

  // Where the last record returned starts, or, after a stop, where the
  // first untrusted record starts: the offset the log is cut at.
  uint64_t record_offset() const { return record_offset_; }
  // Why reading stopped (empty while records come).
  const std::string& reason() const { return reason_; }

 private:
  Result Stop(Result result, std::string reason);
  // Makes block_ the block holding offset_; false at the end of the file.
  bool LoadBlock(Result* failure);

  File* const file_;
  const uint32_t number_;
  uint64_t offset_;                    // next physical record to read
  uint64_t record_offset_;             // start of the current logical record
  uint64_t block_start_ = UINT64_MAX;  // file offset of block_
  std::string block_;
  std::string reason_;
  bool stopped_ = false;
  Result stop_result_ = Result::kEnd;
};

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_LOG_READER_H_
