// The block scripts parse and the JSON object.

#include "grade_report.h"

#include <sstream>
#include <vector>

#include "../../tests/json_validator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kvgrade {
namespace {

using ::testing::HasSubstr;

GradeContext Context() {
  GradeContext c;
  c.store = "avl";
  c.stage = "stage1";
  c.rubric_path = "benchmarks/rubric.txt";
  c.options.n = 1000;
  c.machine.cpu_model = "Test CPU";
  c.machine.cores = 2;
  c.build.type = "Release";
  c.date = "2026-01-01T00:00:00Z";
  return c;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(GradeReportTest, BlockHasFixedMarkersKeysAndOrder) {
  GradeResult result;
  result.correct = true;
  result.loaded = 1000;
  result.checked = 10000;
  result.metrics = {{"correct", 1},       {"load_seconds", 0.25},
                    {"tps", 123456.78},   {"cpu_seconds", 3},
                    {"peak_rss_mib", 50}, {"bytes_per_key", 200.04}};
  std::vector<RubricRule> rules = *ParseRubric(
      "* correct == 1 40\n* tps >= 200000 60\n", GradeMetricNames());
  const std::string block =
      FormatGradeBlock(Context(), result, Judge(rules, result.metrics));
  std::vector<std::string> lines = Lines(block);
  ASSERT_GE(lines.size(), 10u);
  EXPECT_EQ(lines.front(), "<<< BEGIN kvgrade");
  EXPECT_EQ(lines.back(), ">>> END");
  EXPECT_EQ(lines[1], "store: avl");
  EXPECT_EQ(lines[2], "stage: stage1");
  // Every inner line is "key: value".
  for (size_t i = 1; i + 1 < lines.size(); ++i) {
    EXPECT_NE(lines[i].find(": "), std::string::npos) << lines[i];
  }
  EXPECT_THAT(block, HasSubstr("\ntps: 123456.8\n"));
  EXPECT_THAT(block, HasSubstr("\nbytes_per_key: 200.0\n"));
  EXPECT_THAT(block, HasSubstr("\nfailure: none\n"));
  EXPECT_THAT(block, HasSubstr("\nline: correct == 1 (40 points): 1.0 PASS\n"));
  EXPECT_THAT(block,
              HasSubstr("\nline: tps >= 200000 (60 points): 123456.8 FAIL\n"));
  EXPECT_EQ(lines[lines.size() - 3], "score: 40/100");
  EXPECT_EQ(lines[lines.size() - 2], "result: FAIL");
}

TEST(GradeReportTest, FailureIsOneLineAndJsonIsValid) {
  GradeResult result;
  result.correct = false;
  result.failure = "checked phase: get_nth 7: store said 'a'\nbut 'b'";
  result.metrics = {{"correct", 0}, {"load_seconds", 1}};
  std::vector<RubricRule> rules =
      *ParseRubric("* correct == 1 40\n* tps >= 1 60\n", GradeMetricNames());
  const Verdict verdict = Judge(rules, result.metrics);
  const std::string block = FormatGradeBlock(Context(), result, verdict);
  EXPECT_THAT(block, HasSubstr("\nfailure: checked phase: get_nth 7: store "
                               "said 'a' but 'b'\n"));
  EXPECT_THAT(block, HasSubstr("\ntps: n/a\n"));
  EXPECT_THAT(block, HasSubstr("\nscore: 0/100\nresult: FAIL\n"));
  const std::string json = FormatGradeJson(Context(), result, verdict);
  EXPECT_TRUE(kvbench::testing::JsonValidator::Valid(json)) << json;
  EXPECT_THAT(json, HasSubstr("\"pass\":false"));
  EXPECT_THAT(json, HasSubstr("\"score\":0"));
  EXPECT_THAT(json, HasSubstr("\"value\":null"));
}

}  // namespace
}  // namespace kvgrade
