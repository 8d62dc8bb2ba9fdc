#include "kvbench/course_workload.h"

#include "gtest/gtest.h"
#include "kvbench/datasets.h"
#include "kvlab/kvlab.h"
#include "kvlab/std_map_store.h"
#include "test_stores.h"

namespace kvbench {
namespace {

using ::kvbench::testing::LeakyDeleteStore;
using ::kvbench::testing::OffByOneNthStore;
using ::kvbench::testing::SlowNthStore;
using ::kvbench::testing::UnorderedStore;

class CourseWorkloadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<DataSet> data = GenerateDataSet("course", 2000, 11);
    ASSERT_TRUE(data.ok());
    data_ = *std::move(data);
  }
  void Load(kvlab::KVStore& store) {
    for (uint64_t i = 0; i < data_.size(); ++i) {
      ASSERT_TRUE(store.Put(data_.key(i), data_.value(i)).ok());
    }
  }
  // Store `spec` holding the data set, behind the reader-writer wrapper.
  std::unique_ptr<kvlab::KVStore> LoadedThreadSafe(std::string_view spec) {
    absl::StatusOr<std::unique_ptr<kvlab::KVStore>> made =
        kvlab::MakeStore(spec);
    EXPECT_TRUE(made.ok()) << made.status();
    if (!made.ok()) return nullptr;
    std::unique_ptr<kvlab::KVStore> store =
        kvlab::MakeThreadSafe(*std::move(made));
    Load(*store);
    return store;
  }
  DataSet data_;
};

TEST_F(CourseWorkloadTest, OracleHoldsTheDataSetInKeyOrder) {
  Oracle oracle = BuildOracle(data_);
  ASSERT_EQ(oracle.size(), data_.size());
  std::vector<uint32_t> sorted = SortedKeyOrder(data_);
  for (uint64_t r : {uint64_t{0}, uint64_t{1}, uint64_t{999}, uint64_t{1999}}) {
    auto it = oracle.find_by_order(r);
    EXPECT_EQ(it->first, data_.key(sorted[r]));
    EXPECT_EQ(it->second, data_.value(sorted[r]));
  }
}

TEST_F(CourseWorkloadTest, CheckedPhasePassesOnStdMap) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore("std_map");
  ASSERT_TRUE(store.ok());
  Load(**store);
  Oracle oracle = BuildOracle(data_);
  CheckedCourseOptions options;
  options.seed = 5;
  absl::StatusOr<CheckedCourseResult> result =
      RunCheckedCourse(**store, oracle, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->checked, 10'000u);
  EXPECT_EQ(result->planned, 10'000u);
  EXPECT_FALSE(result->capped);
  // Store and oracle went through the same changes.
  EXPECT_EQ((*store)->Size(), oracle.size());
  EXPECT_LT(oracle.size(), data_.size());  // deletes outnumber puts
  uint64_t rank = 0;
  bool same = true;
  (*store)->Scan("", [&](std::string_view key, std::string_view value) {
    auto it = oracle.find_by_order(rank++);
    same &= it->first == key && it->second == value;
    return true;
  });
  EXPECT_TRUE(same);
}

TEST_F(CourseWorkloadTest, CheckedPhaseCatchesWrongGetNth) {
  OffByOneNthStore store;
  Load(store);
  Oracle oracle = BuildOracle(data_);
  absl::StatusOr<CheckedCourseResult> result =
      RunCheckedCourse(store, oracle, CheckedCourseOptions{});
  ASSERT_FALSE(result.ok());
  const std::string message(result.status().message());
  EXPECT_NE(message.find("GetNth("), std::string::npos) << message;
  EXPECT_NE(message.find("store answered key"), std::string::npos) << message;
  EXPECT_NE(message.find("oracle answered key"), std::string::npos) << message;
}

TEST_F(CourseWorkloadTest, CheckedPhaseCatchesDeleteThatKeepsThePair) {
  LeakyDeleteStore store;
  Load(store);
  Oracle oracle = BuildOracle(data_);
  absl::StatusOr<CheckedCourseResult> result =
      RunCheckedCourse(store, oracle, CheckedCourseOptions{});
  ASSERT_FALSE(result.ok());
  const std::string message(result.status().message());
  EXPECT_NE(message.find("Delete then Get"), std::string::npos) << message;
  EXPECT_NE(message.find("oracle answered absent"), std::string::npos)
      << message;
}

// An unordered store runs both phases without GetNth, DeleteNth or Scan;
// the same store in the ordered mix fails at its first GetNth.
TEST_F(CourseWorkloadTest, UnorderedMixLeavesTheOperationsByRankOut) {
  UnorderedStore store;
  Load(store);
  Oracle oracle = BuildOracle(data_);
  CheckedCourseOptions check;
  check.ordered = false;
  absl::StatusOr<CheckedCourseResult> checked =
      RunCheckedCourse(store, oracle, check);
  ASSERT_TRUE(checked.ok()) << checked.status();
  EXPECT_EQ(checked->checked, 10'000u);
  EXPECT_EQ(store.Size(), oracle.size());

  TimedCourseOptions timed;
  timed.ordered = false;
  timed.threads = 2;
  timed.operations_per_thread = 3000;
  const uint64_t before = store.Size();
  const TimedCourseResult result = RunTimedCourse(store, timed);
  EXPECT_EQ(result.operations, 6000u);
  EXPECT_EQ(store.rank_calls(), 0u);
  // Each thread deletes what it put: the size stays near where it was.
  EXPECT_LT(store.Size(), before + 2000);
  EXPECT_GT(store.Size() + 2000, before);

  Oracle again = BuildOracle(data_);
  UnorderedStore fresh;
  Load(fresh);
  EXPECT_FALSE(RunCheckedCourse(fresh, again, CheckedCourseOptions{}).ok());
}

TEST_F(CourseWorkloadTest, CheckedPhaseStopsAtItsTimeCap) {
  SlowNthStore store;
  Load(store);
  Oracle oracle = BuildOracle(data_);
  CheckedCourseOptions options;
  options.max_seconds = 0.1;
  absl::StatusOr<CheckedCourseResult> result =
      RunCheckedCourse(store, oracle, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->capped);
  EXPECT_GT(result->checked, 0u);
  EXPECT_LT(result->checked, 10'000u);
  EXPECT_EQ(store.Size(), oracle.size());
}

TEST_F(CourseWorkloadTest, TimedPhaseCountsEveryThreadsOperations) {
  std::unique_ptr<kvlab::KVStore> store = LoadedThreadSafe("std_map");
  ASSERT_NE(store, nullptr);
  TimedCourseOptions options;
  options.threads = 3;
  options.seconds = 0.2;
  TimedCourseResult result = RunTimedCourse(*store, options);
  ASSERT_EQ(result.per_thread.size(), 3u);
  uint64_t sum = 0;
  for (uint64_t ops : result.per_thread) {
    EXPECT_GT(ops, 0u);
    sum += ops;
  }
  EXPECT_EQ(result.operations, sum);
  EXPECT_GE(result.seconds, 0.2);
  EXPECT_NEAR(result.PerSecond(), sum / result.seconds, 1e-6);
  // The store is still a consistent ordered map.
  std::string previous;
  uint64_t count = 0;
  bool ascending = true;
  store->Scan("", [&](std::string_view key, std::string_view) {
    ascending &= count == 0 || previous < key;
    previous = std::string(key);
    ++count;
    return true;
  });
  EXPECT_TRUE(ascending);
  EXPECT_EQ(count, store->Size());
}

TEST_F(CourseWorkloadTest, FixedCountRunsExactlyThatManyPerThread) {
  std::unique_ptr<kvlab::KVStore> store = LoadedThreadSafe("std_map");
  ASSERT_NE(store, nullptr);
  TimedCourseOptions options;
  options.threads = 2;
  options.operations_per_thread = 1500;
  options.seconds = 1e-9;  // ignored: the count decides
  TimedCourseResult result = RunTimedCourse(*store, options);
  EXPECT_EQ(result.per_thread, (std::vector<uint64_t>{1500, 1500}));
  EXPECT_EQ(result.operations, 3000u);
  EXPECT_GT(result.seconds, 0);
}

// With one thread the operations depend only on the seed and the sizes the
// store reports, so two correct stores do exactly the same work: the same
// answers and the same pairs at the end.
TEST_F(CourseWorkloadTest, FixedCountGivesEveryStoreTheSameWork) {
  std::vector<std::pair<std::string, std::string>> final_pairs[2];
  uint64_t checksums[2] = {};
  const char* specs[2] = {"std_map", "ctrie"};
  for (int i = 0; i < 2; ++i) {
    std::unique_ptr<kvlab::KVStore> store = LoadedThreadSafe(specs[i]);
    ASSERT_NE(store, nullptr);
    TimedCourseOptions options;
    options.threads = 1;
    options.operations_per_thread = 3000;  // more deletes than the 2,000 pairs
    TimedCourseResult result = RunTimedCourse(*store, options);
    EXPECT_EQ(result.operations, 3000u) << specs[i];
    checksums[i] = result.checksum;
    store->Scan("", [&](std::string_view key, std::string_view value) {
      final_pairs[i].emplace_back(key, value);
      return true;
    });
  }
  EXPECT_EQ(checksums[0], checksums[1]);
  EXPECT_EQ(final_pairs[0], final_pairs[1]);
  EXPECT_LT(final_pairs[0].size(), data_.size());  // the mix shrank it
}

}  // namespace
}  // namespace kvbench
