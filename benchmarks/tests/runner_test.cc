#include "kvbench/runner.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "kvbench/run_directory.h"
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

// ect in its own directory: the buffer merged after the load, every Get of
// a present key one read of the data file, the index under 4 bits a key.
TEST(RunnerTest, EctRunReportsItsIndexFileAndReadsPerGet) {
  RunRequest request = Request("ect", "course");
  absl::StatusOr<std::unique_ptr<RunDirectory>> dir =
      RunDirectory::Make(request.spec, request.info, "");
  ASSERT_TRUE(dir.ok()) << dir.status();
  request.build_spec = (*dir)->spec();
  RunRecord record = RunBenchmark(request);
  ASSERT_TRUE(record.ok) << record.error;
  EXPECT_EQ(record.Get(metric::kEctReadsPerGet), 1.0);
  EXPECT_GT(record.Get(metric::kEctIndexBitsPerKey), 1.44);
  EXPECT_LT(record.Get(metric::kEctIndexBitsPerKey), 4.0);
  EXPECT_LT(record.Get(metric::kEctTrieBitsPerKey),
            record.Get(metric::kEctIndexBitsPerKey));
  // Every pair is in the file: at least its key and value bytes.
  EXPECT_GT(record.Get(metric::kEctFileBytes), 3000 * 33);
  EXPECT_EQ(record.Get(metric::kEctMerges), 1);
  EXPECT_GE(record.Get(metric::kEctMergeSeconds), 0);
  // Unordered: no scan, no course phase, and a note says why.
  EXPECT_EQ(record.metrics.count(metric::kScanMkeys), 0u);
  EXPECT_EQ(record.metrics.count(metric::kCourseOpsPerSecond), 0u);
  bool noted = false;
  for (const std::string& note : record.notes) {
    noted |= note.find("data-file reads per Get") != std::string::npos;
  }
  EXPECT_TRUE(noted);
  const std::string path = (*dir)->path();
  EXPECT_TRUE(std::filesystem::exists(path + "/CURRENT"));
  dir->reset();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(RunnerTest, OtherStoresReportNoEctMetrics) {
  RunRecord record = RunBenchmark(Request("avl", "seq_int"));
  ASSERT_TRUE(record.ok) << record.error;
  EXPECT_EQ(record.metrics.count(metric::kEctIndexBitsPerKey), 0u);
  EXPECT_EQ(record.metrics.count(metric::kEctReadsPerGet), 0u);
}

TEST(RunDirectoryTest, OnlyStoresThatKeepFilesGetOne) {
  const kvlab::StoreInfo& avl = *kvlab::BuiltinStores().Find("avl");
  absl::StatusOr<std::unique_ptr<RunDirectory>> none =
      RunDirectory::Make("avl", avl, "");
  ASSERT_TRUE(none.ok());
  EXPECT_EQ((*none)->spec(), "avl");
  EXPECT_EQ((*none)->path(), "");

  const kvlab::StoreInfo& ect = *kvlab::BuiltinStores().Find("ect");
  const std::string parent = ::testing::TempDir();
  absl::StatusOr<std::unique_ptr<RunDirectory>> dir =
      RunDirectory::Make("ect:hmax=16", ect, parent);
  ASSERT_TRUE(dir.ok()) << dir.status();
  const std::string path = (*dir)->path();
  EXPECT_TRUE(std::filesystem::is_directory(path));
  EXPECT_EQ(path.rfind(parent, 0), 0u) << path;
  EXPECT_EQ((*dir)->spec(), "ect:hmax=16:dir=" + path + ":sync=none");
  EXPECT_TRUE((*dir)->sync_turned_off());
  std::filesystem::create_directory(path + "/left by a crashed child");
  dir->reset();
  EXPECT_FALSE(std::filesystem::exists(path));

  // A sync policy the spec names is kept.
  absl::StatusOr<std::unique_ptr<RunDirectory>> synced =
      RunDirectory::Make("ect:sync=group", ect, parent);
  ASSERT_TRUE(synced.ok());
  EXPECT_FALSE((*synced)->sync_turned_off());
  EXPECT_EQ((*synced)->spec(), "ect:sync=group:dir=" + (*synced)->path());

  EXPECT_FALSE(RunDirectory::Make("ect", ect, "/no/such/parent").ok());
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
