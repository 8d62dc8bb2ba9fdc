// The durable store: reopening recovers it, under injected failures and
// crashes, and after damage to its files.

#include "kvlab/durable_store.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "durable/log_format.h"
#include "gtest/gtest.h"
#include "kvlab/std_map_store.h"
#include "kvlab/testing/fault_env.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab {
namespace {

using durable::testing::CrashMode;
using durable::testing::FaultEnv;
using Model = std::map<std::string, std::string>;

Model Contents(const KVStore& store) {
  Model model;
  store.Scan("", [&](std::string_view key, std::string_view value) {
    model.emplace(key, value);
    return true;
  });
  return model;
}

using testing::TempDir;

DurabilityOptions SmallOptions(SyncPolicy sync, durable::Env* env = nullptr) {
  DurabilityOptions options;
  options.sync = sync;
  options.log_files = 3;
  options.log_file_bytes = 4 * durable::kBlockSize;
  options.checkpoint_bytes = 3 * durable::kBlockSize;
  options.env = env;
  return options;
}

std::unique_ptr<DurableStore> OpenOrDie(const std::string& dir,
                                        const DurabilityOptions& options) {
  absl::StatusOr<std::unique_ptr<DurableStore>> store =
      DurableStore::Open(std::make_unique<StdMapStore>(), dir, options);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// Disk blocks the file at `path` occupies (st_blocks counts 512 bytes).
uint64_t AllocatedBytes(const std::string& path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return uint64_t(st.st_blocks) * 512;
}

// A store that syncs has its log files' zeros written (later syncs flush
// data only); one that never syncs gets sparse files, so opening it writes
// next to nothing. Either reopens with what it held.
TEST(DurableStoreTest, LogFilesAreWrittenOutOnlyWhenTheStoreSyncs) {
  for (SyncPolicy sync : {SyncPolicy::kNone, SyncPolicy::kEvery}) {
    TempDir dir;
    DurabilityOptions options = SmallOptions(sync);
    options.log_file_bytes = 64 * durable::kBlockSize;  // 2 MiB a file
    {
      auto store = OpenOrDie(dir.path(), options);
      ASSERT_NE(store, nullptr);
      ASSERT_FALSE(*store->Put("key", "value"));
    }
    for (int slot = 1; slot < 3; ++slot) {  // log-0 holds the record
      const std::string log = absl::StrCat(dir.path(), "/log-", slot);
      EXPECT_EQ(std::filesystem::file_size(log), options.log_file_bytes);
      if (sync == SyncPolicy::kNone) {
        EXPECT_LT(AllocatedBytes(log), options.log_file_bytes / 4) << log;
      } else {
        EXPECT_GE(AllocatedBytes(log), options.log_file_bytes) << log;
      }
    }
    auto store = OpenOrDie(dir.path(), options);
    ASSERT_NE(store, nullptr);
    EXPECT_EQ(Contents(*store), (Model{{"key", "value"}}));
  }
}

TEST(DurableStoreTest, ReopeningRecoversPutsDeletesAndDeleteNth) {
  TempDir dir;
  Model model;
  {
    auto store = OpenOrDie(dir.path(), SmallOptions(SyncPolicy::kEvery));
    ASSERT_NE(store, nullptr);
    for (int i = 0; i < 50; ++i) {
      const std::string key = absl::StrCat("key", i);
      ASSERT_FALSE(*store->Put(key, std::string(i * 37, 'v')));
      model[key] = std::string(i * 37, 'v');
    }
    EXPECT_TRUE(*store->Put("key3", "replaced"));
    model["key3"] = "replaced";
    EXPECT_TRUE(store->Delete("key7"));
    model.erase("key7");
    EXPECT_FALSE(store->Delete("absent"));
    EXPECT_TRUE(store->DeleteNth(0));  // "key0"
    model.erase("key0");
    EXPECT_FALSE(store->DeleteNth(1000));
    EXPECT_EQ(Contents(*store), model);
  }
  auto store = OpenOrDie(dir.path(), SmallOptions(SyncPolicy::kEvery));
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Contents(*store), model);
  EXPECT_TRUE(store->recovery().clean) << store->recovery().ToString();
  // 50 puts, one replacement, two deletes: absent keys are not logged.
  EXPECT_EQ(store->recovery().last_seq, 53u);
}

TEST(DurableStoreTest, CheckpointsRecycleTheLogAndRecoveryUsesThem) {
  TempDir dir;
  Model model;
  {
    auto store = OpenOrDie(dir.path(), SmallOptions(SyncPolicy::kNone));
    ASSERT_NE(store, nullptr);
    // Several times the ring's size: only checkpoints make room.
    for (int i = 0; i < 10000; ++i) {
      const std::string key = absl::StrCat("k", i % 700);
      ASSERT_TRUE(store->Put(key, std::string(100, 'a' + i % 26)).ok());
      model[key] = std::string(100, 'a' + i % 26);
    }
    EXPECT_GE(store->stats().checkpoints, 3u);
    ASSERT_TRUE(store->Put("last", "one").ok());
    model["last"] = "one";
  }
  std::vector<std::string> checkpoints;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().rfind("checkpoint-", 0) == 0) {
      checkpoints.push_back(entry.path().filename().string());
    }
  }
  EXPECT_EQ(checkpoints.size(), 1u) << "older checkpoints are removed";
  auto store = OpenOrDie(dir.path(), SmallOptions(SyncPolicy::kNone));
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Contents(*store), model);
  EXPECT_EQ(store->recovery().checkpoint, checkpoints.front());
  EXPECT_GT(store->recovery().checkpoint_pairs, 0u);
  EXPECT_EQ(store->recovery().last_seq, 10001u);
  ASSERT_TRUE(store->Checkpoint().ok());
  store.reset();
  store = OpenOrDie(dir.path(), SmallOptions(SyncPolicy::kNone));
  EXPECT_EQ(Contents(*store), model);
  EXPECT_EQ(store->recovery().replayed, 0u);
}

TEST(DurableStoreTest, GroupCommitSharesSyncsAmongThreads) {
  TempDir dir;
  DurabilityOptions options = SmallOptions(SyncPolicy::kGroup);
  options.log_file_bytes = 64 * durable::kBlockSize;
  options.checkpoint_bytes = 1 << 30;
  auto store = OpenOrDie(dir.path(), options);
  ASSERT_NE(store, nullptr);
  constexpr int kThreads = 4;
  constexpr int kWrites = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kWrites; ++i) {
        ASSERT_TRUE(store->Put(absl::StrCat(t, "-", i), "v").ok());
        if (i % 10 == 0) store->Delete(absl::StrCat(t, "-", i - 5));
        if (i % 10 == 5) store->DeleteNth(static_cast<uint64_t>(i % 7));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const DurabilityStats stats = store->stats();
  EXPECT_GE(stats.writes, uint64_t{kThreads * kWrites});
  // Each sync covered one group; with several writers some groups hold
  // more than one write. (Not guaranteed on a loaded machine, hence <=.)
  EXPECT_LE(stats.syncs, stats.writes + 8);
  const Model model = Contents(*store);
  store.reset();
  store = OpenOrDie(dir.path(), options);
  EXPECT_EQ(Contents(*store), model);
}

TEST(DurableStoreTest, AnUnusableDirectoryIsAClearError) {
  TempDir dir;
  const std::string file = dir.path() + "/plain-file";
  std::ofstream(file) << "not a directory";
  absl::StatusOr<std::unique_ptr<DurableStore>> store = DurableStore::Open(
      std::make_unique<StdMapStore>(), file, SmallOptions(SyncPolicy::kEvery));
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find(file), std::string::npos)
      << store.status();
}

TEST(DurableStoreTest, ASecondOpenOfTheDirectoryIsRefusedWhileTheFirstLives) {
  TempDir dir;
  const DurabilityOptions options = SmallOptions(SyncPolicy::kGroup);
  std::unique_ptr<DurableStore> first = OpenOrDie(dir.path(), options);
  ASSERT_TRUE(first->Put("key", "first").ok());
  absl::StatusOr<std::unique_ptr<DurableStore>> second =
      DurableStore::Open(std::make_unique<StdMapStore>(), dir.path(), options);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition)
      << second.status();
  const std::string message(second.status().message());
  EXPECT_NE(message.find(dir.path()), std::string::npos) << message;
  EXPECT_NE(message.find(absl::StrCat("pid ", ::getpid())), std::string::npos)
      << message;
  // The refused opener changed nothing: the first goes on, and its writes
  // are there once it is closed and the directory reopened.
  ASSERT_TRUE(first->Put("key2", "first").ok());
  first.reset();
  std::unique_ptr<DurableStore> reopened = OpenOrDie(dir.path(), options);
  EXPECT_EQ(Contents(*reopened), (Model{{"key", "first"}, {"key2", "first"}}));
}

// ---- Injected failures and crashes ----

struct Step {
  enum Kind { kPut, kDelete, kDeleteNth } kind;
  std::string key;
  std::string value;
  uint64_t n = 0;
};

Step RandomStep(std::mt19937_64& rng) {
  Step step;
  const int pick = static_cast<int>(rng() % 10);
  step.kind = pick < 7   ? Step::kPut
              : pick < 9 ? Step::kDelete
                         : Step::kDeleteNth;
  step.key = absl::StrCat("key", rng() % 60);
  // Values up to twice a block: records that span blocks.
  step.value = std::string(
      rng() % 3 == 0 ? rng() % (2 * durable::kBlockSize) : rng() % 200,
      static_cast<char>('a' + rng() % 26));
  step.n = rng() % 70;
  return step;
}

// Applies `step` to the model as the store would; false if it changes
// nothing (so nothing is logged).
bool ApplyToModel(const Step& step, Model* model) {
  switch (step.kind) {
    case Step::kPut:
      (*model)[step.key] = step.value;
      return true;
    case Step::kDelete:
      return model->erase(step.key) > 0;
    case Step::kDeleteNth:
      if (step.n >= model->size()) return false;
      model->erase(std::next(model->begin(), static_cast<long>(step.n)));
      return true;
  }
  return false;
}

absl::StatusOr<bool> RunStep(const Step& step, DurableStore* store) {
  switch (step.kind) {
    case Step::kPut:
      return store->Put(step.key, step.value);
    case Step::kDelete:
      return store->Remove(step.key);
    case Step::kDeleteNth:
      return store->RemoveNth(step.n);
  }
  return false;
}

class FaultInjectionTest : public ::testing::TestWithParam<SyncPolicy> {};

TEST_P(FaultInjectionTest, ReopensWithExactlyTheAcknowledgedWrites) {
  const SyncPolicy policy = GetParam();
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    std::mt19937_64 rng(seed);
    FaultEnv env;
    const DurabilityOptions options = SmallOptions(policy, &env);
    Model model;
    // The model after each logged write: snapshot[s] is the state after the
    // write with sequence number s.
    std::vector<Model> snapshots = {model};
    auto store = OpenOrDie("db", options);
    ASSERT_NE(store, nullptr);
    int failures = 0;
    int crashes = 0;
    for (int op = 0; op < 400; ++op) {
      const int fault = static_cast<int>(rng() % 20);
      if (fault == 0) env.FailWriteAfter(static_cast<int>(rng() % 3));
      if (fault == 1) env.FailSyncAfter(static_cast<int>(rng() % 3));
      const Step step = RandomStep(rng);
      absl::StatusOr<bool> result = RunStep(step, store.get());
      Model next = model;
      const bool changes = ApplyToModel(step, &next);
      if (result.ok()) {
        if (changes) {
          model = next;
          snapshots.push_back(model);
        }
      } else {
        ++failures;  // the store must be as it was
      }
      ASSERT_EQ(store->Size(), model.size()) << "op " << op;
      if (rng() % 40 == 0) {
        // Crash: forget what was not synced, maybe tearing a write.
        ++crashes;
        env.FailWriteAfter(-1);
        env.FailSyncAfter(-1);
        store.reset();
        env.Crash(
            rng() % 2 ? CrashMode::kTearUnsynced : CrashMode::kDropUnsynced,
            rng());
        store = OpenOrDie("db", options);
        ASSERT_NE(store, nullptr);
        const uint64_t seq = store->recovery().last_seq;
        ASSERT_LT(seq, snapshots.size()) << store->recovery().ToString();
        if (policy != SyncPolicy::kNone) {
          // Every acknowledged write, each exactly once.
          ASSERT_EQ(seq + 1, snapshots.size()) << store->recovery().ToString();
        }
        // Under kNone a suffix may be lost, but what is kept is a prefix.
        ASSERT_EQ(Contents(*store), snapshots[seq]) << "op " << op;
        snapshots.resize(seq + 1);
        model = snapshots.back();
      }
    }
    EXPECT_GT(failures, 0) << "the test injected no failure";
    EXPECT_GT(crashes, 0) << "the test injected no crash";
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, FaultInjectionTest,
                         ::testing::Values(SyncPolicy::kNone,
                                           SyncPolicy::kEvery,
                                           SyncPolicy::kGroup),
                         [](const ::testing::TestParamInfo<SyncPolicy>& info) {
                           return info.param == SyncPolicy::kNone    ? "none"
                                  : info.param == SyncPolicy::kEvery ? "every"
                                                                     : "group";
                         });

TEST(FaultInjectionTest, AFailedCheckpointLosesNothing) {
  FaultEnv env;
  DurabilityOptions options = SmallOptions(SyncPolicy::kEvery, &env);
  auto store = OpenOrDie("db", options);
  ASSERT_NE(store, nullptr);
  for (int i = 0; i < 20; ++i)
    ASSERT_TRUE(store->Put(absl::StrCat(i), "v").ok());
  env.FailWriteAfter(1);  // the checkpoint's first write of pairs
  EXPECT_FALSE(store->Checkpoint().ok());
  ASSERT_TRUE(store->Put("after", "v").ok());
  const Model model = Contents(*store);
  store.reset();
  env.Crash(CrashMode::kDropUnsynced, 1);
  store = OpenOrDie("db", options);
  EXPECT_EQ(Contents(*store), model);
}

// Writers keep writing while checkpoints run (each checkpoint reads the store
// in batches between their writes); a crash then loses everything unsynced.
// Under group commit the reopened store holds exactly the acknowledged
// writes; under none, for each thread, the state after a prefix of its
// writes that includes every write before the last checkpoint returned.
class CheckpointDuringWritesTest : public ::testing::TestWithParam<SyncPolicy> {
};

TEST_P(CheckpointDuringWritesTest, WritesDuringCheckpointsSurviveACrash) {
  const SyncPolicy policy = GetParam();
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    FaultEnv env;
    DurabilityOptions options = SmallOptions(policy, &env);
    options.log_files = 8;
    options.checkpoint_bytes = uint64_t{1} << 30;  // only explicit ones
    auto store = OpenOrDie("db", options);
    ASSERT_NE(store, nullptr);
    // Enough pairs that a checkpoint spans many batches.
    for (int i = 0; i < 2000; ++i) {
      ASSERT_TRUE(store->Put(absl::StrCat("k", i), "b").ok());
    }
    ASSERT_TRUE(store->Checkpoint().ok());
    constexpr int kWriters = 2;
    constexpr int kWrites = 600;
    // history[t][i]: thread t's model after its i-th write.
    std::vector<std::vector<Model>> history(kWriters);
    std::vector<std::atomic<int>> done(kWriters);
    std::vector<std::thread> writers;
    for (int t = 0; t < kWriters; ++t) {
      writers.emplace_back([&, t] {
        std::mt19937_64 rng(seed * 10 + t);
        Model model;
        history[t].push_back(model);
        for (int i = 0; i < kWrites; ++i) {
          // Spread among the base pairs, so that one thread's keys are read
          // by many batches of a checkpoint.
          const std::string key = absl::StrCat("k", rng() % 2000, "/w", t);
          if (rng() % 4 == 0) {
            if (!store->Remove(key).ok()) return;
            model.erase(key);
          } else {
            const std::string value =
                absl::StrCat(i, std::string(rng() % 50, 'v'));
            if (!store->Put(key, value).ok()) return;
            model[key] = value;
          }
          history[t].push_back(model);
          done[t].store(i + 1);
        }
      });
    }
    std::vector<int> before_last_checkpoint(kWriters, 0);
    for (int c = 0; c < 4; ++c) {
      std::vector<int> before(kWriters);
      for (int t = 0; t < kWriters; ++t) before[t] = done[t].load();
      ASSERT_TRUE(store->Checkpoint().ok());
      before_last_checkpoint = before;
    }
    for (std::thread& writer : writers) writer.join();
    for (int t = 0; t < kWriters; ++t) {
      ASSERT_EQ(history[t].size(), kWrites + 1u) << "a write failed";
    }
    EXPECT_GE(store->stats().checkpoints, 5u);
    store.reset();
    env.Crash(CrashMode::kDropUnsynced, seed);
    store = OpenOrDie("db", options);
    ASSERT_NE(store, nullptr);
    const Model all = Contents(*store);
    int base = 0;
    for (const auto& [key, value] : all) {
      base += key.find('/') == std::string::npos;
    }
    EXPECT_EQ(base, 2000);
    for (int t = 0; t < kWriters; ++t) {
      Model recovered;
      const std::string suffix = absl::StrCat("/w", t);
      for (const auto& [key, value] : all) {
        if (key.size() > suffix.size() &&
            key.compare(key.size() - suffix.size(), suffix.size(), suffix) ==
                0) {
          recovered.emplace(key, value);
        }
      }
      if (policy == SyncPolicy::kGroup) {
        EXPECT_EQ(recovered, history[t].back()) << "thread " << t;
      } else {
        bool prefix_state = false;
        for (size_t i = before_last_checkpoint[t]; i < history[t].size(); ++i) {
          prefix_state = prefix_state || recovered == history[t][i];
        }
        EXPECT_TRUE(prefix_state)
            << "thread " << t << ": not the state after any prefix of its "
            << "writes covering the last checkpoint";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, CheckpointDuringWritesTest,
                         ::testing::Values(SyncPolicy::kNone,
                                           SyncPolicy::kGroup),
                         [](const ::testing::TestParamInfo<SyncPolicy>& info) {
                           return info.param == SyncPolicy::kNone ? "none"
                                                                  : "group";
                         });

// ---- Damaged files (the real file system) ----

void FlipByteOnDisk(const std::string& path, uint64_t offset) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekg(static_cast<std::streamoff>(offset));
  char byte = static_cast<char>(file.get());
  file.seekp(static_cast<std::streamoff>(offset));
  file.put(static_cast<char>(byte ^ 0x20));
}

TEST(CorruptionTest, AFlippedLogByteCutsTheLogThereAndKeepsWhatPrecedes) {
  TempDir dir;
  const DurabilityOptions options = SmallOptions(SyncPolicy::kNone);
  {
    auto store = OpenOrDie(dir.path(), options);
    for (int i = 0; i < 60; ++i) {
      ASSERT_TRUE(
          store->Put(absl::StrCat("key", 100 + i), std::string(400, 'x')).ok());
    }
  }
  // A fresh store seals file 1 at once, so the writes are in file 2
  // (log-2). Damage a byte in the middle of the 30th record or so.
  const uint64_t at = 30 * 430;
  FlipByteOnDisk(dir.path() + "/log-2", at);
  auto store = OpenOrDie(dir.path(), options);
  ASSERT_NE(store, nullptr);
  const RecoveryReport& report = store->recovery();
  EXPECT_FALSE(report.clean);
  EXPECT_EQ(report.stop_file, "log-2");
  EXPECT_LE(report.stop_offset, at);
  EXPECT_GT(report.stop_offset + 450, at);
  EXPECT_NE(report.stop_reason.find("checksum"), std::string::npos)
      << report.ToString();
  // Exactly the writes before the damaged record survive.
  ASSERT_GT(report.last_seq, 20u);
  ASSERT_LT(report.last_seq, 40u);
  EXPECT_EQ(store->Size(), report.last_seq);
  for (uint64_t i = 0; i < report.last_seq; ++i) {
    EXPECT_TRUE(store->Get(absl::StrCat("key", 100 + i), nullptr)) << i;
  }
  // The cut is final: new writes go on and a second reopen is clean.
  ASSERT_TRUE(store->Put("new", "write").ok());
  const Model model = Contents(*store);
  store.reset();
  store = OpenOrDie(dir.path(), options);
  EXPECT_EQ(Contents(*store), model);
  EXPECT_TRUE(store->recovery().clean) << store->recovery().ToString();
}

TEST(CorruptionTest, ADamagedCheckpointIsReportedWithItsOffset) {
  TempDir dir;
  const DurabilityOptions options = SmallOptions(SyncPolicy::kNone);
  {
    auto store = OpenOrDie(dir.path(), options);
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(
          store->Put(absl::StrCat("key", i), std::string(100, 'y')).ok());
    }
    ASSERT_TRUE(store->Checkpoint().ok());
  }
  std::string checkpoint;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().rfind("checkpoint-", 0) == 0) {
      checkpoint = entry.path().string();
    }
  }
  ASSERT_FALSE(checkpoint.empty());
  FlipByteOnDisk(checkpoint, 5000);
  absl::StatusOr<std::unique_ptr<DurableStore>> store =
      DurableStore::Open(std::make_unique<StdMapStore>(), dir.path(), options);
  ASSERT_FALSE(store.ok());
  EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
  EXPECT_NE(store.status().message().find("offset"), std::string::npos);
  EXPECT_NE(store.status().message().find("checkpoint-"), std::string::npos);
}

TEST(CorruptionTest, ATornTailIsCutAndEverythingBeforeItKept) {
  TempDir dir;
  const DurabilityOptions options = SmallOptions(SyncPolicy::kNone);
  {
    auto store = OpenOrDie(dir.path(), options);
    for (int i = 0; i < 10; ++i) {
      ASSERT_TRUE(
          store->Put(absl::StrCat("key", i), std::string(1000, 'z')).ok());
    }
  }
  // Zero the second half of the last record, as a write cut short would.
  {
    std::fstream file(dir.path() + "/log-2",
                      std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(9 * 1024 + 600);
    file.write(std::string(400, '\0').data(), 400);
  }
  auto store = OpenOrDie(dir.path(), options);
  EXPECT_FALSE(store->recovery().clean);
  EXPECT_EQ(store->recovery().last_seq, 9u) << store->recovery().ToString();
  EXPECT_EQ(store->Size(), 9u);
}

}  // namespace
}  // namespace kvlab
