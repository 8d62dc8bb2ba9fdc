// LogRing: the fixed set of log files a durable store writes its log into,
// reused in turn.
//
// The ring is N files named log-0 ... log-(N-1), each preallocated to the
// same size when the directory is created, and never resized after. Log file
// number k lives in file log-(k mod N); every record carries its file number
// (log_format.h), so what an earlier number left in a file reads as stale.
// A ring for a store that syncs is preallocated by writing its zeros: since
// writes then overwrite blocks that already exist, an fdatasync has only data
// to flush, never the file's size or block map. A ring for a store that never
// syncs is preallocated sparse (the files read as zeros just the same), so
// opening one costs no disk writes.

#ifndef KVLAB_DURABLE_LOG_RING_H_
#define KVLAB_DURABLE_LOG_RING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/durable/file.h"

namespace kvlab::durable {

// Not thread-safe; the durable store's leader is its one user.
class LogRing {
 public:
  // How a new or short file is brought to its full size.
  enum class Preallocation {
    kWriteZeros,  // zeros written and synced: fast fdatasync later
    kSparse,      // one byte at the end: a hole that reads as zeros
  };

  // Opens the ring in `dir`, or creates one of `files` files of `file_bytes`
  // each (a multiple of kBlockSize) if there is none. An existing ring keeps
  // the geometry it was created with; files missing or short from a crash
  // during creation are completed.
  static absl::StatusOr<std::unique_ptr<LogRing>> Open(
      Env* env, const std::string& dir, uint32_t files, uint64_t file_bytes,
      Preallocation preallocation = Preallocation::kWriteZeros);

  uint32_t size() const { return static_cast<uint32_t>(files_.size()); }
  uint64_t file_bytes() const { return file_bytes_; }
  uint32_t SlotOf(uint32_t number) const { return number % size(); }
  File* FileFor(uint32_t number) const { return files_[SlotOf(number)].get(); }
  // "log-3", for reports.
  std::string NameFor(uint32_t number) const;

  // The largest file number on a valid first record of any file (0 if
  // none): new numbers are chosen above it, so no file can ever hold stale
  // records stamped with the number it is being written under.
  absl::StatusOr<uint32_t> LargestStampedNumber() const;

 private:
  LogRing() = default;
  std::vector<std::unique_ptr<File>> files_;
  uint64_t file_bytes_ = 0;
};

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_LOG_RING_H_
