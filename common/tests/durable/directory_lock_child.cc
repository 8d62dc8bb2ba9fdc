// The other process of the directory lock's tests.
//
//   directory_lock_child hold DIR  takes the lock, prints "locked\n", and
//                                  holds it until standard input closes
//                                  (or the process is killed)
//   directory_lock_child try DIR   takes the lock and lets it go; prints the
//                                  refusal, if any, and exits 0 if it got the
//                                  lock, 3 if refused as in use, 1 otherwise

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "kvlab/durable/directory_lock.h"

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "hold") != 0 && std::strcmp(argv[1], "try") != 0)) {
    std::fprintf(stderr, "usage: %s hold|try DIR\n", argv[0]);
    return 2;
  }
  auto lock = kvlab::durable::DirectoryLock::Acquire(argv[2]);
  if (!lock.ok()) {
    std::printf("%s\n", std::string(lock.status().message()).c_str());
    return absl::IsFailedPrecondition(lock.status()) ? 3 : 1;
  }
  if (std::strcmp(argv[1], "hold") == 0) {
    std::printf("locked\n");
    std::fflush(stdout);
    char c;
    while (::read(STDIN_FILENO, &c, 1) > 0) {
    }
  }
  return 0;
}
