// One grade, in this process: the course evaluation of one store.
//
//   1. generate N course pairs (kvbench's `course` data set) and trim the
//      heap; read the baseline (RssAnon, CPU time);
//   2. load: Put every pair, checking each reports a new key, stopping at
//      the load time limit, then the source's finish_load if it has one
//      (ect's merge of its buffer), timed with the load;
//   3. memory: RssAnon growth after load / N is bytes_per_key;
//   4. checked phase: 10,000 operations against an oracle (kvbench's
//      RunCheckedCourse), stopped at the check time limit;
//   5. timed phase: T threads for S seconds of the course mix on the store
//      (wrapped in a LockedStore unless it is thread-safe itself).
// An unordered source runs phases 4 and 5 without GetNth and DeleteNth.
// The first wrong answer ends the grade with `correct` 0 and the message.

#ifndef KVGRADE_GRADE_RUN_H_
#define KVGRADE_GRADE_RUN_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kvlab/grade.h"

namespace kvgrade {

// The metrics a rubric may judge, in the order the block prints them.
const std::vector<std::string>& GradeMetricNames();

struct GradeOptions {
  std::string stage;  // rubric stage; empty: the source's
  uint64_t n = 10'000'000;
  int threads = 4;
  double seconds = 10;
  uint64_t seed = 42;
  uint64_t checked_operations = 10'000;
  double load_timeout = 600;   // seconds
  double check_timeout = 300;  // seconds
  std::string rubric;          // path
  std::string json;            // path, or empty
  bool allow_debug = false;
};

struct GradeResult {
  bool correct = false;
  std::string failure;  // why not correct: the first wrong answer, a limit
  std::map<std::string, double> metrics;  // GradeMetricNames() and more
  uint64_t loaded = 0;                    // pairs loaded
  uint64_t checked = 0;                   // checked operations done
};

GradeResult RunGrade(const kvlab::grade::GradeSource& source,
                     const GradeOptions& options);

}  // namespace kvgrade

#endif  // KVGRADE_GRADE_RUN_H_
