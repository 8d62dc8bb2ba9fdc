#include "kvlab/ect/ect_store.h"

#include <map>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/ect/stores.h"
#include "kvlab/std_map_store.h"
#include "kvlab/testing/fault_env.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab::ect {
namespace {

BufferFactory StdMapBuffer() {
  return []() -> absl::StatusOr<std::unique_ptr<KVStore>> {
    return std::make_unique<StdMapStore>();
  };
}

std::unique_ptr<EctStore> OpenOrDie(const EctOptions& o) {
  auto store = EctStore::Open(o, StdMapBuffer());
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

EctOptions Small(const std::string& dir) {
  EctOptions o;
  o.dir = dir;
  o.bucket_size = 16;
  o.merge_pairs = 50;
  o.sync = SyncPolicy::kNone;
  return o;
}

void ExpectSameAs(const EctStore& store,
                  const std::map<std::string, std::string>& model) {
  ASSERT_EQ(store.Size(), model.size());
  for (const auto& [k, v] : model) {
    std::string got;
    ASSERT_TRUE(store.Get(k, &got)) << k;
    ASSERT_EQ(got, v) << k;
  }
}

// Random puts and deletes against a std::map, through many merges, reopened
// now and then; the invariants checked after each phase.
TEST(EctStoreTest, DifferentialThroughMergesAndReopens) {
  testing::TempDir dir;
  std::mt19937_64 rng(2013);
  std::map<std::string, std::string> model;
  auto store = OpenOrDie(Small(dir.path()));
  for (int phase = 0; phase < 6; ++phase) {
    for (int i = 0; i < 400; ++i) {
      const std::string key = absl::StrCat("k", rng() % 500);
      if (rng() % 4 == 0) {
        const bool had = model.erase(key) > 0;
        ASSERT_EQ(store->Delete(key), had) << key;
      } else {
        const std::string value(rng() % 40,
                                static_cast<char>('a' + rng() % 26));
        const bool had = model.count(key) > 0;
        auto replaced = store->Put(key, value);
        ASSERT_TRUE(replaced.ok()) << replaced.status();
        ASSERT_EQ(*replaced, had) << key;
        model[key] = value;
      }
    }
    ExpectSameAs(*store, model);
    ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
    if (phase % 2 == 1) {
      store.reset();
      store = OpenOrDie(Small(dir.path()));
      ExpectSameAs(*store, model);
    }
  }
  EXPECT_GT(store->stats().generation, 5u);
}

TEST(EctStoreTest, OneReadPerGetOfAFileKeyAtMostOneForAnAbsentKey) {
  testing::TempDir dir;
  EctOptions o = Small(dir.path());
  o.merge_pairs = 100000;  // merges only when the test asks
  auto store = OpenOrDie(o);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(store->Put(absl::StrCat("key", i), absl::StrCat("v", i)).ok());
  }
  ASSERT_TRUE(store->Merge().ok());
  EctStats before = store->stats();
  EXPECT_EQ(before.buffer_puts, 0u);
  for (int i = 0; i < 5000; ++i) {
    std::string v;
    ASSERT_TRUE(store->Get(absl::StrCat("key", i), &v));
    ASSERT_EQ(v, absl::StrCat("v", i));
  }
  EctStats after = store->stats();
  EXPECT_EQ(after.get_reads - before.get_reads, 5000u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_FALSE(store->Get(absl::StrCat("absent", i), nullptr));
  }
  EctStats absent = store->stats();
  EXPECT_LE(absent.get_reads - after.get_reads, 5000u);
  // At 16 keys a bucket, few buckets are empty: most absent keys cost a read.
  EXPECT_GT(absent.get_reads - after.get_reads, 4000u);
}

TEST(EctStoreTest, ASecondOpenOfTheDirectoryIsRefused) {
  testing::TempDir dir;
  auto first = OpenOrDie(Small(dir.path()));
  auto second = EctStore::Open(Small(dir.path()), StdMapBuffer());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  first.reset();
  EXPECT_TRUE(EctStore::Open(Small(dir.path()), StdMapBuffer()).ok());
}

TEST(EctStoreTest, RecoverySaysWhatItFound) {
  testing::TempDir dir;
  {
    auto store = OpenOrDie(Small(dir.path()));
    for (int i = 0; i < 120; ++i) {
      ASSERT_TRUE(store->Put(absl::StrCat("k", i), "v").ok());
    }
    ASSERT_TRUE(store->Delete("k0"));
  }
  auto store = OpenOrDie(Small(dir.path()));
  EXPECT_NE(store->recovery().find("generation 2: data-2 with 100 pairs"),
            std::string::npos)
      << store->recovery();
  EXPECT_NE(store->recovery().find("20 puts"), std::string::npos)
      << store->recovery();
  EXPECT_NE(store->recovery().find("1 tombstones"), std::string::npos)
      << store->recovery();
  EXPECT_EQ(store->Size(), 119u);
}

// A full disk during a merge: the Put that started it succeeds (it is in
// the buffer's log), the old generation stays, nothing is lost, and a later
// merge succeeds.
TEST(EctStoreTest, AFailedMergeLosesNothing) {
  durable::testing::FaultEnv env;
  EctOptions o = Small("/ect");
  o.env = &env;
  o.merge_pairs = 100000;  // merges only when the test asks
  auto store = OpenOrDie(o);
  std::map<std::string, std::string> model;
  for (int i = 0; i < 300; ++i) {
    model[absl::StrCat("k", i)] = std::string(100, 'x');
    ASSERT_TRUE(store->Put(absl::StrCat("k", i), std::string(100, 'x')).ok());
  }
  ASSERT_TRUE(store->Merge().ok());
  for (int i = 300; i < 400; ++i) {
    model[absl::StrCat("k", i)] = "y";
    ASSERT_TRUE(store->Put(absl::StrCat("k", i), "y").ok());
  }
  for (int fail_after : {0, 1, 2, 3, 5, 8}) {
    env.FailWriteAfter(fail_after);
    EXPECT_FALSE(store->Merge().ok()) << fail_after;
    env.FailWriteAfter(-1);
    ExpectSameAs(*store, model);
    ASSERT_TRUE(store->CheckInvariants().ok());
  }
  ASSERT_TRUE(store->Merge().ok());
  ExpectSameAs(*store, model);
  store.reset();
  store = OpenOrDie(o);
  ExpectSameAs(*store, model);
}

// A crash (unsynced writes lost) at every step of a merge: reopening gives
// either generation, whole, with every write of the buffer.
TEST(EctStoreTest, CrashDuringAMergeKeepsOneWholeGeneration) {
  for (int sync_fail = 0; sync_fail < 12; ++sync_fail) {
    durable::testing::FaultEnv env;
    EctOptions o = Small("/ect");
    o.env = &env;
    o.sync = SyncPolicy::kEvery;
    o.merge_pairs = 100000;  // merges only when the test asks
    std::map<std::string, std::string> model;
    {
      auto store = OpenOrDie(o);
      for (int i = 0; i < 200; ++i) {
        model[absl::StrCat("k", i)] = absl::StrCat(i);
        ASSERT_TRUE(store->Put(absl::StrCat("k", i), absl::StrCat(i)).ok());
      }
      ASSERT_TRUE(store->Merge().ok());
      for (int i = 150; i < 260; ++i) {
        model[absl::StrCat("k", i)] = "new";
        ASSERT_TRUE(store->Put(absl::StrCat("k", i), "new").ok());
      }
      ASSERT_TRUE(store->Delete("k3"));
      model.erase("k3");
      env.FailSyncAfter(sync_fail);  // the merge stops at some sync
      store->Merge().IgnoreError();
      env.FailSyncAfter(-1);
    }
    env.Crash(durable::testing::CrashMode::kDropUnsynced, sync_fail);
    auto store = OpenOrDie(o);
    ExpectSameAs(*store, model);
    ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
  }
}

TEST(EctStoreTest, RegistryOptionsAndBufferFallback) {
  StoreRegistry registry;
  RegisterEctStores(&registry);
  // No hyperion in this registry: the default buffer falls back to std_map.
  auto store = registry.Make("ect:sync=none");
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_FALSE((*store)->IsThreadSafe() == false);
  EXPECT_FALSE(registry.Make("ect:buffer=nonesuch").ok());
  EXPECT_FALSE(registry.Make("ect:buffer=ect").ok());
  EXPECT_FALSE(registry.Make("ect:hmax=65").ok());
  EXPECT_FALSE(registry.Make("ect:sync=sometimes").ok());
  EXPECT_FALSE(registry.Make("ect:sort_memory=0").ok());
  EXPECT_TRUE(registry.Make("ect:sort_memory=4096").ok());
  EXPECT_FALSE(registry.Find("ect")->ordered);
}

}  // namespace
}  // namespace kvlab::ect
