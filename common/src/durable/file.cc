#include "kvlab/durable/file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::durable {
namespace {

// `what` on `path` failed with errno `err`, as a status of Abseil's matching
// code: a full disk (ENOSPC) is ResourceExhausted, a missing file NotFound,
// a refused permission PermissionDenied.
absl::Status PosixError(std::string_view what, const std::string& path,
                        int err) {
  return absl::Status(
      absl::ErrnoToStatusCode(err),
      absl::StrCat(ToAbsl(what), " ", path, ": ", std::strerror(err)));
}

class PosixFile final : public File {
 public:
  PosixFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~PosixFile() override { ::close(fd_); }

  absl::Status Read(uint64_t offset, size_t n, std::string* out) override {
    out->resize(n);
    size_t done = 0;
    while (done < n) {
      ssize_t r = ::pread(fd_, out->data() + done, n - done,
                          static_cast<off_t>(offset + done));
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError("read", path_, errno);
      }
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    out->resize(done);
    return absl::OkStatus();
  }

  absl::Status Write(uint64_t offset, std::string_view data) override {
    while (!data.empty()) {
      ssize_t w =
          ::pwrite(fd_, data.data(), data.size(), static_cast<off_t>(offset));
      if (w < 0) {
        if (errno == EINTR) continue;
        return PosixError("write", path_, errno);
      }
      data.remove_prefix(static_cast<size_t>(w));
      offset += static_cast<uint64_t>(w);
    }
    return absl::OkStatus();
  }

  absl::Status Sync() override {
    if (::fdatasync(fd_) != 0) return PosixError("fdatasync", path_, errno);
    return absl::OkStatus();
  }

  absl::StatusOr<uint64_t> Size() override {
    struct stat st;
    if (::fstat(fd_, &st) != 0) return PosixError("stat", path_, errno);
    return static_cast<uint64_t>(st.st_size);
  }

 private:
  const std::string path_;
  const int fd_;
};

class PosixEnv final : public Env {
 public:
  absl::StatusOr<std::unique_ptr<File>> Open(const std::string& path,
                                             bool create) override {
    int fd =
        ::open(path.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0644);
    if (fd < 0) return PosixError("open", path, errno);
    return std::unique_ptr<File>(new PosixFile(path, fd));
  }

  absl::Status CreateDir(const std::string& path) override {
    if (::mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) {
      return PosixError("mkdir", path, errno);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<std::string>> List(
      const std::string& path) override {
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr) return PosixError("opendir", path, errno);
    // Closed however this returns: a name that finds no memory throws.
    std::unique_ptr<DIR, int (*)(DIR*)> closer(dir, ::closedir);
    std::vector<std::string> names;
    errno = 0;
    while (struct dirent* entry = ::readdir(dir)) {
      std::string_view name = entry->d_name;
      if (name != "." && name != "..") names.emplace_back(name);
    }
    const int err = errno;
    closer.reset();
    if (err != 0) return PosixError("readdir", path, err);
    return names;
  }

  absl::Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return PosixError(absl::StrCat("rename to ", to, " of"), from, errno);
    }
    return absl::OkStatus();
  }

  absl::Status Remove(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return PosixError("unlink", path, errno);
    return absl::OkStatus();
  }

  absl::Status SyncDir(const std::string& path) override {
    int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError("open", path, errno);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return PosixError("fsync", path, err);
    return absl::OkStatus();
  }
};

}  // namespace

Env* DefaultEnv() {
  static Env* const env = new PosixEnv();
  return env;
}

}  // namespace kvlab::durable
