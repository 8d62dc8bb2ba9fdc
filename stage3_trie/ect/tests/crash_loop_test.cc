// The crash loop: a child process writes to an ect store from 4 threads with
// a small merge threshold (a merge every 100 writes) and is killed (SIGKILL)
// at random moments, mid-merge included; each time, the store reopened here
// must hold every write the child saw acknowledged, plus at most the one
// write each thread had in flight, and nothing else. 20 rounds.
//
// A killed process loses nothing the kernel already has, so this proves the
// merge's ordering and recovery under real files; what an unsynced write
// loses in a power failure is the fault-injection tests' part
// (ect_store_test.cc).

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "crash_workload.h"
#include "gtest/gtest.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/ect/stores.h"

namespace kvlab::ect {
namespace {

using testing::CrashWorkload;
using Model = std::map<std::string, std::string>;

constexpr int kThreads = 4;
constexpr int kRounds = 20;

std::vector<uint64_t> RunAndKill(const std::string& spec, uint64_t seed,
                                 int millis) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  const std::string seed_text = std::to_string(seed);
  const std::string threads_text = std::to_string(kThreads);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execl(KVLAB_ECT_CRASH_CHILD, KVLAB_ECT_CRASH_CHILD, spec.c_str(),
            seed_text.c_str(), threads_text.c_str(), nullptr);
    ::_exit(127);
  }
  ::close(fds[1]);
  std::vector<uint64_t> acks(kThreads, 0);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(millis);
  std::thread killer([&] {
    std::this_thread::sleep_until(deadline);
    ::kill(pid, SIGKILL);
  });
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) ++acks.at(static_cast<size_t>(buffer[i]));
  }
  killer.join();
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(fds[0]);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child ended before it was killed (status " << status << ")";
  return acks;
}

Model KeysOf(const KVStore& store, int thread) {
  Model model;
  for (int n = 0; n < testing::kCrashKeysPerThread; ++n) {
    const std::string key = CrashWorkload::Key(thread, n);
    std::string value;
    if (store.Get(key, &value)) model.emplace(key, value);
  }
  return model;
}

TEST(EctCrashLoopTest, RecoversExactlyTheAcknowledgedWrites) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "kvlab-ect-crash-XXXXXX")
          .string();
  const std::string dir = ::mkdtemp(pattern.data());
  const std::string spec =
      absl::StrCat("ect:dir=", dir, ":sync=none:merge_pairs=100:bucket_size=8");
  StoreRegistry registry;
  RegisterEctStores(&registry);
  std::mt19937_64 rng(38);
  std::vector<Model> models(kThreads);
  uint64_t total_acks = 0, merges_seen = 0;
  for (int round = 0; round < kRounds; ++round) {
    const uint64_t seed = round + 1;
    const std::vector<uint64_t> acks =
        RunAndKill(spec, seed, 150 + static_cast<int>(rng() % 400));
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
    ASSERT_TRUE(store.ok()) << store.status();
    const auto& ect = static_cast<const EctStore&>(**store);
    ASSERT_TRUE(ect.CheckInvariants().ok()) << ect.CheckInvariants();
    merges_seen = std::max(merges_seen, ect.stats().generation);
    uint64_t size = 0;
    for (int t = 0; t < kThreads; ++t) {
      total_acks += acks[t];
      CrashWorkload workload(seed, t);
      Model acknowledged = models[t];
      for (uint64_t i = 0; i < acks[t]; ++i) {
        CrashWorkload::Apply(workload.Next(), &acknowledged);
      }
      Model with_in_flight = acknowledged;
      CrashWorkload::Apply(workload.Next(), &with_in_flight);
      const Model recovered = KeysOf(**store, t);
      ASSERT_TRUE(recovered == acknowledged || recovered == with_in_flight)
          << "round " << round << " thread " << t << ": " << acks[t]
          << " acknowledged writes, " << recovered.size()
          << " keys recovered vs " << acknowledged.size() << "; "
          << ect.recovery();
      models[t] = recovered;
      size += recovered.size();
    }
    ASSERT_EQ((*store)->Size(), size) << ect.recovery();
  }
  EXPECT_GT(total_acks, 0u) << "the child never wrote";
  EXPECT_GT(merges_seen, 3u) << "too few merges to have crashed in one";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kvlab::ect
