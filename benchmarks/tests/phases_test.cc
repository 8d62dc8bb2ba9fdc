#include "kvbench/phases.h"

#include "gtest/gtest.h"
#include "kvbench/random.h"
#include "kvlab/kvlab.h"
#include "test_stores.h"

namespace kvbench {
namespace {

class PhasesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<DataSet> data = GenerateDataSet("course", 3000, 21);
    ASSERT_TRUE(data.ok());
    data_ = *std::move(data);
    Rng rng(1);
    order_ = RandomPermutation(static_cast<uint32_t>(data_.size()), rng);
    sorted_ = SortedKeyOrder(data_);
  }
  DataSet data_;
  std::vector<uint32_t> order_, sorted_;
};

TEST_F(PhasesTest, AllPhasesPassOnACorrectStore) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore("std_map");
  ASSERT_TRUE(store.ok());
  absl::StatusOr<PhaseTiming> load = RunLoad(**store, data_, true, nullptr);
  ASSERT_TRUE(load.ok()) << load.status();
  EXPECT_EQ(load->operations, 3000u);
  EXPECT_GT(load->seconds, 0);
  absl::StatusOr<PhaseTiming> get =
      RunGet(**store, data_, order_, true, nullptr);
  ASSERT_TRUE(get.ok()) << get.status();
  EXPECT_EQ(get->operations, 3000u);
  absl::StatusOr<PhaseTiming> scan =
      RunScan(**store, data_, sorted_, true, nullptr);
  ASSERT_TRUE(scan.ok()) << scan.status();
  EXPECT_EQ(scan->operations, 3000u);
  // Without verification the answers are still consumed and counted.
  absl::StatusOr<PhaseTiming> unchecked =
      RunScan(**store, data_, {}, false, nullptr);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_EQ(unchecked->checksum, scan->checksum);
}

TEST_F(PhasesTest, LoadRejectsAPutThatReplaced) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore("std_map");
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Put(data_.key(10), "already here").ok());
  absl::StatusOr<PhaseTiming> load = RunLoad(**store, data_, true, nullptr);
  ASSERT_FALSE(load.ok());
  EXPECT_NE(load.status().message().find("Put #10"), std::string::npos)
      << load.status();
}

TEST_F(PhasesTest, GetAndScanCatchAWrongValue) {
  testing::CorruptValueStore store(std::string(data_.key(7)));
  ASSERT_TRUE(RunLoad(store, data_, true, nullptr).ok());
  absl::StatusOr<PhaseTiming> get = RunGet(store, data_, order_, true, nullptr);
  ASSERT_FALSE(get.ok());
  EXPECT_NE(get.status().message().find("get: key"), std::string::npos);
  EXPECT_TRUE(RunGet(store, data_, order_, false, nullptr).ok());
}

TEST_F(PhasesTest, ScanCatchesAWrongValue) {
  testing::CorruptScanStore store(std::string(data_.key(sorted_[42])));
  ASSERT_TRUE(RunLoad(store, data_, true, nullptr).ok());
  ASSERT_TRUE(RunGet(store, data_, order_, true, nullptr).ok());
  absl::StatusOr<PhaseTiming> scan =
      RunScan(store, data_, sorted_, true, nullptr);
  ASSERT_FALSE(scan.ok());
  EXPECT_NE(scan.status().message().find("position 42"), std::string::npos)
      << scan.status();
  EXPECT_NE(scan.status().message().find("\"wrong\""), std::string::npos)
      << scan.status();
}

TEST_F(PhasesTest, ScanCatchesAMissingPair) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore("std_map");
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(RunLoad(**store, data_, true, nullptr).ok());
  ASSERT_TRUE((*store)->Delete(data_.key(sorted_[100])));
  absl::StatusOr<PhaseTiming> scan =
      RunScan(**store, data_, sorted_, true, nullptr);
  ASSERT_FALSE(scan.ok());
  EXPECT_NE(scan.status().message().find("position 100"), std::string::npos)
      << scan.status();
  // Unverified, the short count is still an error.
  EXPECT_FALSE(RunScan(**store, data_, {}, false, nullptr).ok());
}

}  // namespace
}  // namespace kvbench
