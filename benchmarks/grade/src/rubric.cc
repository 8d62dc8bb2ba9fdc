#include "rubric.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace kvgrade {

const std::vector<std::string>& SubmissionPartNames() {
  static const std::vector<std::string> names = {
      "build", "test_groups", "asan_clean", "tsan_clean", "private_tests"};
  return names;
}

absl::StatusOr<std::vector<RubricRule>> ParseRubric(
    std::string_view text, const std::vector<std::string>& known_metrics) {
  std::vector<RubricRule> rules;
  int line_number = 0;
  for (absl::string_view line :
       absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (fields.empty()) continue;
    auto error = [&](std::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat("rubric line ", line_number, ": ",
                       absl::string_view(what.data(), what.size())));
    };
    if (fields.size() != 5) {
      return error("expected 5 fields: stage metric op threshold points");
    }
    RubricRule rule;
    rule.line = line_number;
    rule.stage = std::string(fields[0]);
    rule.metric = std::string(fields[1]);
    rule.op = std::string(fields[2]);
    const std::vector<std::string>& parts = SubmissionPartNames();
    const bool part =
        std::find(parts.begin(), parts.end(), rule.metric) != parts.end();
    if (!part && std::find(known_metrics.begin(), known_metrics.end(),
                           rule.metric) == known_metrics.end()) {
      return error(absl::StrCat("unknown metric '", rule.metric, "' (known: ",
                                absl::StrJoin(known_metrics, ", "), "; ",
                                absl::StrJoin(parts, ", "), ")"));
    }
    // A line relative to the reference store belongs to the submission
    // grader, which runs the reference beside the submission.
    const bool relative = !part && rule.metric != "correct" &&
                          (rule.op == "x>=" || rule.op == "x<=" ||
                           rule.op == "min" || rule.op == "max");
    if (rule.op != ">=" && rule.op != "<=" && rule.op != "==" &&
        !(part && rule.op == "share") && !relative) {
      return error(absl::StrCat(
          "unknown operator '", rule.op,
          part ? "' (use >=, <=, == or share)"
               : (rule.metric == "correct"
                      ? "' (use >=, <= or ==)"
                      : "' (use >=, <=, ==, x>=, x<=, min or max)")));
    }
    if (!absl::SimpleAtod(fields[3], &rule.threshold) ||
        !std::isfinite(rule.threshold)) {
      return error(absl::StrCat("threshold '", fields[3], "' is not a number"));
    }
    if (!absl::SimpleAtoi(fields[4], &rule.points) || rule.points < 0) {
      return error(absl::StrCat("points '", fields[4],
                                "' is not a non-negative integer"));
    }
    if ((rule.op == "x>=" || rule.op == "x<=") && rule.threshold <= 0) {
      return error(absl::StrCat("threshold '", fields[3],
                                "' of a ratio is not positive"));
    }
    if (!part && !relative) rules.push_back(std::move(rule));
  }
  if (rules.empty()) return absl::InvalidArgumentError("rubric has no rules");
  return rules;
}

absl::StatusOr<std::vector<RubricRule>> ReadRubric(
    const std::string& path, const std::vector<std::string>& known_metrics) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read the rubric '", path, "' (--rubric=FILE)"));
  }
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<RubricRule>> rules =
      ParseRubric(text.str(), known_metrics);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", rules.status().message()));
  }
  return rules;
}

std::string_view StageOfAssignment(std::string_view assignment) {
  if (assignment.substr(0, 5) != "stage") return assignment;
  size_t end = 5;
  while (end < assignment.size() &&
         absl::ascii_isdigit(static_cast<unsigned char>(assignment[end]))) {
    ++end;
  }
  if (end == 5 || end == assignment.size() || assignment[end] != '_') {
    return assignment;
  }
  return assignment.substr(0, end);
}

std::vector<RubricRule> RulesFor(const std::vector<RubricRule>& rules,
                                 std::string_view stage) {
  const std::string_view base = StageOfAssignment(stage);
  std::set<std::string> own;  // the metrics the assignment has lines for
  if (base != stage) {
    for (const RubricRule& rule : rules) {
      if (rule.stage == stage) own.insert(rule.metric);
    }
  }
  std::vector<RubricRule> chosen;
  for (const RubricRule& rule : rules) {
    if (rule.stage == "*" || rule.stage == stage ||
        (base != stage && rule.stage == base && !own.contains(rule.metric))) {
      chosen.push_back(rule);
    }
  }
  return chosen;
}

bool RubricKnows(const std::vector<RubricRule>& rules, std::string_view stage) {
  const std::string_view base = StageOfAssignment(stage);
  for (const RubricRule& rule : rules) {
    if (rule.stage == stage || rule.stage == base) return true;
  }
  return false;
}

std::vector<std::string> StagesOf(const std::vector<RubricRule>& rules) {
  std::vector<std::string> stages;
  for (const RubricRule& rule : rules) {
    if (rule.stage != "*" &&
        std::find(stages.begin(), stages.end(), rule.stage) == stages.end()) {
      stages.push_back(rule.stage);
    }
  }
  return stages;
}

Verdict Judge(const std::vector<RubricRule>& rules,
              const std::map<std::string, double>& metrics) {
  Verdict verdict;
  verdict.pass = true;
  for (const RubricRule& rule : rules) {
    RuleResult result;
    result.rule = rule;
    auto it = metrics.find(rule.metric);
    result.value = it == metrics.end() ? std::nan("") : it->second;
    if (!std::isnan(result.value)) {
      if (rule.op == ">=") result.pass = result.value >= rule.threshold;
      if (rule.op == "<=") result.pass = result.value <= rule.threshold;
      if (rule.op == "==") result.pass = result.value == rule.threshold;
    }
    verdict.max_score += rule.points;
    if (result.pass) verdict.score += rule.points;
    verdict.pass &= result.pass;
    verdict.lines.push_back(result);
  }
  auto correct = metrics.find("correct");
  if (correct == metrics.end() || correct->second != 1) {
    verdict.score = 0;
    verdict.pass = false;
  }
  return verdict;
}

}  // namespace kvgrade
