// Running a function in a forked child process.
//
// kvbench runs every (store, data set) pair in a fresh child: its memory
// readings then start clean, and a store that crashes takes down only its
// own run. The child sends its result back through a pipe as bytes; the
// parent reads them, reaps the child and reports how it ended.

#ifndef KVBENCH_RUN_IN_CHILD_H_
#define KVBENCH_RUN_IN_CHILD_H_

#include <functional>
#include <string>

namespace kvbench {

struct ChildOutcome {
  enum class Kind {
    kExited,    // the child exited; see exit_code and payload
    kSignaled,  // the child was killed by `signal` (a crash)
    kTimedOut,  // the parent killed it after the timeout
    kError,     // fork or pipe failed; see error
  };
  Kind kind = Kind::kError;
  int exit_code = 0;
  int signal = 0;
  std::string payload;  // everything the child's body returned
  std::string error;
};

// Forks; the child runs `body` and writes what it returns to the parent,
// then exits with status 0 without running destructors or atexit handlers
// (an uncaught exception exits 1 instead, with the message on stderr). The
// parent waits at most `timeout_seconds` (0: forever), then kills the child
// with SIGKILL.
//
// Call only while the process has a single thread; stdio is flushed first
// so buffered output is not written twice.
ChildOutcome RunInChild(const std::function<std::string()>& body,
                        double timeout_seconds);

// "exited 3", "crashed: signal 11 (Segmentation fault)", ...
std::string DescribeOutcome(const ChildOutcome& outcome);

}  // namespace kvbench

#endif  // KVBENCH_RUN_IN_CHILD_H_
