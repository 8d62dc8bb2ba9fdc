// GradeMain (kvlab/grade.h): flags, the build guard, the rubric, the grade,
// the block and the JSON.

#include <filesystem>
#include <fstream>
#include <iostream>

#include "grade_flags.h"
#include "grade_report.h"
#include "grade_run.h"
#include "kvbench/machine_info.h"
#include "kvlab/grade.h"
#include "rubric.h"

namespace kvlab::grade {

int GradeMain(int argc, char** argv, const GradeSource& source) {
  using namespace kvgrade;
  const std::string program = argc > 0 ? argv[0] : "kvgrade";
  GradeOptions options;
  options.rubric = DefaultRubricPath();
  bool help = false;
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (absl::Status s = ParseGradeFlags(
          args, {"store", "allow_memory_overcommit"}, &options, &help);
      !s.ok()) {
    std::cerr << program << ": " << s.message() << "\n";
    return 2;
  }
  if (help) {
    std::cout << GradeUsage(program);
    return 0;
  }
  absl::StatusOr<std::vector<RubricRule>> rubric =
      ReadRubric(options.rubric, GradeMetricNames());
  if (!rubric.ok()) {
    std::cerr << program << ": " << rubric.status().message() << "\n";
    return 2;
  }
  const std::string stage =
      options.stage.empty() ? source.stage : options.stage;
  const std::vector<RubricRule> rules = RulesFor(*rubric, stage);
  // An assignment ("stage4_wormhole") is known by its own lines or its
  // stage's.
  if (!RubricKnows(*rubric, stage)) {
    std::cerr << program << ": the rubric has no stage '" << stage
              << "' (--stage=...; it has:";
    for (const std::string& s : StagesOf(*rubric)) std::cerr << " " << s;
    std::cerr << ")\n";
    return 2;
  }

  GradeContext context;
  context.build = kvbench::CurrentBuild();
  context.unreliable = !kvbench::IsReliableBuild(context.build);
  if (context.unreliable) {
    std::cerr << kvbench::UnreliableBuildWarning(
        context.build, "kvgrade",
        options.allow_debug
            ? "because of --allow_debug: the grade is marked UNRELIABLE."
            : "");
    if (!options.allow_debug) return 2;
  }
  context.store = source.name;
  context.stage = stage;
  context.rubric_path = options.rubric;
  context.options = options;
  context.machine = kvbench::ReadMachineInfo();
  context.date = kvbench::UtcTimestamp();

  std::cerr << program << ": grading " << source.name << " (" << stage
            << "): " << options.n << " pairs, then " << options.threads
            << " threads x " << options.seconds << " s\n";
  const GradeResult result = RunGrade(source, options);
  const Verdict verdict = Judge(rules, result.metrics);
  std::cout << FormatGradeBlock(context, result, verdict) << std::flush;
  if (!options.json.empty()) {
    const std::filesystem::path path(options.json);
    std::error_code error;
    if (path.has_parent_path()) {
      std::filesystem::create_directories(path.parent_path(), error);
    }
    std::ofstream json(path);
    json << FormatGradeJson(context, result, verdict) << "\n";
    if (!json) {
      std::cerr << program << ": cannot write '" << options.json << "'\n";
      return 2;
    }
  }
  return verdict.pass ? 0 : 1;
}

}  // namespace kvlab::grade
