// The data sets built from files (gcide3, urls) read from small fixtures
// here, so the tests need no Debian package; course_v3's shape; and the
// statistics kvbench --dataset_stats prints.

#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvbench/dataset_stats.h"
#include "kvbench/datasets.h"

namespace kvbench {
namespace {

class SourceFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kvbench_sources_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  std::string WriteGzip(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    gzFile out = gzopen(path.c_str(), "wb");
    EXPECT_NE(out, nullptr);
    EXPECT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())),
              static_cast<int>(text.size()));
    gzclose(out);
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(SourceFilesTest, GcideTrigramsAreDistinctSortedLetterRuns) {
  // Punctuation, digits and line breaks separate words; case is kept.
  const std::string path =
      WriteGzip("gcide.dict.dz", "The cat sat,\non the mat; 42 the cat sat!");
  absl::StatusOr<std::vector<std::string>> trigrams = ReadGcideTrigrams(path);
  ASSERT_TRUE(trigrams.ok()) << trigrams.status();
  EXPECT_EQ(*trigrams,
            (std::vector<std::string>{"The cat sat", "cat sat on",
                                      "mat the cat", "on the mat", "sat on the",
                                      "the cat sat", "the mat the"}));
}

TEST_F(SourceFilesTest, GcideMissingOrNotGzipIsAnErrorNamingThePackage) {
  absl::StatusOr<std::vector<std::string>> missing =
      ReadGcideTrigrams((dir_ / "absent.dz").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("dict-gcide"), std::string::npos)
      << missing.status();
  // Too few words for one trigram.
  absl::StatusOr<std::vector<std::string>> short_text =
      ReadGcideTrigrams(WriteGzip("short.dz", "two words"));
  EXPECT_FALSE(short_text.ok());
}

TEST_F(SourceFilesTest, UrlPartsComeFromCopyrightFilesAndPackageLists) {
  const std::string doc = (dir_ / "doc").string();
  const std::string info = (dir_ / "info").string();
  Write("doc/bash/copyright",
        "Source: https://www.gnu.org/software/bash/\n"
        "See http://ftp.gnu.org/gnu and ftp://nope.example.org/ and "
        "https://localhost/x\n");
  Write("doc/zlib/copyright", "Upstream: https://www.gnu.org/ again\n");
  Write("info/bash.list", "/.\n/usr/bin/bash\n/usr/share/doc/bash\n");
  Write("info/bash.md5sums", "0123 usr/bin/not-a-list\n");
  absl::StatusOr<UrlParts> parts = ReadUrlParts(doc, info);
  ASSERT_TRUE(parts.ok()) << parts.status();
  // Only http(s) hosts with a dot; only *.list lines that are paths.
  EXPECT_EQ(parts->hosts,
            (std::vector<std::string>{"ftp.gnu.org", "www.gnu.org"}));
  EXPECT_EQ(parts->paths, (std::vector<std::string>{"/.", "/usr/bin/bash",
                                                    "/usr/share/doc/bash"}));
}

TEST_F(SourceFilesTest, UrlPartsNeedBothSources) {
  Write("doc/bash/copyright", "nothing\n");
  Write("info/bash.list", "/usr/bin/bash\n");
  absl::StatusOr<UrlParts> parts =
      ReadUrlParts((dir_ / "doc").string(), (dir_ / "info").string());
  ASSERT_FALSE(parts.ok());
  EXPECT_NE(parts.status().message().find("0 host names"), std::string::npos)
      << parts.status();
}

TEST(CourseV3Test, KeysAndValuesEndInANewline) {
  absl::StatusOr<DataSet> data = GenerateDataSet("course_v3", 2000, 9);
  ASSERT_TRUE(data.ok()) << data.status();
  ASSERT_EQ(data->size(), 2000u);
  for (uint64_t i = 0; i < data->size(); ++i) {
    const std::string_view key = data->key(i), value = data->value(i);
    ASSERT_GE(key.size(), 2u);
    ASSERT_LE(key.size(), 64u);
    ASSERT_EQ(key.back(), '\n');
    for (char c : key.substr(0, key.size() - 1)) {
      ASSERT_TRUE((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) << key;
    }
    ASSERT_GE(value.size(), 2u);
    ASSERT_LE(value.size(), 255u);
    ASSERT_EQ(value.back(), '\n');
    for (char c : value.substr(0, value.size() - 1)) {
      ASSERT_TRUE(c >= 32 && c <= 126) << value;
    }
  }
  // Prefix-stable like every generated data set.
  absl::StatusOr<DataSet> fewer = GenerateDataSet("course_v3", 500, 9);
  ASSERT_TRUE(fewer.ok());
  for (uint64_t i = 0; i < fewer->size(); ++i) {
    ASSERT_EQ(fewer->key(i), data->key(i));
    ASSERT_EQ(fewer->value(i), data->value(i));
  }
}

TEST(DataSetStatsTest, CountsLengthsAndSharedPrefixes) {
  DataSetBuilder builder(/*dedupe=*/true, 5);
  // Sorted: a, ab, abc, abd, b: shared with the predecessor 1, 2, 2, 0.
  for (std::string_view key : {"abd", "b", "a", "abc", "ab"}) {
    builder.Add(key, "vv");
  }
  DataSetInfo info;
  info.name = "t";
  const DataSet data = builder.Finish(info);
  const DataSetStats stats = ComputeStats(data);
  EXPECT_EQ(stats.count, 5u);
  EXPECT_DOUBLE_EQ(stats.avg_key, 10.0 / 5);
  EXPECT_DOUBLE_EQ(stats.avg_value, 2.0);
  EXPECT_EQ(stats.key_min, 1u);
  EXPECT_EQ(stats.key_p50, 2u);
  EXPECT_EQ(stats.key_max, 3u);
  EXPECT_DOUBLE_EQ(stats.avg_shared_prefix, 5.0 / 4);
  EXPECT_EQ(stats.shared_max, 2u);
  const std::string line = FormatStats(stats);
  EXPECT_NE(line.find("count 5 |"), std::string::npos) << line;
  EXPECT_NE(line.find("max 3"), std::string::npos) << line;
}

}  // namespace
}  // namespace kvbench
