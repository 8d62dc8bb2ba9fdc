// EctStore::Load and merges through the external sort: builds larger than
// the sort's memory budget, and failures that leave the store as it was.

#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/std_map_store.h"
#include "kvlab/testing/fault_env.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab::ect {
namespace {

using Model = std::map<std::string, std::string>;
using Pairs = std::vector<std::pair<std::string, std::string>>;

std::unique_ptr<EctStore> OpenOrDie(const EctOptions& o) {
  auto store =
      EctStore::Open(o, []() -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<StdMapStore>();
      });
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

EctOptions Options(const std::string& dir, uint64_t sort_memory) {
  EctOptions o;
  o.dir = dir;
  o.bucket_size = 16;
  o.merge_pairs = 100000;  // merges only when the test asks
  o.sort_memory_bytes = sort_memory;
  o.sync = SyncPolicy::kNone;
  return o;
}

// Keys from a small range (so repeats are common) and values of any byte.
Pairs RandomPairs(uint64_t seed, int n, int key_range) {
  std::mt19937_64 rng(seed);
  Pairs pairs;
  for (int i = 0; i < n; ++i) {
    std::string value(rng() % 60, '\0');
    for (char& c : value) c = static_cast<char>(rng());
    pairs.emplace_back(absl::StrCat("key", rng() % key_range), value);
  }
  return pairs;
}

absl::Status LoadAll(EctStore* store, const Pairs& pairs) {
  size_t i = 0;
  return store->Load([&](std::string* k, std::string* v) {
    if (i == pairs.size()) return false;
    *k = pairs[i].first;
    *v = pairs[i].second;
    ++i;
    return true;
  });
}

void ExpectSameAs(const EctStore& store, const Model& model) {
  ASSERT_EQ(store.Size(), model.size());
  for (const auto& [k, v] : model) {
    std::string got;
    ASSERT_TRUE(store.Get(k, &got)) << k;
    ASSERT_EQ(got, v) << k;
  }
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
}

std::vector<std::string> Names(durable::Env* env, const std::string& dir) {
  auto names = env->List(dir);
  EXPECT_TRUE(names.ok()) << names.status();
  return names.ok() ? *names : std::vector<std::string>{};
}

bool HasSortRuns(durable::Env* env, const std::string& dir) {
  for (const std::string& n : Names(env, dir)) {
    if (absl::StartsWith(n, "sort-")) return true;
  }
  return false;
}

// A bulk build of 20,000 pairs (repeated keys: the last wins) in a sort
// budget of 16 KiB, then a second load over the first, each against a
// std::map; the store reopened.
TEST(EctLoadTest, BuildsAStoreFromMorePairsThanTheSortBudget) {
  testing::TempDir dir;
  const EctOptions o = Options(dir.path(), 16 << 10);
  auto store = OpenOrDie(o);
  Model model;
  for (uint64_t seed : {1, 2}) {
    const Pairs pairs = RandomPairs(seed, 20000, 15000);
    ASSERT_TRUE(LoadAll(store.get(), pairs).ok());
    for (const auto& [k, v] : pairs) model[k] = v;
    ExpectSameAs(*store, model);
    EXPECT_FALSE(HasSortRuns(durable::DefaultEnv(), dir.path()));
  }
  EXPECT_GT(store->stats().sort_runs, 20u);
  EXPECT_EQ(store->stats().generation, 2u);
  store.reset();
  store = OpenOrDie(o);
  ExpectSameAs(*store, model);
}

// A load after buffered puts and deletes: the loaded pairs are the newer
// writes; the buffer's other writes are merged with it.
TEST(EctLoadTest, LoadedPairsAreNewerThanTheBuffer) {
  testing::TempDir dir;
  auto store = OpenOrDie(Options(dir.path(), 4 << 10));
  Model model;
  for (int i = 0; i < 300; ++i) {
    const std::string k = absl::StrCat("key", i);
    ASSERT_TRUE(store->Put(k, "file").ok());
    model[k] = "file";
  }
  ASSERT_TRUE(store->Merge().ok());
  for (int i = 0; i < 300; i += 3) {
    const std::string k = absl::StrCat("key", i);
    ASSERT_TRUE(store->Delete(k));
    model.erase(k);
  }
  for (int i = 250; i < 400; ++i) {
    const std::string k = absl::StrCat("key", i);
    ASSERT_TRUE(store->Put(k, "buffer").ok());
    model[k] = "buffer";
  }
  Pairs pairs;
  for (int i = 0; i < 500; i += 7) {
    pairs.emplace_back(absl::StrCat("key", i), "loaded");
    model[absl::StrCat("key", i)] = "loaded";
  }
  ASSERT_TRUE(LoadAll(store.get(), pairs).ok());
  ExpectSameAs(*store, model);
  EXPECT_EQ(store->stats().buffer_puts + store->stats().buffer_tombstones, 0u);
}

// A merge whose buffer is larger than the sort budget sorts it in runs.
TEST(EctLoadTest, AMergeOfABufferLargerThanTheBudgetSpills) {
  testing::TempDir dir;
  auto store = OpenOrDie(Options(dir.path(), 8 << 10));
  Model model;
  for (const auto& [k, v] : RandomPairs(3, 3000, 2000)) {
    ASSERT_TRUE(store->Put(k, v).ok());
    model[k] = v;
  }
  ASSERT_TRUE(store->Merge().ok());
  EXPECT_GT(store->stats().sort_runs, 5u);
  ExpectSameAs(*store, model);
  EXPECT_FALSE(HasSortRuns(durable::DefaultEnv(), dir.path()));
}

TEST(EctLoadTest, APairOverTheLimitsIsRefusedAndChangesNothing) {
  testing::TempDir dir;
  auto store = OpenOrDie(Options(dir.path(), 2 << 10));
  Model model;
  for (const auto& [k, v] : RandomPairs(4, 500, 400)) {
    ASSERT_TRUE(store->Put(k, v).ok());
    model[k] = v;
  }
  for (const Pairs& bad :
       {Pairs{{"a", "1"}, {std::string(kMaxKeySize + 1, 'k'), "v"}},
        Pairs{{"b", "2"}, {"c", std::string(kMaxValueSize + 1, 'v')}}}) {
    Pairs pairs = RandomPairs(5, 400, 1000);  // spilled before the bad one
    pairs.insert(pairs.end(), bad.begin(), bad.end());
    absl::Status s = LoadAll(store.get(), pairs);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
    ExpectSameAs(*store, model);
    EXPECT_FALSE(HasSortRuns(durable::DefaultEnv(), dir.path()));
  }
  // The limits themselves are fine, and so are empty keys and \0 bytes.
  const Pairs edge = {{std::string(kMaxKeySize, 'k'), "max key"},
                      {"max value", std::string(kMaxValueSize, 'v')},
                      {"", std::string("\0\0", 2)},
                      {std::string("\0", 1), ""}};
  ASSERT_TRUE(LoadAll(store.get(), edge).ok());
  for (const auto& [k, v] : edge) model[k] = v;
  ExpectSameAs(*store, model);
}

// A write (out of disk space) or a sync that fails at each point of a load
// in turn: the load reports it, the store is as it was, no sort run or new
// data file is left, and the store reopens as it was.
TEST(EctLoadTest, AFailedWriteOrSyncLeavesTheStoreAsItWas) {
  for (const bool fail_sync : {false, true}) {
    durable::testing::FaultEnv env;
    EctOptions o = Options("/ect", 2 << 10);
    o.env = &env;
    auto store = OpenOrDie(o);
    Model model;
    for (const auto& [k, v] : RandomPairs(6, 300, 200)) {
      ASSERT_TRUE(store->Put(k, v).ok());
      model[k] = v;
    }
    ASSERT_TRUE(store->Merge().ok());
    ASSERT_TRUE(store->Put("buffered", "yes").ok());
    model["buffered"] = "yes";
    const std::vector<std::string> files = Names(&env, "/ect");
    const Pairs pairs = RandomPairs(7, 600, 400);
    bool loaded = false;
    int failures = 0;
    for (int n = 0; !loaded; ++n) {
      ASSERT_LT(n, 500);
      SCOPED_TRACE(absl::StrCat(fail_sync ? "sync " : "write ", n));
      if (fail_sync) {
        env.FailSyncAfter(n);
      } else {
        env.FailWriteAfter(n);
      }
      const uint64_t generation = store->stats().generation;
      absl::Status s = LoadAll(store.get(), pairs);
      env.FailSyncAfter(-1);
      env.FailWriteAfter(-1);
      if (!s.ok() && fail_sync && store->stats().generation > generation) {
        // The directory's sync after CURRENT's rename failed: the new
        // generation is in use (the error says its name may not be
        // durable yet).
        for (const auto& [k, v] : pairs) model[k] = v;
        ExpectSameAs(*store, model);
        break;
      }
      if (s.ok()) {
        loaded = true;
        for (const auto& [k, v] : pairs) model[k] = v;
      } else {
        ++failures;
        if (!fail_sync) {
          EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
        }
        EXPECT_EQ(Names(&env, "/ect"), files);
      }
      ExpectSameAs(*store, model);
    }
    EXPECT_GT(failures, fail_sync ? 1 : 10);
    store.reset();
    store = OpenOrDie(o);
    ExpectSameAs(*store, model);
  }
}

// Runs left by a crash in the middle of a sort are removed at open, and
// the recovery report names them.
TEST(EctLoadTest, OpenRemovesTheRunsOfAnInterruptedSort) {
  testing::TempDir dir;
  const EctOptions o = Options(dir.path(), 1 << 10);
  {
    auto store = OpenOrDie(o);
    ASSERT_TRUE(store->Put("k", "v").ok());
  }
  for (const char* name : {"sort-0", "sort-12"}) {
    auto f = durable::DefaultEnv()->Open(dir.path() + "/" + name, true);
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE((*f)->Write(0, "half a run").ok());
  }
  auto store = OpenOrDie(o);
  EXPECT_NE(store->recovery().find("removed sort-0, sort-12"),
            std::string::npos)
      << store->recovery();
  EXPECT_FALSE(HasSortRuns(durable::DefaultEnv(), dir.path()));
  ExpectSameAs(*store, {{"k", "v"}});
}

}  // namespace
}  // namespace kvlab::ect
