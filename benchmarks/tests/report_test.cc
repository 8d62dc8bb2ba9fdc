#include "kvbench/report.h"

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "json_validator.h"

namespace kvbench {
namespace {

using ::kvbench::testing::JsonValidator;

RunContext Context(bool unreliable) {
  RunContext context;
  context.machine = {"Test CPU @ 2.0GHz", 2, 24ull << 30, "Linux 6.1", "host"};
  context.build = {"Release",      "",   "g++ 12.2.0",
                   "-O2 -DNDEBUG", true, "glibc malloc"};
  context.dataset.name = "course";
  context.dataset.requested_n = 1000;
  context.dataset.n = 1000;
  context.dataset.seed = 42;
  context.dataset.avg_key_bytes = 32.5;
  context.dataset.avg_value_bytes = 128;
  context.threads = 2;
  context.seconds = 2;
  context.repeat = 3;
  context.phases = "load,get,scan,course";
  context.date = "2024-01-01T00:00:00Z";
  context.unreliable = unreliable;
  return context;
}

Row OkRow() {
  Row row;
  row.store = "avl";
  row.metrics = {{metric::kLoadMops, 1.5},
                 {metric::kGetMops, 2.25},
                 {metric::kScanMkeys, 30},
                 {metric::kRssBytesPerKey, 250.4},
                 {metric::kPeakBytesPerKey, 251},
                 {metric::kPmMopsPerGib, 15.5},
                 {metric::kCourseChecked, 10000},
                 {metric::kCoursePlanned, 10000},
                 {metric::kCourseOpsPerSecond, 1234567.8}};
  row.samples.resize(3);
  return row;
}

TEST(ReportTest, HeaderNamesEverythingAndMarksUnreliableBuilds) {
  const std::vector<std::string> reliable = FormatHeader(Context(false));
  ASSERT_GE(reliable.size(), 3u);
  const std::string all = absl::StrJoin(reliable, "\n");
  for (const char* part :
       {"course", "n=1,000", "avg key 32.5 B", "avg value 128.0 B", "seed 42",
        "Test CPU", "2 cores", "24.0 GiB", "Linux 6.1", "Release", "g++ 12.2.0",
        "-O2", "threads 2", "2 s", "repeat 3", "2024-01-01"}) {
    EXPECT_NE(all.find(part), std::string::npos) << part << "\n" << all;
  }
  EXPECT_EQ(all.find("UNRELIABLE"), std::string::npos);
  for (const std::string& line : FormatHeader(Context(true))) {
    EXPECT_NE(line.find("UNRELIABLE: debug/sanitized build"), std::string::npos)
        << line;
  }
}

TEST(ReportTest, HeaderSaysWhenTheCourseRanAFixedCount) {
  RunContext context = Context(false);
  context.course_ops = 250'000;
  const std::string all = absl::StrJoin(FormatHeader(context), "\n");
  EXPECT_NE(all.find("course threads 2 x 250,000 ops"), std::string::npos)
      << all;
  EXPECT_EQ(all.find("x 2 s"), std::string::npos) << all;
}

TEST(ReportTest, TableIsAlignedAndShowsWhyRowsDidNotRun) {
  Row skipped;
  skipped.store = "bst";
  skipped.status = RowStatus::kSkipped;
  skipped.detail = "skipped: sorted input makes bst a linked list";
  Row crashed;
  crashed.store = "btree:order=8";
  crashed.status = RowStatus::kCrashed;
  crashed.detail = "crashed: signal 11";
  Row partial = OkRow();
  partial.store = "std_map";
  partial.samples.resize(1);
  partial.metrics[metric::kCourseChecked] = 2104;
  const std::string table = FormatTable({OkRow(), skipped, crashed, partial});
  std::vector<std::string> lines =
      absl::StrSplit(table, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 6u);  // titles, rule, four rows
  // The status column starts at the same place on every line.
  const size_t status_column = lines[0].find("status");
  ASSERT_NE(status_column, std::string::npos);
  EXPECT_EQ(lines[2].substr(status_column), "ok (median of 3)");
  EXPECT_EQ(lines[3].substr(status_column), skipped.detail);
  EXPECT_EQ(lines[4].substr(status_column), "crashed: signal 11");
  EXPECT_EQ(lines[5].substr(status_column), "ok");
  EXPECT_NE(lines[2].find("1,234,568"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("250.4"), std::string::npos);
  EXPECT_NE(lines[2].find("n/a"), std::string::npos);  // no own accounting
  EXPECT_NE(lines[5].find("2,104/10,000"), std::string::npos) << lines[5];
}

TEST(ReportTest, JsonRecordIsValidAndEscaped) {
  Row row = OkRow();
  row.store = "we\"ird\nstore\xff";
  row.status = RowStatus::kFailed;
  row.detail = "FAILED: get: key \"a\\b\" absent";
  row.notes = {"peak\treset unavailable"};
  row.samples.resize(2);
  row.samples[0].Set(metric::kLoadMops, 1.0);
  const std::string json = FormatJsonRecord(Context(true), row);
  EXPECT_TRUE(JsonValidator::Valid(json)) << json;
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_NE(json.find(R"("store":"we\"ird\nstore\ufffd")"), std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("status":"failed")"), std::string::npos);
  EXPECT_NE(json.find(R"("warning":"UNRELIABLE: debug/sanitized build")"),
            std::string::npos);
  EXPECT_NE(json.find(R"("load_mops":1.5)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("samples":[{"load_mops":1},{}])"), std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("cpu":"Test CPU @ 2.0GHz")"), std::string::npos);

  const std::string reliable = FormatJsonRecord(Context(false), OkRow());
  EXPECT_TRUE(JsonValidator::Valid(reliable)) << reliable;
  EXPECT_EQ(reliable.find("UNRELIABLE"), std::string::npos);
}

TEST(ReportTest, WithCommas) {
  EXPECT_EQ(WithCommas(0), "0");
  EXPECT_EQ(WithCommas(999), "999");
  EXPECT_EQ(WithCommas(1000), "1,000");
  EXPECT_EQ(WithCommas(200000000), "200,000,000");
}

}  // namespace
}  // namespace kvbench
