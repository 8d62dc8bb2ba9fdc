#include "kvbench/options.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"

namespace kvbench {
namespace {

absl::StatusOr<BenchOptions> Validate(const RawOptions& raw) {
  return ValidateOptions(raw, kvlab::BuiltinStores());
}

TEST(OptionsTest, DefaultsAreValid) {
  absl::StatusOr<BenchOptions> options = Validate(RawOptions{});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->n, 1'000'000u);
  EXPECT_EQ(options->threads, 2);
  EXPECT_EQ(options->seconds, 2);
  EXPECT_EQ(options->course_ops, 0u);  // the course phase runs for seconds
  EXPECT_EQ(options->seed, 42u);
  EXPECT_EQ(options->repeat, 1);
  EXPECT_TRUE(options->verify);
  EXPECT_EQ(options->phases.ToString(), "load,get,scan,course");
  EXPECT_EQ(options->datasets, (std::vector<std::string>{"course", "seq_int",
                                                         "rand_int", "words"}));
  // "all" is every registered store, in registration order.
  ASSERT_EQ(options->stores.size(), kvlab::BuiltinStores().stores().size());
  for (size_t i = 0; i < options->stores.size(); ++i) {
    EXPECT_EQ(options->stores[i].spec, kvlab::BuiltinStores().stores()[i].name);
  }
}

// kvbench makes each run's directory itself, and ect is durable by itself.
TEST(OptionsTest, StoresThatKeepFilesTakeNoDirAndNoDurable) {
  RawOptions with_dir;
  with_dir.store = "ect:dir=/tmp/somewhere";
  absl::StatusOr<BenchOptions> refused = Validate(with_dir);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--dir"), std::string::npos)
      << refused.status();
  EXPECT_FALSE(std::filesystem::exists("/tmp/somewhere"));

  RawOptions durable;
  durable.store = "ect";
  durable.durable = "group";
  EXPECT_FALSE(Validate(durable).ok());

  RawOptions plain;
  plain.store = "ect,hyperion";
  plain.dir = ::testing::TempDir();
  absl::StatusOr<BenchOptions> options = Validate(plain);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->dir, plain.dir);
  EXPECT_TRUE(options->stores[0].info.keeps_files);
}

TEST(OptionsTest, DirMustBeADirectoryWithoutAColon) {
  RawOptions missing;
  missing.dir = "/no/such/directory";
  EXPECT_FALSE(Validate(missing).ok());
  const std::string colon = ::testing::TempDir() + "/kvbench:colon";
  std::filesystem::create_directories(colon);
  RawOptions with_colon;
  with_colon.dir = colon;
  EXPECT_FALSE(Validate(with_colon).ok());
  std::filesystem::remove(colon);
}

TEST(OptionsTest, RejectsOutOfRangeN) {
  for (int64_t n : {int64_t{0}, int64_t{-5}, kMaxN + 1}) {
    RawOptions raw;
    raw.n = n;
    absl::StatusOr<BenchOptions> options = Validate(raw);
    ASSERT_FALSE(options.ok()) << n;
    EXPECT_NE(options.status().message().find("--n"), std::string::npos);
    EXPECT_NE(options.status().message().find("200000000"), std::string::npos)
        << options.status();
  }
  RawOptions raw;
  raw.n = kMaxN;
  EXPECT_TRUE(Validate(raw).ok());
}

TEST(OptionsTest, RejectsBadNumbers) {
  RawOptions threads;
  threads.threads = 0;
  EXPECT_FALSE(Validate(threads).ok());
  RawOptions seconds;
  seconds.seconds = 0;
  EXPECT_FALSE(Validate(seconds).ok());
  RawOptions repeat;
  repeat.repeat = 0;
  EXPECT_FALSE(Validate(repeat).ok());
}

TEST(OptionsTest, CourseOpsMustBeACountOrZero) {
  for (int64_t ops : {int64_t{-1}, kMaxCourseOps + 1}) {
    RawOptions raw;
    raw.course_ops = ops;
    absl::StatusOr<BenchOptions> options = Validate(raw);
    ASSERT_FALSE(options.ok()) << ops;
    EXPECT_NE(options.status().message().find("--course_ops"),
              std::string::npos)
        << options.status();
  }
  for (int64_t ops : {int64_t{0}, int64_t{1}, kMaxCourseOps}) {
    RawOptions raw;
    raw.course_ops = ops;
    absl::StatusOr<BenchOptions> options = Validate(raw);
    ASSERT_TRUE(options.ok()) << options.status();
    EXPECT_EQ(options->course_ops, uint64_t(ops));
  }
}

TEST(OptionsTest, UnknownStoreListsWhatExists) {
  RawOptions raw;
  raw.store = "avl,nosuchstore";
  absl::StatusOr<BenchOptions> options = Validate(raw);
  ASSERT_FALSE(options.ok());
  const std::string message(options.status().message());
  EXPECT_NE(message.find("nosuchstore"), std::string::npos) << message;
  EXPECT_NE(message.find("std_map"), std::string::npos) << message;
}

TEST(OptionsTest, UnknownOptionIsAnError) {
  RawOptions raw;
  raw.store = "std_map:order=3";
  EXPECT_FALSE(Validate(raw).ok());
}

TEST(OptionsTest, StoreListKeepsSpecsAndInfo) {
  RawOptions raw;
  raw.store = " std_map , avl ";
  absl::StatusOr<BenchOptions> options = Validate(raw);
  ASSERT_TRUE(options.ok()) << options.status();
  ASSERT_EQ(options->stores.size(), 2u);
  EXPECT_EQ(options->stores[0].spec, "std_map");
  EXPECT_TRUE(options->stores[0].info.linear_nth);
  EXPECT_EQ(options->stores[1].info.name, "avl");
}

TEST(OptionsTest, PhasesAndDataSets) {
  absl::StatusOr<PhaseSet> phases = ParsePhases("load,course_all");
  ASSERT_TRUE(phases.ok());
  EXPECT_TRUE(phases->CourseOn("seq_int"));
  absl::StatusOr<PhaseSet> plain = ParsePhases("load,get,course");
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->CourseOn("course"));
  EXPECT_FALSE(plain->CourseOn("seq_int"));
  EXPECT_FALSE(ParsePhases("get,scan").ok());  // no load
  EXPECT_FALSE(ParsePhases("load,fly").ok());

  RawOptions raw;
  raw.dataset = "course,nope";
  EXPECT_FALSE(Validate(raw).ok());
  raw.dataset = "";
  EXPECT_FALSE(Validate(raw).ok());
}

}  // namespace
}  // namespace kvbench
