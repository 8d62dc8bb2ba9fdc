// The rubric file: parsing, errors that name the line, and judging.

#include "rubric.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "grade_run.h"
#include "gtest/gtest.h"

namespace kvgrade {
namespace {

using ::testing::HasSubstr;

TEST(RubricTest, ParsesRulesCommentsAndBlankLines) {
  absl::StatusOr<std::vector<RubricRule>> rules = ParseRubric(
      "# a comment\n\n*  correct == 1 40\nstage1 tps >= 1e5 20  # trailing\n"
      "stage2\tbytes_per_key\t<=\t240.5\t5\r\n",
      GradeMetricNames());
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 3u);
  EXPECT_EQ((*rules)[1].stage, "stage1");
  EXPECT_EQ((*rules)[1].metric, "tps");
  EXPECT_EQ((*rules)[1].op, ">=");
  EXPECT_EQ((*rules)[1].threshold, 1e5);
  EXPECT_EQ((*rules)[1].points, 20);
  EXPECT_EQ((*rules)[1].line, 4);
  EXPECT_EQ((*rules)[2].threshold, 240.5);
  EXPECT_EQ(RulesFor(*rules, "stage1").size(), 2u);
  EXPECT_EQ(RulesFor(*rules, "stage9").size(), 1u);
  EXPECT_EQ(StagesOf(*rules), (std::vector<std::string>{"stage1", "stage2"}));
}

TEST(RubricTest, AnAssignmentsLinesReplaceItsStagesOfTheSameMetric) {
  absl::StatusOr<std::vector<RubricRule>> rules = ParseRubric(
      "* correct == 1 40\n"
      "stage4 tps >= 200000 25\n"
      "stage4 bytes_per_key <= 210 20\n"
      "stage4_wormhole bytes_per_key <= 300 20\n"
      "stage4_wormhole tps >= 100000 25\n",
      GradeMetricNames());
  ASSERT_TRUE(rules.ok()) << rules.status();
  auto lines = [&](std::string_view stage) {
    std::vector<std::string> out;
    for (const RubricRule& r : RulesFor(*rules, stage)) {
      out.push_back(absl::StrCat(r.stage, " ", r.metric));
    }
    return out;
  };
  EXPECT_EQ(lines("stage4"),
            (std::vector<std::string>{"* correct", "stage4 tps",
                                      "stage4 bytes_per_key"}));
  EXPECT_EQ(
      lines("stage4_wormhole"),
      (std::vector<std::string>{"* correct", "stage4_wormhole bytes_per_key",
                                "stage4_wormhole tps"}));
  // An assignment without lines of its own is judged as its stage.
  EXPECT_EQ(lines("stage4_other"), lines("stage4"));
  EXPECT_TRUE(RubricKnows(*rules, "stage4_other"));
  EXPECT_TRUE(RubricKnows(*rules, "stage4_wormhole"));
  EXPECT_FALSE(RubricKnows(*rules, "stage5"));
  EXPECT_FALSE(RubricKnows(*rules, "stage5_memory"));
  EXPECT_EQ(StageOfAssignment("stage4_wormhole"), "stage4");
  EXPECT_EQ(StageOfAssignment("stage12_a_b"), "stage12");
  EXPECT_EQ(StageOfAssignment("stage4"), "stage4");
  EXPECT_EQ(StageOfAssignment("stage_x"), "stage_x");
  EXPECT_EQ(StageOfAssignment("peer"), "peer");
}

TEST(RubricTest, ErrorsNameTheLine) {
  const std::vector<std::string>& m = GradeMetricNames();
  EXPECT_THAT(ParseRubric("* correct == 1\n", m).status().message(),
              HasSubstr("line 1: expected 5 fields"));
  EXPECT_THAT(ParseRubric("\n* speed >= 1 1\n", m).status().message(),
              HasSubstr("line 2: unknown metric 'speed'"));
  EXPECT_THAT(ParseRubric("* tps > 1 1\n", m).status().message(),
              HasSubstr("unknown operator '>'"));
  EXPECT_THAT(ParseRubric("* tps >= fast 1\n", m).status().message(),
              HasSubstr("threshold 'fast'"));
  EXPECT_THAT(ParseRubric("* tps >= 1 -3\n", m).status().message(),
              HasSubstr("points '-3'"));
  EXPECT_THAT(ParseRubric("# nothing\n", m).status().message(),
              HasSubstr("no rules"));
}

TEST(RubricTest, SubmissionPartsAreCheckedThenLeftToTheSubmissionGrader) {
  const std::vector<std::string>& m = GradeMetricNames();
  absl::StatusOr<std::vector<RubricRule>> rules = ParseRubric(
      "* correct == 1 40\n* build == 1 10\n* test_groups share 1 60\n"
      "stage4 tsan_clean == 1 10\n",
      m);
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 1u);
  EXPECT_EQ((*rules)[0].metric, "correct");
  EXPECT_THAT(ParseRubric("* build >= x 10\n", m).status().message(),
              HasSubstr("line 1: threshold 'x'"));
  EXPECT_THAT(ParseRubric("* tps share 1 10\n", m).status().message(),
              HasSubstr("unknown operator 'share' (use >=, <=, ==, x>="));
  EXPECT_THAT(ParseRubric("* asan_clean > 1 10\n", m).status().message(),
              HasSubstr("(use >=, <=, == or share)"));
}

TEST(RubricTest, LinesRelativeToTheReferenceAreCheckedThenLeftOut) {
  const std::vector<std::string>& m = GradeMetricNames();
  absl::StatusOr<std::vector<RubricRule>> rules = ParseRubric(
      "* correct == 1 40\nstage1 tps x>= 0.5 25\nstage1 tps >= 1000 25\n"
      "stage1 tps min 100 0\nstage1 bytes_per_key x<= 1.25 20\n"
      "stage1 bytes_per_key max 500 0\n",
      m);
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_EQ(rules->size(), 2u);
  EXPECT_EQ((*rules)[1].metric, "tps");
  EXPECT_EQ((*rules)[1].op, ">=");
  EXPECT_EQ((*rules)[1].points, 25);
  EXPECT_THAT(ParseRubric("* correct x>= 1 40\n", m).status().message(),
              HasSubstr("unknown operator 'x>=' (use >=, <= or ==)"));
  EXPECT_THAT(ParseRubric("* tps x>= 0 40\n", m).status().message(),
              HasSubstr("line 1: threshold '0' of a ratio is not positive"));
  EXPECT_THAT(ParseRubric("* tps x> 1 40\n", m).status().message(),
              HasSubstr("(use >=, <=, ==, x>=, x<=, min or max)"));
  EXPECT_THAT(ParseRubric("* build x>= 1 10\n", m).status().message(),
              HasSubstr("unknown operator 'x>='"));
}

TEST(RubricTest, TheShippedRubricParsesAndCoversEveryStage) {
  absl::StatusOr<std::vector<RubricRule>> rules =
      ReadRubric(KVGRADE_SOURCE_RUBRIC, GradeMetricNames());
  ASSERT_TRUE(rules.ok()) << rules.status();
  for (const char* stage : {"stage1", "stage2", "stage3", "stage4", "stage5"}) {
    std::vector<RubricRule> chosen = RulesFor(*rules, stage);
    ASSERT_FALSE(chosen.empty()) << stage;
    EXPECT_EQ(chosen.front().metric, "correct") << stage;
  }
  EXPECT_FALSE(ReadRubric("/nonexistent/rubric.txt", GradeMetricNames()).ok());
}

TEST(RubricTest, JudgesEachLineAndZeroesAnIncorrectStore) {
  std::vector<RubricRule> rules = *ParseRubric(
      "* correct == 1 40\n* tps >= 100 30\n"
      "* bytes_per_key <= 50 30\n",
      GradeMetricNames());
  Verdict good =
      Judge(rules, {{"correct", 1}, {"tps", 100}, {"bytes_per_key", 50}});
  EXPECT_TRUE(good.pass);
  EXPECT_EQ(good.score, 100);
  EXPECT_EQ(good.max_score, 100);

  Verdict slow =
      Judge(rules, {{"correct", 1}, {"tps", 99.9}, {"bytes_per_key", 10}});
  EXPECT_FALSE(slow.pass);
  EXPECT_EQ(slow.score, 70);
  EXPECT_FALSE(slow.lines[1].pass);
  EXPECT_EQ(slow.lines[1].value, 99.9);

  // Unmeasured metrics fail their line; a wrong store scores nothing.
  Verdict wrong = Judge(rules, {{"correct", 0}, {"bytes_per_key", 10}});
  EXPECT_FALSE(wrong.pass);
  EXPECT_EQ(wrong.score, 0);
  EXPECT_TRUE(std::isnan(wrong.lines[1].value));
  EXPECT_FALSE(wrong.lines[1].pass);
}

}  // namespace
}  // namespace kvgrade
