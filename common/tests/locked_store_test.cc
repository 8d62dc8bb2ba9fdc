#include "kvlab/locked_store.h"

#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "kvlab/std_map_store.h"

namespace kvlab {
namespace {

TEST(LockedStoreTest, ForwardsEveryOperation) {
  LockedStore store(std::make_unique<StdMapStore>());
  EXPECT_TRUE(store.IsThreadSafe());
  EXPECT_EQ(store.Name(), "std_map");
  EXPECT_EQ(*store.Put("b", "2"), false);
  EXPECT_EQ(*store.Put("a", "1"), false);
  EXPECT_EQ(*store.Put("a", "one"), true);
  EXPECT_FALSE(store.Put(std::string(kMaxKeySize + 1, 'x'), "").ok());
  std::string key, value;
  ASSERT_TRUE(store.Get("a", &value));
  EXPECT_EQ(value, "one");
  ASSERT_TRUE(store.GetNth(1, &key, &value));
  EXPECT_EQ(key, "b");
  EXPECT_EQ(store.Size(), 2u);
  EXPECT_EQ(store.Scan("", [](auto, auto) { return true; }), 2u);
  EXPECT_TRUE(store.DeleteNth(0));
  EXPECT_TRUE(store.Delete("b"));
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_FALSE(store.MemoryUsage().has_value());  // std_map reports none
}

TEST(LockedStoreTest, MakeThreadSafeWrapsOnlyWhenNeeded) {
  std::unique_ptr<KVStore> wrapped =
      MakeThreadSafe(std::make_unique<StdMapStore>());
  EXPECT_TRUE(wrapped->IsThreadSafe());
  KVStore* raw = wrapped.get();
  std::unique_ptr<KVStore> again = MakeThreadSafe(std::move(wrapped));
  EXPECT_EQ(again.get(), raw);  // already safe: not wrapped twice
}

TEST(LockedStoreTest, ReadersShareTheLock) {
  LockedStore store(std::make_unique<StdMapStore>());
  (void)store.Put("k", "v");
  // Each reader, inside its scan, waits for the other to arrive. That can
  // only happen if the lock admits both readers at once; an exclusive lock
  // makes the first reader give up after its deadline.
  std::atomic<int> arrived{0};
  std::atomic<int> met{0};
  auto reader = [&] {
    store.Scan("", [&](auto, auto) {
      ++arrived;
      auto deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (arrived.load() < 2 &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::yield();
      }
      if (arrived.load() == 2) ++met;
      return true;
    });
  };
  std::thread a(reader), b(reader);
  a.join();
  b.join();
  EXPECT_EQ(met.load(), 2);
}

}  // namespace
}  // namespace kvlab
