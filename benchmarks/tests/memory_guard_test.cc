#include "kvbench/memory_guard.h"

#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace kvbench {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

TEST(MemoryGuardTest, ParsesMemAvailableInKib) {
  const std::string meminfo =
      "MemTotal:       24600000 kB\n"
      "MemFree:        20000000 kB\n"
      "MemAvailable:   22000000 kB\n"
      "Buffers:           12345 kB\n";
  absl::StatusOr<uint64_t> available = ParseMemAvailable(meminfo);
  ASSERT_TRUE(available.ok()) << available.status();
  EXPECT_EQ(*available, 22'000'000ull * 1024);
  EXPECT_FALSE(ParseMemAvailable("MemTotal: 1 kB\n").ok());
  EXPECT_FALSE(ParseMemAvailable("MemAvailable: lots\n").ok());
  absl::StatusOr<uint64_t> real = ReadMemAvailable();
  ASSERT_TRUE(real.ok()) << real.status();
  EXPECT_GT(*real, 0u);
}

TEST(MemoryGuardTest, SamplesOnlyRunsLargerThanTheSample) {
  EXPECT_EQ(SamplePairs(1), 0u);
  EXPECT_EQ(SamplePairs(kMaxSamplePairs), 0u);
  EXPECT_EQ(SamplePairs(kMaxSamplePairs + 1), kMaxSamplePairs);
  EXPECT_EQ(SamplePairs(200'000'000), kMaxSamplePairs);
}

// The two-point slope drops a store's fixed cost: 1 MB up front, then 100
// bytes a pair, predicts 1 MB + 100 n, not (1 MB / m + 100) n.
TEST(MemoryGuardTest, ExtrapolatesTheSlopeNotTheAverage) {
  MemoryEstimate sample;
  sample.half_pairs = 5'000;
  sample.sample_pairs = 10'000;
  sample.half_growth = 1e6 + 100 * 5'000;
  sample.sample_growth = 1e6 + 100 * 10'000;
  sample.data_bytes = 50 * 10'000;
  sample.n = 1'000'000;
  const MemoryEstimate e = Extrapolate(sample);
  EXPECT_DOUBLE_EQ(e.bytes_per_pair, 100);
  EXPECT_DOUBLE_EQ(e.predicted_bytes, 1e6 + 100 * 1e6 + 50 * 1e6);
}

TEST(MemoryGuardTest, RefusesOverEightyPercentWithTheEstimate) {
  MemoryEstimate e;
  e.sample_pairs = 10'000;
  e.bytes_per_pair = 63'000;
  e.predicted_bytes = 63.0 * kGiB;
  const uint64_t available = static_cast<uint64_t>(21.0 * kGiB);
  std::optional<std::string> refusal = MemoryRefusal(e, available);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("needs about 63.0 GiB"), std::string::npos)
      << *refusal;
  EXPECT_NE(refusal->find("80% of the 21.0 GiB available"), std::string::npos)
      << *refusal;
  EXPECT_NE(refusal->find("63000 B/pair"), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("--allow_memory_overcommit"), std::string::npos)
      << *refusal;
  e.predicted_bytes = 0.79 * 21.0 * kGiB;
  EXPECT_FALSE(MemoryRefusal(e, available).has_value());
  e.predicted_bytes = 0.81 * 21.0 * kGiB;
  EXPECT_TRUE(MemoryRefusal(e, available).has_value());
}

TEST(MemoryGuardTest, EstimateSurvivesThePipe) {
  MemoryEstimate sample;
  sample.half_pairs = 5'000;
  sample.sample_pairs = 10'000;
  sample.half_growth = 700'000;
  sample.sample_growth = 1'300'000;
  sample.data_bytes = 2'000'000;
  sample.n = 3'000'000;
  absl::StatusOr<MemoryEstimate> back =
      ParseEstimate(SerializeEstimate(Extrapolate(sample)));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->n, 3'000'000u);
  EXPECT_DOUBLE_EQ(back->bytes_per_pair, 120);
  EXPECT_DOUBLE_EQ(back->predicted_bytes, Extrapolate(sample).predicted_bytes);
  EXPECT_FALSE(ParseEstimate("1 2 3").ok());
  EXPECT_FALSE(ParseEstimate("").ok());
}

// A real sample: std_map holds a course pair in a few hundred bytes (a
// 32-byte key and ~128-byte value in two strings plus the tree node).
TEST(MemoryGuardTest, MeasuresARealStoreSample) {
  if (std::string_view(KVLAB_SANITIZER) != "") {
    GTEST_SKIP() << "sanitizer shadow memory inflates RSS growth";
  }
  absl::StatusOr<MemoryEstimate> e =
      MeasureSample("std_map", "course", 1'000'000, 42);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->sample_pairs, kMaxSamplePairs);
  EXPECT_GT(e->bytes_per_pair, 150);
  EXPECT_LT(e->bytes_per_pair, 1000);
  EXPECT_GT(e->predicted_bytes, 1e6 * e->bytes_per_pair);
  EXPECT_FALSE(MeasureSample("std_map", "course", 100, 42).ok());
  EXPECT_FALSE(MeasureSample("no_such_store", "course", 1'000'000, 42).ok());
}

// The guard end to end, in a forked child: a small run needs no sample, and
// a plausible one fits on any machine that runs these tests.
TEST(MemoryGuardTest, CheckRunMemoryPassesRunsThatFit) {
  EXPECT_FALSE(CheckRunMemory("std_map", "course", 1'000, 42, 60).has_value());
  EXPECT_FALSE(
      CheckRunMemory("std_map", "course", 100'000, 42, 60).has_value());
}

// 200 million course pairs in a std_map need some 80 GB: refused on any
// machine with less than 100 GB available, the estimate in the message.
TEST(MemoryGuardTest, CheckRunMemoryRefusesARunThatCannotFit) {
  absl::StatusOr<uint64_t> available = ReadMemAvailable();
  ASSERT_TRUE(available.ok()) << available.status();
  if (*available > 100 * kGiB) GTEST_SKIP() << "this machine has room";
  std::optional<std::string> refusal =
      CheckRunMemory("std_map", "course", 200'000'000, 42, 60);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find("refused: needs about"), std::string::npos)
      << *refusal;
}

}  // namespace
}  // namespace kvbench
