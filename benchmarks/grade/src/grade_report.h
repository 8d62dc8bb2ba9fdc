// The grade's output: the fixed block scripts parse, and the JSON object.
//
// The block is line-oriented, "key: value" between two marker lines, in a
// fixed order; a rubric line reads
//   line: tps >= 100000 (20 points): 182345.2 PASS
// and the last lines are always score and result.

#ifndef KVGRADE_GRADE_REPORT_H_
#define KVGRADE_GRADE_REPORT_H_

#include <string>

#include "grade_run.h"
#include "kvbench/machine_info.h"
#include "rubric.h"

namespace kvgrade {

inline constexpr char kBeginMarker[] = "<<< BEGIN kvgrade";
inline constexpr char kEndMarker[] = ">>> END";

struct GradeContext {
  std::string store;
  std::string stage;
  std::string rubric_path;
  GradeOptions options;
  kvbench::MachineInfo machine;
  kvbench::BuildInfo build;
  std::string date;
  bool unreliable = false;
};

std::string FormatGradeBlock(const GradeContext& context,
                             const GradeResult& result, const Verdict& verdict);

std::string FormatGradeJson(const GradeContext& context,
                            const GradeResult& result, const Verdict& verdict);

}  // namespace kvgrade

#endif  // KVGRADE_GRADE_REPORT_H_
