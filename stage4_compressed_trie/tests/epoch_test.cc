// EpochReclaimer: nothing is freed while a reader that might hold it is in
// its section; everything is freed once readers leave.

#include "kvlab/stage4/epoch.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage4 {
namespace {

TEST(EpochReclaimerTest, RetiredObjectWaitsForAnActiveReader) {
  EpochReclaimer epochs;
  int freed = 0;
  auto free_fn = [&](void*, size_t) { ++freed; };
  int object = 0;
  const size_t slot = epochs.Enter();
  epochs.Retire(&object, 4);
  epochs.Collect(free_fn);
  epochs.Collect(free_fn);
  EXPECT_EQ(freed, 0);  // the reader entered before the retire
  EXPECT_EQ(epochs.pending(), 1u);
  epochs.Exit(slot);
  epochs.Collect(free_fn);
  EXPECT_EQ(freed, 1);
  EXPECT_EQ(epochs.pending(), 0u);
}

TEST(EpochReclaimerTest, ReaderEnteringLaterDoesNotHoldBackOlderObjects) {
  EpochReclaimer epochs;
  int freed = 0;
  auto free_fn = [&](void*, size_t) { ++freed; };
  int a = 0, b = 0;
  epochs.Retire(&a, 4);
  epochs.Collect(free_fn);  // no reader: a goes
  EXPECT_EQ(freed, 1);
  epochs.Retire(&b, 4);
  const size_t slot = epochs.Enter();  // entered after b was retired...
  epochs.Collect(free_fn);
  // ...but in the same epoch, so b must wait: the reader may have loaded b
  // before it was unlinked.
  EXPECT_EQ(freed, 1);
  epochs.Exit(slot);
  epochs.Collect(free_fn);
  EXPECT_EQ(freed, 2);
}

TEST(EpochReclaimerTest, ManyThreadsShareTheSlots) {
  EpochReclaimer epochs;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> sections{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 8; ++t) {
    readers.emplace_back([&] {
      while (!stop.load()) {
        EpochReclaimer::Guard guard(&epochs);
        sections.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::vector<int> objects(1000);
  int freed = 0;
  for (int& o : objects) {
    epochs.Retire(&o, sizeof(o));
    epochs.Collect([&](void*, size_t) { ++freed; });
  }
  while (sections.load() < 1000) std::this_thread::yield();
  stop.store(true);
  for (std::thread& r : readers) r.join();
  epochs.Collect([&](void*, size_t) { ++freed; });
  EXPECT_EQ(freed, 1000);
}

}  // namespace
}  // namespace kvlab::stage4

namespace kvlab::stage4 {
namespace {

// Synchronize waits for a section open at its call.
TEST(EpochReclaimerTest, SynchronizeWaitsForOpenSectionsOnly) {
  EpochReclaimer epochs;
  epochs.Synchronize();  // nothing open: returns at once
  const size_t slot = epochs.Enter();
  std::atomic<bool> returned{false};
  std::thread writer([&] {
    epochs.Synchronize();
    returned.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(returned.load());  // the section opened before is still open
  epochs.Exit(slot);
  writer.join();
  EXPECT_TRUE(returned.load());
}

}  // namespace
}  // namespace kvlab::stage4
