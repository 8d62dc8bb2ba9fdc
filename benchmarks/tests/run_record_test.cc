#include "kvbench/run_record.h"

#include <cmath>

#include "gtest/gtest.h"

namespace kvbench {
namespace {

TEST(RunRecordTest, SerializationRoundTrips) {
  RunRecord record;
  record.ok = false;
  record.error = "get: key \"a\nb\" \xff absent";
  record.notes = {"first note", "second\tnote"};
  record.Set(metric::kLoadMops, 1.0 / 3);
  record.Set(metric::kRssGrowthBytes, -4096);
  record.Set(metric::kCourseOps, 123456789012.0);
  absl::StatusOr<RunRecord> parsed = ParseRecord(SerializeRecord(record));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->ok, record.ok);
  EXPECT_EQ(parsed->error, record.error);
  EXPECT_EQ(parsed->notes, record.notes);
  EXPECT_EQ(parsed->metrics, record.metrics);  // %.17g is exact
}

TEST(RunRecordTest, TruncatedRecordIsAnError) {
  RunRecord record;
  record.Set(metric::kLoadMops, 2);
  std::string text = SerializeRecord(record);
  EXPECT_FALSE(ParseRecord(text.substr(0, text.size() - 4)).ok());
  EXPECT_FALSE(ParseRecord("").ok());
  EXPECT_FALSE(ParseRecord("garbage\nend\n").ok());
}

TEST(RunRecordTest, Medians) {
  EXPECT_TRUE(std::isnan(Median({})));
  EXPECT_EQ(Median({3}), 3);
  EXPECT_EQ(Median({5, 1, 3}), 3);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);

  std::vector<RunRecord> records(3);
  records[0].Set("a", 10);
  records[1].Set("a", 30);
  records[2].Set("a", 20);
  records[2].Set("b", 7);  // only one run has b
  std::map<std::string, double> medians = MedianMetrics(records);
  EXPECT_EQ(medians.at("a"), 20);
  EXPECT_EQ(medians.at("b"), 7);
  EXPECT_TRUE(std::isnan(records[0].Get("b")));
}

}  // namespace
}  // namespace kvbench
