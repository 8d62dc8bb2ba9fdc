// A progress line on stderr for long phases.
//
// Shown only when stderr is a terminal, and only once a phase has run for
// more than a second: short runs and logs redirected to files stay clean. The
// line is redrawn in place with '\r' and erased when the phase ends.

#ifndef KVBENCH_PROGRESS_H_
#define KVBENCH_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace kvbench {

class Progress {
 public:
  // `label` prefixes every line, e.g. "avl / course".
  explicit Progress(std::string label);
  ~Progress() { Finish(); }

  // Starts a phase of `total` steps (0 when the length is unknown).
  void Start(std::string phase, uint64_t total);

  // Reports `done` steps. Cheap enough to call every few thousand steps:
  // only reads the clock and redraws at most five times a second.
  void Update(uint64_t done);

  // Erases the line if one was drawn.
  void Finish();

 private:
  using Clock = std::chrono::steady_clock;

  bool enabled_;
  std::string label_;
  std::string phase_;
  uint64_t total_ = 0;
  Clock::time_point start_;
  Clock::time_point last_draw_;
  bool drawn_ = false;
};

}  // namespace kvbench

#endif  // KVBENCH_PROGRESS_H_
