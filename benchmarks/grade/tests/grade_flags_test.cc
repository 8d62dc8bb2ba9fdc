// The grader's flags.

#include "grade_flags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kvgrade {
namespace {

using ::testing::HasSubstr;

absl::Status Parse(std::vector<std::string> args, GradeOptions* options) {
  bool help = false;
  return ParseGradeFlags(args, {"store"}, options, &help);
}

TEST(GradeFlagsTest, DefaultsAreTheCourseGrade) {
  GradeOptions options;
  ASSERT_TRUE(Parse({}, &options).ok());
  EXPECT_EQ(options.n, 10'000'000u);
  EXPECT_EQ(options.threads, 4);
  EXPECT_EQ(options.seconds, 10);
  EXPECT_EQ(options.checked_operations, 10'000u);
}

TEST(GradeFlagsTest, ParsesEveryFlag) {
  GradeOptions options;
  bool help = false;
  ASSERT_TRUE(ParseGradeFlags(
                  {"--store=avl", "--stage=stage2", "--n=5000", "--threads=2",
                   "--seconds=0.5", "--seed=7", "--checked_operations=300",
                   "--load_timeout=9", "--check_timeout=8", "--rubric=r.txt",
                   "--json=out/g.json", "--allow_debug", "--free_slices=false",
                   "--help"},
                  {"store"}, &options, &help)
                  .ok());
  EXPECT_TRUE(help);
  EXPECT_EQ(options.stage, "stage2");
  EXPECT_EQ(options.n, 5000u);
  EXPECT_EQ(options.threads, 2);
  EXPECT_EQ(options.seconds, 0.5);
  EXPECT_EQ(options.seed, 7u);
  EXPECT_EQ(options.checked_operations, 300u);
  EXPECT_EQ(options.load_timeout, 9);
  EXPECT_EQ(options.check_timeout, 8);
  EXPECT_EQ(options.rubric, "r.txt");
  EXPECT_EQ(options.json, "out/g.json");
  EXPECT_TRUE(options.allow_debug);
}

TEST(GradeFlagsTest, RejectsBadValuesNamingTheFlag) {
  GradeOptions options;
  EXPECT_THAT(Parse({"--n=0"}, &options).message(), HasSubstr("--n"));
  EXPECT_THAT(Parse({"--n=abc"}, &options).message(), HasSubstr("'abc'"));
  EXPECT_THAT(Parse({"--seconds=-1"}, &options).message(),
              HasSubstr("--seconds"));
  EXPECT_THAT(Parse({"--threads="}, &options).message(),
              HasSubstr("needs a value"));
  EXPECT_THAT(Parse({"--speed=9"}, &options).message(),
              HasSubstr("unknown flag '--speed'"));
  EXPECT_THAT(Parse({"avl"}, &options).message(),
              HasSubstr("unexpected argument"));
  EXPECT_THAT(Parse({"--allow_debug=maybe"}, &options).message(),
              HasSubstr("true or false"));
}

TEST(GradeFlagsTest, UsageListsTheFlags) {
  const std::string usage = GradeUsage("kvgrade");
  for (const char* flag :
       {"--store", "--stage", "--n", "--threads", "--seconds", "--rubric",
        "--json", "--allow_debug"}) {
    EXPECT_THAT(usage, HasSubstr(flag));
  }
}

}  // namespace
}  // namespace kvgrade
