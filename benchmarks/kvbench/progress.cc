#include "kvbench/progress.h"

#include <unistd.h>

#include <cstdio>

namespace kvbench {

Progress::Progress(std::string label)
    : enabled_(isatty(STDERR_FILENO) == 1), label_(std::move(label)) {}

void Progress::Start(std::string phase, uint64_t total) {
  Finish();
  phase_ = std::move(phase);
  total_ = total;
  start_ = last_draw_ = Clock::now();
}

void Progress::Update(uint64_t done) {
  if (!enabled_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) ||
      now - last_draw_ < std::chrono::milliseconds(200)) {
    return;
  }
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (total_ > 0) {
    std::fprintf(stderr, "\r\033[K%s: %s %.0f%% (%.0f s)", label_.c_str(),
                 phase_.c_str(), 100.0 * done / total_, elapsed);
  } else {
    std::fprintf(stderr, "\r\033[K%s: %s (%.0f s)", label_.c_str(),
                 phase_.c_str(), elapsed);
  }
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::Finish() {
  if (drawn_) {
    std::fputs("\r\033[K", stderr);  // carriage return, erase to end of line
    std::fflush(stderr);
    drawn_ = false;
  }
}

}  // namespace kvbench
