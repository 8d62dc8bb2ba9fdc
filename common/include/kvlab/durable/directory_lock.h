// One owner per on-disk directory: a store that keeps its data in a directory
// holds this lock for as long as it is open, so that a second opener -- a
// thread of this process or another process -- is refused instead of
// writing over the first one's log.
//
//   absl::StatusOr<std::unique_ptr<DirectoryLock>> lock =
//       DirectoryLock::Acquire("/var/kv");
//   if (!lock.ok()) return lock.status();  // "/var/kv is in use by ..."
//   // ... read and write the directory; the lock goes with *lock.

#ifndef KVLAB_DURABLE_DIRECTORY_LOCK_H_
#define KVLAB_DURABLE_DIRECTORY_LOCK_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace kvlab::durable {

// Holds an exclusive lock on `dir`/LOCK while alive. The lock is advisory
// (flock on the file LOCK, which the lock creates and leaves in place): it
// keeps out every opener that asks for it, whatever path it names the
// directory by. It is released when the object is destroyed and by the
// kernel when the process dies, however it dies (kill -9 included), so a
// crash never leaves a directory locked.
//
// While held, LOCK contains the holder's process id in decimal, which a
// refused opener reports. A child made by fork() shares the lock until it
// exits or calls exec (the descriptor is close-on-exec).
//
// Thread-safe: Acquire may be called from any thread; one DirectoryLock is
// not shared between threads.
class DirectoryLock {
 public:
  // Locks `dir`/LOCK, creating the file if needed; `dir` must exist. Fails
  // with FailedPrecondition naming the directory and, where known, the
  // holder's pid if another holder (this or another process) has it; with
  // the system's error (NotFound, PermissionDenied, ...) if the file cannot
  // be opened or locked.
  static absl::StatusOr<std::unique_ptr<DirectoryLock>> Acquire(
      const std::string& dir);

  ~DirectoryLock();
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;

  // The directory as given to Acquire.
  const std::string& dir() const { return dir_; }

 private:
  DirectoryLock(std::string dir, int fd, uint64_t device, uint64_t inode);

  const std::string dir_;
  const int fd_;
  // The LOCK file's identity, the key of this process's table of held locks.
  const uint64_t device_;
  const uint64_t inode_;
};

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_DIRECTORY_LOCK_H_
