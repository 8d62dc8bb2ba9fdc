// kvbench's command line, checked: what to run and how.
//
// main.cc reads the flags into RawOptions; ValidateOptions checks ranges and
// lists and resolves store specs against the registry, so every mistake is
// reported before any run starts (and tests can exercise the rules).

#ifndef KVBENCH_OPTIONS_H_
#define KVBENCH_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/registry.h"

namespace kvbench {

inline constexpr int64_t kMaxN = 200'000'000;
inline constexpr int64_t kMaxCourseOps = 1'000'000'000;

// Which phases run. course_all runs the course phase on every data set; plain
// course only on the `course` data set.
struct PhaseSet {
  bool load = false;
  bool get = false;
  bool scan = false;
  bool course = false;
  bool course_all = false;

  // Should the course phase run on data set `dataset`?
  bool CourseOn(std::string_view dataset) const {
    return course_all || (course && dataset == "course");
  }
  std::string ToString() const;
};

// "load,get,scan,course" into a PhaseSet. Every phase needs the store
// loaded, so any phase requires load.
absl::StatusOr<PhaseSet> ParsePhases(std::string_view text);

// The flags as given.
struct RawOptions {
  std::string store = "all";
  std::string dataset = "course,seq_int,rand_int,words";
  int64_t n = 1'000'000;
  int64_t threads = 2;
  double seconds = 2;
  int64_t course_ops = 0;
  uint64_t seed = 42;
  int64_t repeat = 1;
  std::string json;
  bool verify = true;
  std::string phases = "load,get,scan,course";
  bool allow_debug = false;
  double max_predicted_seconds = 120;
  double child_timeout = 1800;
  bool allow_memory_overcommit = false;
  std::string durable;
  std::string durable_dir;
  std::string dir;
};

struct StoreChoice {
  std::string spec;       // as given, e.g. "btree:order=8"
  kvlab::StoreInfo info;  // its registered kind (for flags and the name)
};

struct BenchOptions {
  std::vector<StoreChoice> stores;
  std::vector<std::string> datasets;
  uint64_t n = 0;
  int threads = 0;
  double seconds = 0;
  // Operations per thread of the course timed phase; 0: run for `seconds`.
  uint64_t course_ops = 0;
  uint64_t seed = 0;
  int repeat = 0;
  std::string json_path;
  bool verify = true;
  PhaseSet phases;
  bool allow_debug = false;
  double max_predicted_seconds = 0;
  double child_timeout = 0;
  bool allow_memory_overcommit = false;  // skip the memory guard
  std::string durable;                   // "", "none", "every" or "group"
  std::string durable_dir;  // parent of each run's directory; "": $TMPDIR
  // Parent of the directory each run of a store that keeps files (ect) gets,
  // fresh and removed after; "": the system's temporary directory.
  std::string dir;
};

// Checks `raw` and resolves it against `registry`: --store "all" means every
// registered store; each spec must build (the registry's error lists what
// exists). Errors are InvalidArgument with a message fit for the user.
absl::StatusOr<BenchOptions> ValidateOptions(
    const RawOptions& raw, const kvlab::StoreRegistry& registry);

// A comma list split into its non-empty, whitespace-trimmed items.
std::vector<std::string> SplitList(std::string_view text);

}  // namespace kvbench

#endif  // KVBENCH_OPTIONS_H_
