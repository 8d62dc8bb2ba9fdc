#include "kvbench/datasets.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "gtest/gtest.h"

namespace kvbench {
namespace {

std::string AllBytes(const DataSet& data) {
  std::string out;
  for (uint64_t i = 0; i < data.size(); ++i) {
    out.append(data.key(i)).append("|").append(data.value(i)).append("\n");
  }
  return out;
}

DataSetInfo NamedInfo(std::string name) {
  DataSetInfo info;
  info.name = std::move(name);
  return info;
}

bool AllUnique(const DataSet& data) {
  std::set<std::string_view> keys;
  for (uint64_t i = 0; i < data.size(); ++i) keys.insert(data.key(i));
  return keys.size() == data.size();
}

TEST(DataSetTest, CourseIsDeterministicPerSeed) {
  absl::StatusOr<DataSet> a = GenerateDataSet("course", 3000, 7);
  absl::StatusOr<DataSet> b = GenerateDataSet("course", 3000, 7);
  absl::StatusOr<DataSet> c = GenerateDataSet("course", 3000, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(AllBytes(*a), AllBytes(*b));
  EXPECT_NE(AllBytes(*a), AllBytes(*c));
}

TEST(DataSetTest, CourseKeysAndValuesHaveTheRightShape) {
  absl::StatusOr<DataSet> data = GenerateDataSet("course", 20000, 42);
  ASSERT_TRUE(data.ok());
  ASSERT_EQ(data->size(), 20000u);
  EXPECT_TRUE(AllUnique(*data));
  size_t min_key = 1000, max_key = 0, min_value = 1000, max_value = 0;
  uint64_t key_bytes = 0, value_bytes = 0;
  for (uint64_t i = 0; i < data->size(); ++i) {
    const std::string_view key = data->key(i), value = data->value(i);
    min_key = std::min(min_key, key.size());
    max_key = std::max(max_key, key.size());
    min_value = std::min(min_value, value.size());
    max_value = std::max(max_value, value.size());
    key_bytes += key.size();
    value_bytes += value.size();
    for (char c : key) ASSERT_TRUE(std::isalpha(static_cast<unsigned char>(c)));
    for (char c : value) ASSERT_TRUE(c >= 32 && c <= 126) << int(c);
  }
  // Uniform lengths: with 20,000 draws both ends are reached.
  EXPECT_EQ(min_key, 1u);
  EXPECT_EQ(max_key, 64u);
  EXPECT_EQ(min_value, 1u);
  EXPECT_EQ(max_value, 255u);
  EXPECT_NEAR(data->info().avg_key_bytes, 32.5, 1.0);
  EXPECT_NEAR(data->info().avg_value_bytes, 128.0, 3.0);
  EXPECT_DOUBLE_EQ(data->info().avg_key_bytes,
                   static_cast<double>(key_bytes) / data->size());
  EXPECT_DOUBLE_EQ(data->info().avg_value_bytes,
                   static_cast<double>(value_bytes) / data->size());
  EXPECT_EQ(data->info().order, LoadOrder::kRandom);
}

TEST(DataSetTest, GenerationIsPrefixStable) {
  absl::StatusOr<DataSet> small = GenerateDataSet("course", 500, 3);
  absl::StatusOr<DataSet> large = GenerateDataSet("course", 1000, 3);
  ASSERT_TRUE(small.ok() && large.ok());
  for (uint64_t i = 0; i < small->size(); ++i) {
    ASSERT_EQ(small->key(i), large->key(i));
    ASSERT_EQ(small->value(i), large->value(i));
  }
}

TEST(DataSetTest, SequentialIntsAreBigEndianAndSorted) {
  absl::StatusOr<DataSet> data = GenerateDataSet("seq_int", 70000, 1);
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->info().order, LoadOrder::kSorted);
  EXPECT_EQ(data->key(0), std::string(8, '\0'));
  EXPECT_EQ(data->key(258), std::string("\0\0\0\0\0\0\x01\x02", 8));
  for (uint64_t i = 0; i < data->size(); ++i) {
    ASSERT_EQ(data->key(i).size(), 8u);
    ASSERT_EQ(data->value(i).size(), 8u);
    if (i > 0) {
      ASSERT_LT(data->key(i - 1), data->key(i));
    }
  }
  EXPECT_DOUBLE_EQ(data->info().avg_key_bytes, 8.0);
}

TEST(DataSetTest, RandomIntsAreUniqueEightByteKeys) {
  absl::StatusOr<DataSet> data = GenerateDataSet("rand_int", 50000, 9);
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(AllUnique(*data));
  bool sorted = true;
  for (uint64_t i = 0; i < data->size(); ++i) {
    ASSERT_EQ(data->key(i).size(), 8u);
    ASSERT_EQ(data->value(i).size(), 8u);
    if (i > 0 && data->key(i - 1) > data->key(i)) sorted = false;
  }
  EXPECT_FALSE(sorted);
}

TEST(DataSetTest, BuilderDropsDuplicateKeys) {
  DataSetBuilder builder(/*dedupe=*/true, 4);
  EXPECT_TRUE(builder.Add("b", "1"));
  EXPECT_TRUE(builder.Add("a", "2"));
  EXPECT_FALSE(builder.Add("b", "3"));
  EXPECT_TRUE(builder.Add("", "4"));  // the empty key is a key
  EXPECT_FALSE(builder.Add("", "5"));
  DataSet data = builder.Finish(NamedInfo("t"));
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(data.key(0), "b");
  EXPECT_EQ(data.value(0), "1");
  EXPECT_EQ(data.key(1), "a");
  EXPECT_EQ(data.value(1), "2");
  EXPECT_EQ(data.key(2), "");
  EXPECT_EQ(data.value(2), "4");
  EXPECT_DOUBLE_EQ(data.info().avg_key_bytes, 2.0 / 3);
}

TEST(DataSetTest, SortedKeyOrderIsUnsignedByteOrder) {
  DataSetBuilder builder(/*dedupe=*/true, 5);
  for (std::string_view key : {"\xff", "a", "ab", "A", "Z"}) {
    builder.Add(key, "v");
  }
  DataSet data = builder.Finish(NamedInfo("t"));
  std::vector<std::string_view> sorted;
  for (uint32_t i : SortedKeyOrder(data)) sorted.push_back(data.key(i));
  EXPECT_EQ(sorted,
            (std::vector<std::string_view>{"A", "Z", "a", "ab", "\xff"}));
}

TEST(DataSetTest, UnknownNameAndZeroNAreErrors) {
  EXPECT_FALSE(GenerateDataSet("nope", 10, 1).ok());
  EXPECT_FALSE(GenerateDataSet("course", 0, 1).ok());
  EXPECT_TRUE(IsDataSetName("words"));
  EXPECT_FALSE(IsDataSetName("word"));
}

class WordsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kvbench_words_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  std::filesystem::path dir_;
};

TEST_F(WordsTest, MergesListsSkipsReadmeAndBinaryFiles) {
  Write("american-english", "apple\nBanana\ncolour\r\n\n");
  Write("british-english", "apple\ncolour\ncaf\xc3\xa9\n");
  Write("README.select-wordlist", "Please use select-default-wordlist\n");
  Write("binary.db", std::string("zzz\0yyy\n", 8));
  absl::StatusOr<std::vector<std::string>> words = ReadWordLists(dir_.string());
  ASSERT_TRUE(words.ok()) << words.status();
  EXPECT_EQ(*words, (std::vector<std::string>{"Banana", "apple", "caf\xc3\xa9",
                                              "colour"}));

  absl::StatusOr<DataSet> data =
      GenerateDataSet("words", 1000, 5, dir_.string());
  ASSERT_TRUE(data.ok());
  EXPECT_EQ(data->size(), 4u);
  EXPECT_EQ(data->info().requested_n, 1000u);
  EXPECT_NE(data->info().note.find("all 4 words"), std::string::npos)
      << data->info().note;
  for (uint64_t i = 0; i < data->size(); ++i) {
    EXPECT_EQ(data->value(i).size(), 8u);
  }

  absl::StatusOr<DataSet> two = GenerateDataSet("words", 2, 5, dir_.string());
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  EXPECT_TRUE(two->info().note.empty());
}

TEST_F(WordsTest, NoListTellsToRunMakeDeps) {
  Write("README", "nothing here\n");
  absl::StatusOr<DataSet> data = GenerateDataSet("words", 10, 5, dir_.string());
  ASSERT_FALSE(data.ok());
  EXPECT_NE(data.status().message().find("make deps"), std::string::npos)
      << data.status();
}

}  // namespace
}  // namespace kvbench
