// One run: the phases of one store over one data set, in this process.
//
// kvbench calls RunBenchmark inside a forked child (run_in_child.h), so the
// memory readings below start from a clean process:
//   1. generate the data set, the get order and (to verify the scan) the
//      sorted order; trim the heap, reset the peak, read the baseline;
//   2. load: Put every pair, timed; trim, read RssAnon and VmHWM again;
//   3. get: every key in another random order, timed;
//   4. scan: one full ordered Scan from "", timed;
//   5. course: the checked phase against an oracle, then the timed phase on
//      the store wrapped by kvlab::MakeThreadSafe.
// Every answer is verified unless `verify` is false; the first failed check
// ends the run with RunRecord::ok false and the reason in error.

#ifndef KVBENCH_RUNNER_H_
#define KVBENCH_RUNNER_H_

#include <cstdint>
#include <string>

#include "kvbench/options.h"
#include "kvbench/run_record.h"
#include "kvlab/registry.h"

namespace kvbench {

// Checked course operations, as in the course's benchmark.
inline constexpr uint64_t kCourseCheckedOperations = 10'000;

struct RunRequest {
  std::string spec;  // the store, e.g. "avl"
  kvlab::StoreInfo info;
  std::string dataset;
  uint64_t n = 0;
  uint64_t seed = 42;
  bool verify = true;
  PhaseSet phases;
  int threads = 2;
  double seconds = 2;
  uint64_t course_ops = 0;  // per thread; 0: run for `seconds`
  // --durable: "none", "every" or "group" wraps the store in a durable
  // store in a fresh directory under durable_dir; empty: not durable.
  std::string durable;
  std::string durable_dir;
  // What the store is built from when it differs from `spec`: for a store
  // that keeps files, `spec` with the run's own directory
  // (run_directory.h). Empty: `spec`.
  std::string build_spec;
};

RunRecord RunBenchmark(const RunRequest& request);

}  // namespace kvbench

#endif  // KVBENCH_RUNNER_H_
