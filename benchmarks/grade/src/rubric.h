// The grading rubric: per stage, thresholds on the grade's metrics, each
// worth some points. It lives in a data file (benchmarks/rubric.txt) so an
// instructor changes a threshold without touching code. One line per rule,
// whitespace-separated, '#' starts a comment:
//
//   # stage   metric          op  threshold  points
//   stage1    correct         ==  1          40
//   stage1    tps             >=  100000     20
//   *         load_seconds    <=  300        10
//
// A rule whose stage is '*' applies to every stage. A stage handed out as
// several assignments may give one its own lines ("stage4_wormhole"): for
// that assignment they replace the stage's lines of the same metric, and
// the stage's other lines still apply. The metrics are those
// GradeMetrics names (grade_run.h): correct, load_seconds, tps,
// cpu_seconds, peak_rss_mib, bytes_per_key. The operators are >=, <= and ==.
//
// The same file holds the parts only a submission grade judges (make grade
// SUBMISSION=dir, benchmarks/grade/submission/): the metrics
// SubmissionPartNames() lists, which may also use the operator `share`,
// and the workload lines that compare a submission with the kit's reference
// store run beside it: the operators `x>=` and `x<=` (the metric is at
// least, or at most, threshold times the reference's) and the floors `min`
// and `max` that gate them, on any workload metric but correct.
// ParseRubric checks those lines like any other and then leaves them out:
// kvgrade alone has no reference, and judges the absolute lines.

#ifndef KVGRADE_RUBRIC_H_
#define KVGRADE_RUBRIC_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kvgrade {

struct RubricRule {
  std::string stage;   // "stage1", "stage4_wormhole", or "*" for every stage
  std::string metric;  // "tps"
  std::string op;      // ">=", "<=" or "=="
  double threshold = 0;
  int points = 0;
  int line = 0;  // in the rubric file, for messages
};

// The metrics of the submission grade's parts: build, test_groups,
// asan_clean, tsan_clean, private_tests.
const std::vector<std::string>& SubmissionPartNames();

// Parses rubric text; an error names the line and what is wrong with it.
// `known_metrics` are the names a rule may use besides the submission
// parts, whose lines are checked and left out of the result.
absl::StatusOr<std::vector<RubricRule>> ParseRubric(
    std::string_view text, const std::vector<std::string>& known_metrics);

absl::StatusOr<std::vector<RubricRule>> ReadRubric(
    const std::string& path, const std::vector<std::string>& known_metrics);

// The stage an assignment belongs to: "stage4" for "stage4_wormhole" (and
// for "stage4"); a name that is not stageN[_...] is its own stage.
std::string_view StageOfAssignment(std::string_view assignment);

// The rules for `stage`, a stage or an assignment of one, in file order:
// the '*' ones, the assignment's own, and its stage's for the metrics the
// assignment has no line of its own for.
std::vector<RubricRule> RulesFor(const std::vector<RubricRule>& rules,
                                 std::string_view stage);

// The stages and assignments the rubric names (without '*').
std::vector<std::string> StagesOf(const std::vector<RubricRule>& rules);

// Whether the rubric has lines for `stage`, or for the stage an assignment
// belongs to.
bool RubricKnows(const std::vector<RubricRule>& rules, std::string_view stage);

struct RuleResult {
  RubricRule rule;
  double value = 0;  // NaN if the metric was not measured
  bool pass = false;
};

struct Verdict {
  std::vector<RuleResult> lines;
  int score = 0;      // points of the passed lines; 0 if incorrect
  int max_score = 0;  // points of every line
  bool pass = false;  // every line passed
};

// Judges `metrics` by `rules`. A metric that is absent (NaN) fails its
// line. If the metric "correct" is not 1, the score is 0 whatever else
// passed: a wrong store gets no points for speed.
Verdict Judge(const std::vector<RubricRule>& rules,
              const std::map<std::string, double>& metrics);

}  // namespace kvgrade

#endif  // KVGRADE_RUBRIC_H_
