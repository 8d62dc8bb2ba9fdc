#include "kvlab/ect/external_sort.h"

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/testing/fault_env.h"

namespace kvlab::ect {
namespace {

using durable::testing::FaultEnv;

// Records with few distinct hashkeys and keys, so that ties (equal
// hashkeys with different keys, and repeated keys) are common; keys and
// values hold any byte, \0 included.
std::vector<SortRecord> RandomRecords(uint64_t seed, size_t n,
                                      size_t max_value) {
  std::mt19937_64 rng(seed);
  std::vector<SortRecord> records;
  for (size_t i = 0; i < n; ++i) {
    SortRecord r;
    r.hashkey = rng() % 64 == 0 ? rng() % 4 : rng() % (n + 1) * 0x9e3779b9u;
    r.key.resize(rng() % 12);
    for (char& c : r.key) c = static_cast<char>(rng() % 4);
    r.value.resize(rng() % (max_value + 1));
    for (char& c : r.value) c = static_cast<char>(rng());
    r.tombstone = rng() % 5 == 0;
    records.push_back(std::move(r));
  }
  return records;
}

// The model: a stable in-memory sort by (hashkey, key).
std::vector<SortRecord> ModelSort(std::vector<SortRecord> records) {
  std::stable_sort(records.begin(), records.end(),
                   [](const SortRecord& a, const SortRecord& b) {
                     return std::tie(a.hashkey, a.key) <
                            std::tie(b.hashkey, b.key);
                   });
  return records;
}

ExternalSortOptions Options(FaultEnv* env, uint64_t budget, int fan_in = 64) {
  ExternalSortOptions o;
  o.env = env;
  o.dir = "/sort";
  o.memory_bytes = budget;
  o.max_fan_in = fan_in;
  return o;
}

size_t RunFiles(FaultEnv* env) {
  auto names = env->List("/sort");
  EXPECT_TRUE(names.ok());
  return static_cast<size_t>(std::count_if(
      names->begin(), names->end(),
      [](const std::string& n) { return absl::StartsWith(n, "sort-"); }));
}

struct SortResult {
  std::vector<SortRecord> out;
  uint64_t runs = 0;
  uint64_t peak = 0;
};

SortResult SortAll(FaultEnv* env, const ExternalSortOptions& o,
                   const std::vector<SortRecord>& records) {
  SortResult result;
  auto sorter = ExternalSorter::Create(o);
  EXPECT_TRUE(sorter.ok()) << sorter.status();
  for (const SortRecord& r : records) {
    absl::Status s = (*sorter)->Add(r.hashkey, r.key, r.value, r.tombstone);
    EXPECT_TRUE(s.ok()) << s;
  }
  absl::Status s = (*sorter)->Finish();
  EXPECT_TRUE(s.ok()) << s;
  SortRecord r;
  for (;;) {
    absl::StatusOr<bool> more = (*sorter)->Next(&r);
    EXPECT_TRUE(more.ok()) << more.status();
    if (!more.ok() || !*more) break;
    result.out.push_back(r);
  }
  EXPECT_EQ((*sorter)->records(), records.size());
  result.runs = (*sorter)->runs_written();
  result.peak = (*sorter)->peak_memory_bytes();
  sorter->reset();
  EXPECT_EQ(RunFiles(env), 0u) << "run files left after the sorter";
  return result;
}

void ExpectSame(const std::vector<SortRecord>& got,
                const std::vector<SortRecord>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].hashkey, want[i].hashkey) << i;
    ASSERT_EQ(got[i].key, want[i].key) << i;
    ASSERT_EQ(got[i].value, want[i].value) << i;
    ASSERT_EQ(got[i].tombstone, want[i].tombstone) << i;
  }
}

// The same records sorted in memory (one run, never written), in two runs,
// in a few, and in many with merge passes (fan-in 4), against the model.
TEST(ExternalSortTest, MatchesAnInMemorySortForOneTwoAndManyRuns) {
  const std::vector<SortRecord> records = RandomRecords(2013, 3000, 40);
  const std::vector<SortRecord> want = ModelSort(records);
  uint64_t bytes = 0;
  for (const SortRecord& r : records) {
    bytes += r.key.size() + r.value.size() + 24;
  }
  struct Case {
    uint64_t budget;
    int fan_in;
    uint64_t min_runs, max_runs;
  };
  for (const Case& c : {Case{bytes * 4, 64, 0, 0},          // in memory
                        Case{bytes * 3 / 4, 64, 2, 2},      // two runs
                        Case{bytes / 5, 64, 5, 12},         // a few
                        Case{bytes / 100, 4, 100, 100000},  // merge passes
                        Case{1, 64, 3000, 100000}}) {       // one each
    SCOPED_TRACE(absl::StrCat("budget ", c.budget, " fan-in ", c.fan_in));
    FaultEnv env;
    ASSERT_TRUE(env.CreateDir("/sort").ok());
    SortResult r = SortAll(&env, Options(&env, c.budget, c.fan_in), records);
    ExpectSame(r.out, want);
    EXPECT_GE(r.runs, c.min_runs);
    EXPECT_LE(r.runs, c.max_runs);
    if (c.budget >= 4096) {
      EXPECT_LE(r.peak, c.budget);
    }
  }
}

TEST(ExternalSortTest, EqualRecordsComeOutInTheOrderAdded) {
  FaultEnv env;
  ASSERT_TRUE(env.CreateDir("/sort").ok());
  std::vector<SortRecord> records;
  for (int i = 0; i < 500; ++i) {
    records.push_back({7, "same", absl::StrCat(i), i % 2 == 0});
  }
  for (uint64_t budget : {uint64_t{1} << 20, uint64_t{200}, uint64_t{1}}) {
    SortResult r = SortAll(&env, Options(&env, budget, 3), records);
    ExpectSame(r.out, records);
  }
}

TEST(ExternalSortTest, BudgetEdgeCases) {
  FaultEnv env;
  ASSERT_TRUE(env.CreateDir("/sort").ok());
  // No budget, no fan-in, no directory: refused.
  EXPECT_EQ(ExternalSorter::Create(Options(&env, 0)).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ExternalSorter::Create(Options(&env, 100, 1)).status().code(),
            absl::StatusCode::kInvalidArgument);
  ExternalSortOptions no_dir = Options(&env, 100);
  no_dir.dir.clear();
  EXPECT_FALSE(ExternalSorter::Create(no_dir).ok());

  // Nothing added: nothing out, no run.
  SortResult empty = SortAll(&env, Options(&env, 1), {});
  EXPECT_TRUE(empty.out.empty());
  EXPECT_EQ(empty.runs, 0u);

  // One record bigger than the budget among small ones: held alone.
  std::vector<SortRecord> records = RandomRecords(7, 50, 10);
  records.insert(
      records.begin() + 20,
      SortRecord{records[3].hashkey, "big", std::string(5000, 'x'), false});
  SortResult big = SortAll(&env, Options(&env, 1000), records);
  ExpectSame(big.out, ModelSort(records));
  EXPECT_GE(big.runs, 3u);

  // A budget that holds exactly the records (their bytes, 24 each): no
  // run; one byte less: a run.
  std::vector<SortRecord> four;
  for (int i = 0; i < 4; ++i) four.push_back({uint64_t(4 - i), "k", "v"});
  SortResult exact = SortAll(&env, Options(&env, 4096 + 64 * 24), four);
  EXPECT_EQ(exact.runs, 0u);
  ExpectSame(exact.out, ModelSort(four));
  SortResult tight = SortAll(&env, Options(&env, 3 * (2 + 24)), four);
  ExpectSame(tight.out, ModelSort(four));
  EXPECT_GE(tight.runs, 2u);
  EXPECT_LE(tight.peak, 3u * (2 + 24));

  // Empty keys and values.
  std::vector<SortRecord> blanks = {{5, "", ""}, {5, "", "x"}, {1, "", ""}};
  ExpectSame(SortAll(&env, Options(&env, 1), blanks).out, ModelSort(blanks));
}

TEST(ExternalSortTest, CallsOutOfOrderAreRefused) {
  FaultEnv env;
  ASSERT_TRUE(env.CreateDir("/sort").ok());
  auto sorter = ExternalSorter::Create(Options(&env, 100));
  ASSERT_TRUE(sorter.ok());
  SortRecord r;
  EXPECT_EQ((*sorter)->Next(&r).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE((*sorter)->Add(1, "a", "b").ok());
  ASSERT_TRUE((*sorter)->Finish().ok());
  EXPECT_EQ((*sorter)->Add(1, "a", "b").code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE((*sorter)->Finish().ok());
}

// A write of a run fails (out of disk) at each point in turn: the error is
// returned, Add or Finish reports it, and every run file goes with the
// sorter.
TEST(ExternalSortTest, AFailedRunWriteIsReportedAndCleanedUp) {
  const std::vector<SortRecord> records = RandomRecords(11, 400, 30);
  const std::vector<SortRecord> want = ModelSort(records);
  bool succeeded = false;
  for (int n = 0; !succeeded; ++n) {
    ASSERT_LT(n, 1000);
    FaultEnv env;
    ASSERT_TRUE(env.CreateDir("/sort").ok());
    // Small blocks (the 4 KiB floor) and a fan-in of 3: many writes, in
    // runs and in merge passes.
    auto sorter = ExternalSorter::Create(Options(&env, 2000, 3));
    ASSERT_TRUE(sorter.ok());
    env.FailWriteAfter(n);
    absl::Status s;
    for (const SortRecord& r : records) {
      s = (*sorter)->Add(r.hashkey, r.key, r.value, r.tombstone);
      if (!s.ok()) break;
    }
    if (s.ok()) s = (*sorter)->Finish();
    if (s.ok()) {
      succeeded = true;
      std::vector<SortRecord> out;
      SortRecord r;
      for (;;) {
        absl::StatusOr<bool> more = (*sorter)->Next(&r);
        ASSERT_TRUE(more.ok()) << more.status();
        if (!*more) break;
        out.push_back(r);
      }
      ExpectSame(out, want);
    } else {
      EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
      EXPECT_FALSE((*sorter)->Add(1, "a", "b").ok());
    }
    sorter->reset();
    EXPECT_EQ(RunFiles(&env), 0u) << "after failing write " << n;
  }
}

TEST(ExternalSortTest, LeftoversOfACrashAreRemoved) {
  FaultEnv env;
  ASSERT_TRUE(env.CreateDir("/sort").ok());
  for (const char* name : {"sort-0", "sort-17", "data-3"}) {
    auto f = env.Open(absl::StrCat("/sort/", name), true);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Write(0, "bytes").ok());
  }
  auto removed = RemoveSortLeftovers(&env, "/sort");
  ASSERT_TRUE(removed.ok()) << removed.status();
  EXPECT_EQ(removed->size(), 2u);
  auto names = env.List("/sort");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"data-3"});
}

}  // namespace
}  // namespace kvlab::ect
