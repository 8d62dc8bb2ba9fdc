// The crash loop: a child process writes under each sync policy and is
// killed (SIGKILL) at random moments; each time, the store reopened here
// must hold every write the child saw acknowledged, plus at most the one
// write each thread had in flight, and nothing else.
//
// A killed process loses nothing the kernel already has, so this proves the
// log and recovery logic under real files; the sync logic is proved by the
// fault-injection tests, which lose what was not synced.

#include "kvlab/testing/crash_loop.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"

namespace kvlab {
namespace {

using testing::CrashModel;
using testing::HoldsTheAcknowledgedWrites;
using Model = CrashModel;

constexpr int kThreads = 2;
constexpr int kRounds = 4;

// The child with its arguments: the spec, the round's seed, the threads.
std::vector<uint64_t> RunAndKill(const std::string& spec, uint64_t seed,
                                 int millis, uint64_t* checkpoints = nullptr) {
  std::vector<std::string> argv = {KVLAB_DURABLE_CRASH_CHILD, spec,
                                   std::to_string(seed),
                                   std::to_string(kThreads)};
  if (checkpoints != nullptr) argv.push_back("checkpoints");
  return testing::RunAndKill(argv, kThreads, millis, checkpoints);
}

// Writer `thread`'s keys as an ordered scan finds them.
Model KeysOf(const KVStore& store, int thread) {
  Model model;
  const std::string prefix = absl::StrCat(thread, "/");
  store.Scan(prefix, [&](std::string_view key, std::string_view value) {
    if (key.substr(0, prefix.size()) != prefix) return false;
    model.emplace(key, value);
    return true;
  });
  return model;
}

class CrashLoopTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CrashLoopTest, RecoversExactlyTheAcknowledgedWrites) {
  const auto& [inner, sync] = GetParam();
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kvlab-crash-XXXXXX").string();
  const std::string dir = ::mkdtemp(pattern.data());
  const std::string spec =
      absl::StrCat("durable:dir=", dir, ":store=", inner, ":sync=", sync,
                   ":log_files=3:log_file_mb=1:checkpoint_mb=1");
  std::mt19937_64 rng(std::hash<std::string>()(spec) % 1000);
  std::vector<Model> models(kThreads);
  uint64_t total_acks = 0;
  for (int round = 0; round < kRounds; ++round) {
    const uint64_t seed = round + 1;
    const std::vector<uint64_t> acks =
        RunAndKill(spec, seed, 100 + static_cast<int>(rng() % 300));
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    ASSERT_TRUE(store.ok()) << store.status();
    for (int t = 0; t < kThreads; ++t) {
      total_acks += acks[t];
      const Model recovered = KeysOf(**store, t);
      ASSERT_TRUE(
          HoldsTheAcknowledgedWrites(models[t], seed, t, acks[t], recovered))
          << "round " << round << "; "
          << static_cast<const DurableStore&>(**store).recovery().ToString();
      models[t] = recovered;
    }
  }
  EXPECT_GT(total_acks, 0u) << "the child never wrote";
  std::filesystem::remove_all(dir);
}

// The scenario a directory lock exists for: while one process writes with
// group commit, a second opens the same directory to write too. Without the
// lock both would log over each other and most of the first one's
// acknowledged writes would be gone after a crash; with it the second is
// refused, naming the first, and the first loses nothing.
TEST(TwoWritersTest, TheSecondProcessIsRefusedAndTheFirstLosesNothing) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kvlab-crash-XXXXXX").string();
  const std::string dir = ::mkdtemp(pattern.data());
  const std::string spec =
      absl::StrCat("durable:dir=", dir, ":store=btree:sync=group",
                   ":log_files=3:log_file_mb=1:checkpoint_mb=1");
  const std::string threads_text = std::to_string(kThreads);
  auto spawn = [&](const char* seed, int out, int err) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::dup2(out, STDOUT_FILENO);
      if (err >= 0) ::dup2(err, STDERR_FILENO);
      ::execl(KVLAB_DURABLE_CRASH_CHILD, KVLAB_DURABLE_CRASH_CHILD,
              spec.c_str(), seed, threads_text.c_str(), nullptr);
      ::_exit(127);
    }
    return pid;
  };

  int first_out[2];
  ASSERT_EQ(::pipe(first_out), 0);
  const pid_t first = spawn("1", first_out[1], -1);
  ::close(first_out[1]);
  std::vector<uint64_t> acks(kThreads, 0);
  std::atomic<uint64_t> total{0};
  std::thread reader([&] {
    char buffer[4096];
    for (;;) {
      const ssize_t n = ::read(first_out[0], buffer, sizeof(buffer));
      if (n <= 0) break;
      for (ssize_t i = 0; i < n; ++i) ++acks.at(static_cast<size_t>(buffer[i]));
      total.fetch_add(static_cast<uint64_t>(n));
    }
  });
  const auto give_up =
      std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (total.load() < 200 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GE(total.load(), 200u) << "the first writer did not get going";

  // The second writer, on the same directory, while the first writes.
  int second_err[2];
  ASSERT_EQ(::pipe(second_err), 0);
  const int null_out = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t second = spawn("2", null_out, second_err[1]);
  ::close(null_out);
  ::close(second_err[1]);
  // A second writer that was let in would write until killed: give it 5 s.
  std::atomic<bool> second_done{false};
  std::thread second_killer([&] {
    const auto limit =
        std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!second_done.load() && std::chrono::steady_clock::now() < limit) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!second_done.load()) ::kill(second, SIGKILL);
  });
  std::string message;
  char c;
  while (::read(second_err[0], &c, 1) == 1) message += c;
  ::close(second_err[0]);
  int status = 0;
  ::waitpid(second, &status, 0);
  second_done.store(true);
  second_killer.join();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1)
      << "the second writer was not refused (status " << status << ")";
  EXPECT_NE(message.find(absl::StrCat("directory ", dir, " is in use")),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(absl::StrCat("process ", first)), std::string::npos)
      << message;

  ::kill(first, SIGKILL);
  reader.join();
  ::waitpid(first, &status, 0);
  ::close(first_out[0]);
  absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
  ASSERT_TRUE(store.ok()) << store.status();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_TRUE(
        HoldsTheAcknowledgedWrites(Model(), 1, t, acks[t], KeysOf(**store, t)));
  }
  store->reset();
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    StoresAndPolicies, CrashLoopTest,
    ::testing::Combine(::testing::Values("bst", "btree", "hyperion"),
                       ::testing::Values("none", "every", "group")),
    [](const auto& info) {
      return std::get<0>(info.param) + "_" + std::get<1>(info.param);
    });

// Killed mid-checkpoint: the store holds kPreload large pairs, so that a
// checkpoint takes a good part of a second, and the child checkpoints back
// to back while its threads write; each kill lands at a random moment, most
// of them inside a checkpoint (the round then finds checkpoint.tmp left
// behind). The reopened store must hold every preloaded pair and exactly
// each thread's acknowledged writes, whichever checkpoint it recovered from.
class CheckpointCrashTest
    : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

constexpr int kPreload = 20000;

std::string PreloadKey(int i) { return absl::StrCat("p/", 100000 + i); }
std::string PreloadValue(int i) {
  return absl::StrCat(i, std::string(1500, static_cast<char>('a' + i % 26)));
}

TEST_P(CheckpointCrashTest, AKillDuringACheckpointLosesNothing) {
  const auto& [inner, sync] = GetParam();
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kvlab-crash-XXXXXX").string();
  const std::string dir = ::mkdtemp(pattern.data());
  const std::string options =
      absl::StrCat("durable:dir=", dir, ":store=", inner,
                   ":log_files=4:log_file_mb=64:checkpoint_mb=1:sync=");
  {
    absl::StatusOr<std::unique_ptr<KVStore>> store =
        MakeStore(options + "none");
    ASSERT_TRUE(store.ok()) << store.status();
    for (int i = 0; i < kPreload; ++i) {
      ASSERT_TRUE((*store)->Put(PreloadKey(i), PreloadValue(i)).ok());
    }
  }
  const std::string spec = options + sync;
  std::mt19937_64 rng(std::hash<std::string>()(spec) % 1000);
  std::vector<Model> models(kThreads);
  uint64_t checkpoints = 0;
  int mid_checkpoint = 0;
  constexpr int kCheckpointRounds = 6;
  for (int round = 0; round < kCheckpointRounds; ++round) {
    const uint64_t seed = round + 1;
    const std::vector<uint64_t> acks =
        RunAndKill(spec, seed, static_cast<int>(rng() % 1000), &checkpoints);
    mid_checkpoint += std::filesystem::exists(dir + "/checkpoint.tmp");
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    ASSERT_TRUE(store.ok()) << store.status();
    const std::string report =
        static_cast<const DurableStore&>(**store).recovery().ToString();
    for (int t = 0; t < kThreads; ++t) {
      const Model recovered = KeysOf(**store, t);
      ASSERT_TRUE(
          HoldsTheAcknowledgedWrites(models[t], seed, t, acks[t], recovered))
          << "round " << round << "; " << report;
      models[t] = recovered;
    }
    int preloaded = 0;
    bool intact = true;
    (*store)->Scan("p/", [&](std::string_view key, std::string_view value) {
      if (key.substr(0, 2) != "p/") return false;
      intact = intact && key == PreloadKey(preloaded) &&
               value == PreloadValue(preloaded);
      ++preloaded;
      return true;
    });
    ASSERT_TRUE(intact && preloaded == kPreload)
        << "round " << round << ": " << preloaded << " preloaded pairs; "
        << report;
  }
  EXPECT_GT(checkpoints, 0u) << "the child never finished a checkpoint";
  EXPECT_GT(mid_checkpoint, 0) << "no kill landed inside a checkpoint";
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(StoresAndPolicies, CheckpointCrashTest,
                         ::testing::Combine(::testing::Values("btree"),
                                            ::testing::Values("none", "group")),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" +
                                  std::get<1>(info.param);
                         });

}  // namespace
}  // namespace kvlab
