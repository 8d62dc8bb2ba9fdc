// ctrie when memory runs out (kv_store.h, "Out of memory"): a write whose
// allocation fails leaves the store exactly as it was, holds no lock and
// queues no live node for reclamation; with memory gone for good, deleting
// still works and gives memory back. The sweep over every store
// (benchmarks/front/tests/allocation_failure_test.cc) runs random operation
// sequences; these tests spell out the cases that matter most, one at a
// time.

#include <cctype>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/stores.h"
#include "kvlab/testing/failing_allocator.h"

namespace kvlab {
namespace {

using testing::FailingAllocations;

// The failing allocator brings the conformance suite along; this binary
// does not run it.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);

std::unique_ptr<CTrieStore> Make(const std::string& spec) {
  StoreRegistry registry;
  RegisterStage4Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
  EXPECT_TRUE(store.ok()) << spec << ": " << store.status();
  if (!store.ok()) return nullptr;
  return std::unique_ptr<CTrieStore>(
      dynamic_cast<CTrieStore*>(store->release()));
}

// Runs `check` on a thread of its own and waits at most 20 s for it: a
// store whose failed write left a lock held makes the next call spin for
// ever. Returns false on a timeout; the stuck thread and the store it uses
// (`store`, released here) are then left behind, the test has failed.
bool FinishesInTime(std::unique_ptr<CTrieStore>* store,
                    const std::function<void(CTrieStore&)>& check) {
  std::promise<void> done;
  std::future<void> finished = done.get_future();
  CTrieStore* raw = store->get();
  std::thread thread([raw, check, done = std::move(done)]() mutable {
    check(*raw);
    done.set_value();
  });
  if (finished.wait_for(std::chrono::seconds(20)) ==
      std::future_status::ready) {
    thread.join();
    return true;
  }
  thread.detach();
  (void)store->release();
  return false;
}

class CTrieOutOfMemoryTest : public ::testing::TestWithParam<std::string> {};

// The k-th allocation of Delete("ab") fails, for every k the delete makes.
// "ab" must still be there, nothing may be queued for reclamation that is
// still in the trie, and no lock may stay held: the next 600 writes would
// otherwise free "aa"'s node (rcu; a double free with alloc=malloc) or spin
// (lock=node).
TEST_P(CTrieOutOfMemoryTest, FailedDeleteChangesNothing) {
  for (uint64_t k = 1;; ++k) {
    SCOPED_TRACE("allocation " + std::to_string(k) + " of Delete(\"ab\")");
    std::unique_ptr<CTrieStore> store = Make(GetParam());
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Put("aa", "value of aa").ok());
    ASSERT_TRUE(store->Put("ab", "value of ab").ok());
    bool threw = false;
    uint64_t failures;
    {
      FailingAllocations failing(k);
      try {
        store->Delete("ab");
      } catch (const std::bad_alloc&) {
        threw = true;
      }
      failures = failing.failures();
    }
    const bool in_time = FinishesInTime(&store, [&](CTrieStore& s) {
      std::string value;
      EXPECT_EQ(s.Get("ab", &value), threw);
      absl::Status invariants = s.CheckInvariants();
      ASSERT_TRUE(invariants.ok()) << invariants;
      for (int i = 0; i < 600; ++i) {
        ASSERT_TRUE(
            s.Put("key" + std::to_string(i), std::string(40, 'v')).ok());
      }
      ASSERT_TRUE(s.Get("aa", &value));
      EXPECT_EQ(value, "value of aa");
      invariants = s.CheckInvariants();
      EXPECT_TRUE(invariants.ok()) << invariants;
    });
    ASSERT_TRUE(in_time) << "the store hangs after a failed Delete";
    if (::testing::Test::HasFailure() || failures == 0) break;
  }
}

// The same for Put: the k-th allocation of Put("ab") fails.
TEST_P(CTrieOutOfMemoryTest, FailedPutChangesNothing) {
  for (uint64_t k = 1;; ++k) {
    SCOPED_TRACE("allocation " + std::to_string(k) + " of Put(\"ab\")");
    std::unique_ptr<CTrieStore> store = Make(GetParam());
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->Put("aa", "value of aa").ok());
    absl::StatusOr<bool> put;
    uint64_t failures;
    {
      FailingAllocations failing(k);
      put = store->Put("ab", "value of ab");
      failures = failing.failures();
    }
    if (!put.ok()) {
      EXPECT_EQ(put.status().code(), absl::StatusCode::kResourceExhausted);
    }
    const bool in_time = FinishesInTime(&store, [&](CTrieStore& s) {
      EXPECT_EQ(s.Get("ab", nullptr), put.ok());
      absl::Status invariants = s.CheckInvariants();
      ASSERT_TRUE(invariants.ok()) << invariants;
      ASSERT_TRUE(s.Put("ac", "value of ac").ok());
      std::string value;
      ASSERT_TRUE(s.Get("aa", &value));
      EXPECT_EQ(value, "value of aa");
    });
    ASSERT_TRUE(in_time) << "the store hangs after a failed Put";
    if (::testing::Test::HasFailure() || failures == 0) break;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Variants, CTrieOutOfMemoryTest,
    ::testing::Values("ctrie", "ctrie:alloc=malloc", "ctrie:lock=global",
                      "ctrie:lock=node", "ctrie:lock=node:alloc=malloc",
                      "ctrie:lock=none", "ctrie:compress=suffix",
                      "ctrie:compress=suffix:alloc=malloc"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name;
      for (char c : info.param) name += std::isalnum(c) ? c : '_';
      return name;
    });

constexpr size_t kSlab = size_t{2} << 20;
// Growth of the store's tables (the epoch list, the pool's slab list).
constexpr size_t kTables = 64 << 10;

// With memory gone for good, Delete and DeleteNth still work: a delete
// builds one node smaller than those it frees and takes it from the pool's
// free blocks, and its scratch space was reserved with the store. Emptying
// the store gives its slabs back.
TEST(CTrieOutOfMemoryPoolTest, DeletingWorksWhenMemoryIsGone) {
  for (const char* spec :
       {"ctrie", "ctrie:lock=global", "ctrie:compress=suffix"}) {
    SCOPED_TRACE(spec);
    std::unique_ptr<CTrieStore> store = Make(spec);
    ASSERT_NE(store, nullptr);
    const size_t empty = *store->MemoryUsage();
    std::vector<std::string> keys;
    for (int i = 0; i < 20'000; ++i) {
      keys.push_back("key" + std::to_string(i * 7919 % 100'003));
      ASSERT_TRUE(store->Put(keys.back(), std::string(300, 'v')).ok());
    }
    const size_t full = *store->MemoryUsage();
    {
      FailingAllocations failing(1, /*and_all_after=*/true);
      // Half by key, the rest by rank.
      for (size_t i = 0; i < keys.size() / 2; ++i) {
        const bool deleted = store->Delete(keys[i]);
        failing.Pause();
        ASSERT_TRUE(deleted) << "Delete of key " << i;
        failing.Resume();
      }
      while (store->Size() > 0) {
        const bool deleted = store->DeleteNth(store->Size() / 2);
        failing.Pause();
        ASSERT_TRUE(deleted) << "DeleteNth with " << store->Size() << " left";
        failing.Resume();
      }
      EXPECT_EQ(store->Size(), 0u);
    }
    const absl::Status invariants = store->CheckInvariants();
    EXPECT_TRUE(invariants.ok()) << invariants;
    EXPECT_LT(*store->MemoryUsage(), full);
    // The slab the root lives in and the pool's current slab stay.
    EXPECT_LE(*store->MemoryUsage(), empty + kSlab + kTables);
    EXPECT_TRUE(store->Put("after", "works").ok());
  }
}

// Puts of large values, so that new slabs are mapped every few hundred; the
// k-th allocation (a slab's mapping, or the growth of a table) fails. The
// one Put that failed must have changed nothing, every other must be there.
TEST(CTrieOutOfMemoryPoolTest, FailedSlabMappingChangesNothing) {
  const std::string value(4000, 'v');
  for (uint64_t k = 1;; ++k) {
    SCOPED_TRACE("allocation " + std::to_string(k));
    std::unique_ptr<CTrieStore> store = Make("ctrie");
    ASSERT_NE(store, nullptr);
    std::vector<bool> stored(2000);
    uint64_t failures;
    {
      FailingAllocations failing(k);
      for (size_t i = 0; i < stored.size(); ++i) {
        stored[i] = store->Put("key" + std::to_string(i), value).ok();
      }
      failures = failing.failures();
    }
    EXPECT_GE(store->GetPoolStats().slabs, 3u);
    size_t failed = 0;
    for (size_t i = 0; i < stored.size(); ++i) {
      EXPECT_EQ(store->Get("key" + std::to_string(i), nullptr), stored[i]);
      if (!stored[i]) ++failed;
    }
    EXPECT_LE(failed, failures);
    const absl::Status invariants = store->CheckInvariants();
    ASSERT_TRUE(invariants.ok()) << invariants;
    if (::testing::Test::HasFailure() || failures == 0) break;
  }
}

}  // namespace
}  // namespace kvlab
