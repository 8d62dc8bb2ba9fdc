// wormhole when memory runs out (kv_store.h, "Out of memory"): a Put whose
// k-th allocation fails, for every k it makes (a plain insert, a replace, and
// a split that adds table nodes and grows both table copies), leaves the
// store exactly as it was and holds no lock; Delete and DeleteNth allocate
// nothing, so they work with memory gone for good.

#include <memory>
#include <new>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/failing_allocator.h"

namespace kvlab {
namespace {

using testing::Contents;
using testing::FailingAllocations;
using testing::Oracle;

// The failing allocator brings the conformance suite along; this binary
// does not run it.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);

std::unique_ptr<WormholeStore> Make() {
  WormholeOptions options;
  options.leaf_capacity = 4;
  return std::make_unique<WormholeStore>(options);
}

// Fills the store so that the next Put of a new key `key` splits a full
// leaf whose new anchor has prefixes not yet in the table.
void Fill(WormholeStore* store) {
  for (const char* k :
       {"a", "b", "c", "d", "e", "f", "g", "h", "ppp1", "ppp2", "ppp3", "zz"}) {
    ASSERT_TRUE(store->Put(k, std::string("value of ") + k).ok());
  }
}

TEST(WormholeOutOfMemoryTest, FailedPutChangesNothing) {
  for (const std::string key : {"ppp0qqq", "ppp2", "zzz"}) {
    for (uint64_t k = 1;; ++k) {
      SCOPED_TRACE("allocation " + std::to_string(k) + " of Put(" + key + ")");
      std::unique_ptr<WormholeStore> store = Make();
      Fill(store.get());
      const Oracle before = Contents(*store);
      const size_t memory = *store->MemoryUsage();
      const auto anchors = store->Anchors();
      absl::StatusOr<bool> put;
      uint64_t failures;
      {
        FailingAllocations failing(k);
        put = store->Put(key, "new value");
        failures = failing.failures();
      }
      const absl::Status invariants = store->CheckInvariants();
      ASSERT_TRUE(invariants.ok()) << invariants;
      if (!put.ok()) {
        EXPECT_EQ(put.status().code(), absl::StatusCode::kResourceExhausted);
        EXPECT_EQ(Contents(*store), before);
        EXPECT_EQ(*store->MemoryUsage(), memory);
        EXPECT_EQ(store->Anchors(), anchors);
      } else {
        std::string value;
        ASSERT_TRUE(store->Get(key, &value));
        EXPECT_EQ(value, "new value");
      }
      // No lock stayed held and the store works on.
      for (int i = 0; i < 100; ++i) {
        ASSERT_TRUE(store->Put("later" + std::to_string(i), "v").ok());
      }
      ASSERT_TRUE(store->CheckInvariants().ok());
      if (::testing::Test::HasFailure() || failures == 0) break;
    }
  }
}

TEST(WormholeOutOfMemoryTest, DeletingWorksWhenMemoryIsGone) {
  std::unique_ptr<WormholeStore> store = Make();
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) {
    keys.push_back("key" + std::to_string(i * 7919 % 10'007));
    ASSERT_TRUE(store->Put(keys.back(), std::string(100, 'v')).ok());
  }
  const size_t full = *store->MemoryUsage();
  {
    FailingAllocations failing(1, /*and_all_after=*/true);
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
  }
  const absl::Status invariants = store->CheckInvariants();
  EXPECT_TRUE(invariants.ok()) << invariants;
  EXPECT_LT(*store->MemoryUsage(), full / 10);
  EXPECT_EQ(store->GetShape().leaves, 1u);
  EXPECT_TRUE(store->Put("after", "works").ok());
}

}  // namespace
}  // namespace kvlab
