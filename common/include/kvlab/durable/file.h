// The file system as kvlab's on-disk stores see it: a few calls, each
// returning a status, so that a test can put a file system that fails on
// command (or forgets what was not synced; kvlab/testing/fault_env.h)
// underneath a store's log, checkpoints or pages.
//
// The promises are those of POSIX on Linux: data written to a File survives
// a crash of the machine only once Sync() returned OK; a new name, a rename
// or a removal survives only once SyncDir() of its directory returned OK.

#ifndef KVLAB_DURABLE_FILE_H_
#define KVLAB_DURABLE_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kvlab::durable {

// One open file, read and written at explicit offsets. Not thread-safe: the
// durable store gives each file one user at a time.
class File {
 public:
  virtual ~File() = default;

  // Reads up to `n` bytes at `offset` into `*out` (replacing its contents);
  // fewer at the end of the file.
  virtual absl::Status Read(uint64_t offset, size_t n, std::string* out) = 0;

  // Writes all of `data` at `offset`, extending the file if needed. On error
  // any prefix of `data` may have been written.
  virtual absl::Status Write(uint64_t offset, std::string_view data) = 0;

  // Makes the data written so far durable (fdatasync: the file's size and
  // blocks, not its times).
  virtual absl::Status Sync() = 0;

  virtual absl::StatusOr<uint64_t> Size() = 0;
};

// Thread-safe: the calls may come from any thread.
class Env {
 public:
  virtual ~Env() = default;

  // Opens `path` for reading and writing, creating it (empty) if `create`.
  virtual absl::StatusOr<std::unique_ptr<File>> Open(const std::string& path,
                                                     bool create) = 0;
  // Creates directory `path` if it does not exist.
  virtual absl::Status CreateDir(const std::string& path) = 0;
  // The names (not paths) in directory `path`, without "." and "..".
  virtual absl::StatusOr<std::vector<std::string>> List(
      const std::string& path) = 0;
  // Atomically replaces `to` by `from`.
  virtual absl::Status Rename(const std::string& from,
                              const std::string& to) = 0;
  virtual absl::Status Remove(const std::string& path) = 0;
  // Makes the names in directory `path` durable (fsync of the directory).
  virtual absl::Status SyncDir(const std::string& path) = 0;
};

// The real file system (POSIX calls). Never destroyed.
Env* DefaultEnv();

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_FILE_H_
