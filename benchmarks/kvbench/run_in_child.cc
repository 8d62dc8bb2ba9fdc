#include "kvbench/run_in_child.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#include "absl/strings/str_cat.h"

namespace kvbench {
namespace {

bool WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += n;
  }
  return true;
}

[[noreturn]] void ChildMain(int write_fd,
                            const std::function<std::string()>& body) {
  int code = 0;
  try {
    if (!WriteAll(write_fd, body())) code = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kvbench child: uncaught exception: %s\n", e.what());
    code = 1;
  }
  std::fflush(stderr);
  // _exit: skip destructors (tearing down a large store only costs time) and
  // never flush stdio buffers inherited from the parent.
  _exit(code);
}

}  // namespace

ChildOutcome RunInChild(const std::function<std::string()>& body,
                        double timeout_seconds) {
  ChildOutcome outcome;
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr.flush();
  int fds[2];
  if (pipe(fds) != 0) {
    outcome.error = absl::StrCat("pipe: ", std::strerror(errno));
    return outcome;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.error = absl::StrCat("fork: ", std::strerror(errno));
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    close(fds[0]);
    ChildMain(fds[1], body);
  }
  close(fds[1]);

  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(timeout_seconds));
  bool timed_out = false;
  char buffer[1 << 16];
  for (;;) {
    int wait_ms = -1;
    if (timeout_seconds > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - Clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<int64_t>(left.count() + 1, 60'000));
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, wait_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // re-check the deadline
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child exited or closed the pipe
    outcome.payload.append(buffer, n);
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    outcome.kind = ChildOutcome::Kind::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    outcome.kind = ChildOutcome::Kind::kSignaled;
    outcome.signal = WTERMSIG(status);
  } else {
    outcome.kind = ChildOutcome::Kind::kExited;
    outcome.exit_code = WEXITSTATUS(status);
  }
  return outcome;
}

std::string DescribeOutcome(const ChildOutcome& outcome) {
  switch (outcome.kind) {
    case ChildOutcome::Kind::kExited:
      return absl::StrCat("exited ", outcome.exit_code);
    case ChildOutcome::Kind::kSignaled:
      return absl::StrCat("crashed: signal ", outcome.signal, " (",
                          strsignal(outcome.signal), ")");
    case ChildOutcome::Kind::kTimedOut:
      return "timed out";
    case ChildOutcome::Kind::kError:
      return absl::StrCat("could not start: ", outcome.error);
  }
  return "unknown";
}

}  // namespace kvbench
