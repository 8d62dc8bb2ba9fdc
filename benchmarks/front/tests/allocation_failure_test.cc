// The out-of-memory contract of kv_store.h, checked for every registered
// store kind (and the option sets that allocate differently): the k-th
// allocation of a fixed sequence fails, for every k, once and for good.

#include "kvlab/testing/allocation_failure.h"

#include <cctype>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"
#include "kvlab/locked_store.h"
#include "kvlab/testing/failing_allocator.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::testing {
// This binary links the shared test library for the sweep's model only.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);
}  // namespace kvlab::testing

namespace kvlab {
namespace {

// Values of k per sweep of ect: in a scaled run, and at full size.
constexpr uint64_t kEctSample = 40;
constexpr uint64_t kEctSampleFull = 120;

std::vector<std::string> SpecsToSweep() {
  std::vector<std::string> specs;
  for (const StoreInfo& info : BuiltinStores().stores()) {
    // ect without a sync per write (memory is the subject here, and syncs
    // would make each run seconds long) and with a merge every 64 writes,
    // so failures meet the merge too.
    specs.push_back(info.name == "ect" ? "ect:sync=none:merge_pairs=64"
                                       : info.name);
  }
  // Option sets whose allocation paths differ from the defaults.
  for (const char* spec :
       {"btree:order=4", "ctrie:alloc=malloc", "ctrie:lock=node",
        "ctrie:lock=global", "ctrie:compress=suffix",
        "ctrie:lock=node:alloc=malloc", "ctrie:compress=suffix:alloc=malloc",
        "hyperion:split_above=512:split_large_above=256:embed=16",
        "hyperion:inline_value=0:jump_successor=0:tnode_table=0",
        "hyperion:compact=10"}) {
    specs.push_back(spec);
  }
  return specs;
}

std::string SpecName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(c) ? c : '_';
  return name;
}

class AllocationFailureTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    const std::string name = GetParam().substr(0, GetParam().find(':'));
    info_ = BuiltinStores().Find(name);
    ASSERT_NE(info_, nullptr) << GetParam();
    if (!info_->survives_allocation_failure) {
      GTEST_SKIP() << GetParam() << " cannot survive a failed allocation: "
                   << info_->description;
    }
  }

  testing::AllocationFailureOptions Options() const {
    testing::AllocationFailureOptions options;
    options.ordered = info_->ordered;
    if (info_->name == "trie_array") {
      // Every node is 2 KB of child slots, each allocated, then walked by
      // every check after a run: keys of up to 16 bytes rather than 40
      // still reach all of its allocations, in about a seventh of the time.
      options.max_key_length = 16;
    }
    if (info_->name == "ect") {
      // Each run makes a directory and six log files and takes about half a
      // second in Debug, and the sequence makes thousands of allocations
      // (logs, buffers, merges): failing every one would take hours. So ect
      // fails an evenly spaced sample of them, k = 1 included: 40 in a
      // scaled run (make test), 120 at full size (the long test).
      options.sample = testing::TestScale() < 1 ? kEctSample : kEctSampleFull;
    }
    return options;
  }

  std::unique_ptr<KVStore> Make() const {
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(GetParam());
    if (!store.ok()) {
      ADD_FAILURE() << store.status();
      return nullptr;
    }
    return *std::move(store);
  }

  const StoreInfo* info_ = nullptr;
};

TEST_P(AllocationFailureTest, EachAllocationFailingOnce) {
  const uint64_t runs =
      testing::RunAllocationFailureSweep([&] { return Make(); }, Options());
  EXPECT_GT(runs, 1u) << "the sequence made no allocation to fail";
}

TEST_P(AllocationFailureTest, MemoryGoneForGoodFromEachAllocation) {
  testing::AllocationFailureOptions options = Options();
  options.persistent = true;
  testing::RunAllocationFailureSweep([&] { return Make(); }, options);
}

// From an empty store, where the first Put builds the structure's root and
// deletes may empty it again.
TEST_P(AllocationFailureTest, StartingEmpty) {
  testing::AllocationFailureOptions options = Options();
  options.preload = 0;
  options.operations = 150;
  testing::RunAllocationFailureSweep([&] { return Make(); }, options);
  options.persistent = true;
  testing::RunAllocationFailureSweep([&] { return Make(); }, options);
}

// Keys of up to 100 bytes rather than 40, past what buffers sized for
// course keys hold before they spill to the heap (a trie's path: 72 nodes);
// fewer of them, since a trie allocates a node per key byte.
TEST_P(AllocationFailureTest, LongKeys) {
  testing::AllocationFailureOptions options = Options();
  options.max_key_length = 100;
  options.preload = 10;
  options.operations = 30;
  testing::RunAllocationFailureSweep([&] { return Make(); }, options);
}

TEST_P(AllocationFailureTest, BehindTheGlobalLock) {
  testing::AllocationFailureOptions options = Options();
  options.operations = 100;
  testing::RunAllocationFailureSweep([&] { return MakeThreadSafe(Make()); },
                                     options);
}

INSTANTIATE_TEST_SUITE_P(EveryStore, AllocationFailureTest,
                         ::testing::ValuesIn(SpecsToSweep()), SpecName);

// A store kind that cannot keep the contract must say so where users read.
TEST(AllocationFailureContractTest, RefusingStoresSayWhy) {
  for (const StoreInfo& info : BuiltinStores().stores()) {
    if (info.survives_allocation_failure) continue;
    EXPECT_NE(info.description.find("malloc fails"), std::string::npos)
        << info.name << ": " << info.description;
    EXPECT_EQ(info.origin, "peer") << info.name << ": every kvlab stage store "
                                   << "keeps the out-of-memory contract";
  }
}

}  // namespace
}  // namespace kvlab
