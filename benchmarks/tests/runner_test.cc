#include "kvbench/runner.h"

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"

namespace kvbench {
namespace {

RunRequest Request(std::string spec, std::string dataset) {
  RunRequest request;
  request.spec = spec;
  request.info = *kvlab::BuiltinStores().Find(spec);
  request.dataset = std::move(dataset);
  request.n = 3000;
  request.seed = 42;
  request.phases = *ParsePhases("load,get,scan,course");
  request.threads = 2;
  request.seconds = 0.1;
  return request;
}

TEST(RunnerTest, FullRunOnStdMapReportsEveryMetric) {
  RunRequest request = Request("std_map", "course");
  // std_map's checked phase is capped at 5x --seconds (its GetNth walks);
  // a generous cap keeps it complete even under sanitizers.
  request.seconds = 2;
  RunRecord record = RunBenchmark(request);
  ASSERT_TRUE(record.ok) << record.error;
  for (const char* name :
       {metric::kLoadMops, metric::kGetMops, metric::kScanMkeys,
        metric::kRssBytesPerKey, metric::kPeakBytesPerKey,
        metric::kPmMopsPerGib, metric::kCourseChecked,
        metric::kCourseOpsPerSecond}) {
    EXPECT_TRUE(record.metrics.count(name)) << name;
  }
  EXPECT_EQ(record.metrics.count(metric::kOwnBytesPerKey), 0u);  // n/a
  EXPECT_EQ(record.Get(metric::kCourseChecked), 10'000);
  EXPECT_GT(record.Get(metric::kLoadMops), 0);
  EXPECT_GT(record.Get(metric::kCourseOps), 0);
}

TEST(RunnerTest, CourseRunsOnlyOnTheCourseDataSetUnlessForced) {
  RunRecord plain = RunBenchmark(Request("avl", "seq_int"));
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_EQ(plain.metrics.count(metric::kCourseOpsPerSecond), 0u);

  RunRequest forced = Request("avl", "seq_int");
  forced.phases = *ParsePhases("load,course_all");
  RunRecord record = RunBenchmark(forced);
  ASSERT_TRUE(record.ok) << record.error;
  EXPECT_EQ(record.metrics.count(metric::kGetMops), 0u);
  EXPECT_EQ(record.Get(metric::kCourseChecked), 10'000);
}

}  // namespace
}  // namespace kvbench
