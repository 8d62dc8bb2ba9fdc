// Whole grades at a tiny size: a kvlab store, a student-style course-API
// store, a store with a wrong answer, and a load that runs out of time.

#include "grade_run.h"

#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kvbench/ect_run.h"
#include "kvbench/run_directory.h"
#include "kvbench/run_record.h"
#include "kvlab/kvlab.h"
#include "toy_course_store.h"

namespace kvgrade {
namespace {

using kvlab::grade::CourseApiStore;
using kvlab::grade::GradeSource;
using ::testing::HasSubstr;

GradeOptions Tiny() {
  GradeOptions options;
  options.n = 3000;
  options.threads = 2;
  options.seconds = 0.2;
  options.checked_operations = 1000;
  return options;
}

template <typename Api>
GradeSource Toy(const char* name) {
  GradeSource source;
  source.name = name;
  source.stage = "stage1";
  source.thread_safe = true;
  source.make = [name](uint64_t n) {
    return std::unique_ptr<kvlab::KVStore>(
        new CourseApiStore<Api>(name, n, true));
  };
  return source;
}

TEST(GradeRunTest, GradesARegisteredStore) {
  GradeSource source;
  source.name = "avl";
  source.make = [](uint64_t) { return *kvlab::MakeStore("avl"); };
  const GradeResult result = RunGrade(source, Tiny());
  ASSERT_TRUE(result.correct) << result.failure;
  EXPECT_EQ(result.loaded, 3000u);
  EXPECT_EQ(result.checked, 1000u);
  for (const std::string& name : GradeMetricNames()) {
    EXPECT_TRUE(result.metrics.count(name)) << name;
  }
  EXPECT_EQ(result.metrics.at("correct"), 1);
  EXPECT_GT(result.metrics.at("tps"), 0);
  EXPECT_GT(result.metrics.at("cpu_seconds"), 0);
  EXPECT_GT(result.metrics.at("peak_rss_mib"), 0);
}

// ect, unordered: graded without GetNth and DeleteNth, its buffer merged
// into its data file by finish_load once, inside the load. Graded as an
// ordered store it fails at its first GetNth or DeleteNth, so the grade above
// did leave them out.
TEST(GradeRunTest, GradesAnUnorderedStoreWithoutRankOperations) {
  const kvlab::StoreInfo* info = kvlab::BuiltinStores().Find("ect");
  ASSERT_NE(info, nullptr);
  for (const bool ordered : {false, true}) {
    absl::StatusOr<std::unique_ptr<kvbench::RunDirectory>> dir =
        kvbench::RunDirectory::Make("ect", *info, "");
    ASSERT_TRUE(dir.ok()) << dir.status();
    GradeSource source;
    source.name = "ect";
    source.thread_safe = true;
    source.ordered = ordered;
    const std::string spec = (*dir)->spec();
    source.make = [spec](uint64_t) { return *kvlab::MakeStore(spec); };
    int finished = 0;
    source.finish_load = [&finished](kvlab::KVStore& store) {
      ++finished;
      kvbench::RunRecord record;
      return kvbench::FinishEctLoad(store, &record);
    };
    const GradeResult result = RunGrade(source, Tiny());
    EXPECT_EQ(finished, 1);
    if (ordered) {
      EXPECT_FALSE(result.correct);
      EXPECT_THAT(result.failure, HasSubstr("Nth("));
      continue;
    }
    ASSERT_TRUE(result.correct) << result.failure;
    EXPECT_EQ(result.loaded, 3000u);
    EXPECT_EQ(result.checked, 1000u);
    EXPECT_GT(result.metrics.at("tps"), 0);
  }
}

TEST(GradeRunTest, AFailedFinishOfTheLoadFailsTheGrade) {
  GradeSource source;
  source.name = "avl";
  source.make = [](uint64_t) { return *kvlab::MakeStore("avl"); };
  source.finish_load = [](kvlab::KVStore&) {
    return absl::DataLossError("the merge lost its file");
  };
  const GradeResult result = RunGrade(source, Tiny());
  EXPECT_FALSE(result.correct);
  EXPECT_THAT(result.failure, HasSubstr("the merge lost its file"));
}

TEST(GradeRunTest, GradesAStudentCourseApiStore) {
  const GradeResult result = RunGrade(Toy<toy::Store>("toy"), Tiny());
  ASSERT_TRUE(result.correct) << result.failure;
  EXPECT_GT(result.metrics.at("tps"), 0);
}

TEST(GradeRunTest, AWrongAnswerFailsWithOperationKeyAndBothAnswers) {
  const GradeResult result = RunGrade(Toy<toy::BuggyStore>("buggy"), Tiny());
  EXPECT_FALSE(result.correct);
  EXPECT_EQ(result.metrics.at("correct"), 0);
  EXPECT_THAT(result.failure, HasSubstr("checked phase"));
  EXPECT_THAT(result.failure, HasSubstr("GetNth("));
  EXPECT_THAT(result.failure, HasSubstr("store answered key"));
  EXPECT_THAT(result.failure, HasSubstr("oracle answered key"));
  EXPECT_EQ(result.metrics.count("tps"), 0u);
}

// A store whose Put sleeps, so the load cannot finish in time.
struct SlowStore {
  explicit SlowStore(uint64_t) {}
  bool put(toy::Slice&, toy::Slice&) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    return false;
  }
  bool get(toy::Slice&, toy::Slice&) { return false; }
  bool del(toy::Slice&) { return false; }
  bool get(int, toy::Slice&, toy::Slice&) { return false; }
  bool del(int) { return false; }
};

TEST(GradeRunTest, TheLoadTimeLimitFailsTheGrade) {
  GradeOptions options = Tiny();
  options.load_timeout = 0.1;
  const GradeResult result = RunGrade(Toy<SlowStore>("slow"), options);
  EXPECT_FALSE(result.correct);
  EXPECT_THAT(result.failure, HasSubstr("--load_timeout"));
  EXPECT_LT(result.loaded, 3000u);
}

}  // namespace
}  // namespace kvgrade
