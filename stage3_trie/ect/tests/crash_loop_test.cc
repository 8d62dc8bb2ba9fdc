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

#include "kvlab/testing/crash_loop.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/ect/stores.h"

namespace kvlab::ect {
namespace {

using testing::CrashModel;

constexpr int kThreads = 4;
constexpr int kRounds = 20;

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
  std::vector<CrashModel> models(kThreads);
  uint64_t total_acks = 0, merges_seen = 0;
  for (int round = 0; round < kRounds; ++round) {
    const uint64_t seed = round + 1;
    const std::vector<uint64_t> acks =
        testing::RunAndKill({KVLAB_ECT_CRASH_CHILD, spec, std::to_string(seed),
                             std::to_string(kThreads)},
                            kThreads, 150 + static_cast<int>(rng() % 400));
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
    ASSERT_TRUE(store.ok()) << store.status();
    const auto& ect = static_cast<const EctStore&>(**store);
    ASSERT_TRUE(ect.CheckInvariants().ok()) << ect.CheckInvariants();
    merges_seen = std::max(merges_seen, ect.stats().generation);
    uint64_t size = 0;
    for (int t = 0; t < kThreads; ++t) {
      total_acks += acks[t];
      const CrashModel recovered = testing::CrashKeysOf(**store, t);
      ASSERT_TRUE(testing::HoldsTheAcknowledgedWrites(models[t], seed, t,
                                                      acks[t], recovered))
          << "round " << round << "; " << ect.recovery();
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
