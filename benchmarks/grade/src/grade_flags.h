// The grader's command line: --name=value flags, parsed without a flags
// library so that an outside program linking the grader needs nothing more.

#ifndef KVGRADE_GRADE_FLAGS_H_
#define KVGRADE_GRADE_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "grade_run.h"

namespace kvgrade {

// The help text, listing every flag with its default.
std::string GradeUsage(const std::string& program);

// Parses `args` (argv without the program name) into `*options`. Flags in
// `passthrough` (e.g. "store" for kvgrade) are accepted and left to the
// caller. Sets `*help` for --help. Errors name the bad flag.
absl::Status ParseGradeFlags(const std::vector<std::string>& args,
                             const std::vector<std::string>& passthrough,
                             GradeOptions* options, bool* help);

// The default rubric: $KVLAB_RUBRIC, else the rubric installed with kvlab
// or, in a build tree, benchmarks/rubric.txt.
std::string DefaultRubricPath();

}  // namespace kvgrade

#endif  // KVGRADE_GRADE_FLAGS_H_
