#include "kvlab/durable/directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <mutex>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace kvlab::durable {
namespace {

// The LOCK files this process holds, by (device, inode). flock alone refuses
// a second descriptor of the same process, but not where the kernel emulates
// it with fcntl locks (NFS), which a process never conflicts with itself on;
// the table also names the cause precisely. Guarded by TableMutex(), which
// is held across the whole of Acquire and of the release, so that a lock
// being released is never seen half gone by another thread.
std::mutex& TableMutex() {
  static std::mutex* const mutex = new std::mutex;
  return *mutex;
}
std::set<std::pair<uint64_t, uint64_t>>& Table() {
  static auto* const table = new std::set<std::pair<uint64_t, uint64_t>>;
  return *table;
}

absl::Status PosixError(const char* what, const std::string& path, int err) {
  return absl::Status(absl::ErrnoToStatusCode(err),
                      absl::StrCat(what, " ", path, ": ", std::strerror(err)));
}

// The holder's pid as written in LOCK, or 0 if the file holds none (the
// holder has not written it yet, or failed to).
int64_t HolderPid(int fd) {
  char buf[32];
  const ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return 0;
  int64_t pid = 0;
  const auto [end, error] = std::from_chars(buf, buf + n, pid);
  if (error != std::errc() || end == buf || pid <= 0) return 0;
  return pid;
}

}  // namespace

absl::StatusOr<std::unique_ptr<DirectoryLock>> DirectoryLock::Acquire(
    const std::string& dir) {
  const std::string path = dir + "/LOCK";
  std::lock_guard guard(TableMutex());
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return PosixError("open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return PosixError("stat", path, err);
  }
  const std::pair<uint64_t, uint64_t> id(st.st_dev, st.st_ino);
  if (Table().count(id) != 0) {
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("directory ", dir, " is in use: this process (pid ",
                     ::getpid(), ") already has it open (", path, ")"));
  }
  int rc;
  do {
    rc = ::flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int err = errno;
    if (err != EWOULDBLOCK) {
      ::close(fd);
      return PosixError("flock", path, err);
    }
    const int64_t pid = HolderPid(fd);
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("directory ", dir, " is in use: ",
                     pid > 0 ? absl::StrCat("process ", pid, " holds its lock")
                             : std::string("another process holds its lock"),
                     " (", path, "); one process at a time may open it"));
  }
  // Record who holds it, for the message of a refused opener. Best effort:
  // the lock stands without it (a full disk may refuse even these bytes).
  const std::string pid = absl::StrCat(::getpid(), "\n");
  if (::ftruncate(fd, 0) == 0) {
    (void)!::pwrite(fd, pid.data(), pid.size(), 0);
  }
  Table().insert(id);
  return std::unique_ptr<DirectoryLock>(
      new DirectoryLock(dir, fd, id.first, id.second));
}

DirectoryLock::DirectoryLock(std::string dir, int fd, uint64_t device,
                             uint64_t inode)
    : dir_(std::move(dir)), fd_(fd), device_(device), inode_(inode) {}

DirectoryLock::~DirectoryLock() {
  std::lock_guard guard(TableMutex());
  // A pid left behind would name a process that no longer holds the lock.
  (void)!::ftruncate(fd_, 0);
  ::close(fd_);  // releases the flock
  Table().erase({device_, inode_});
}

}  // namespace kvlab::durable
