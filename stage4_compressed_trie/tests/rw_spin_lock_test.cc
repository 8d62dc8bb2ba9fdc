// The 4-byte reader-writer lock (kvlab/stage4/rw_spin_lock.h): readers share
// it, a writer holds it alone. Each case takes the lock in the test thread,
// starts a thread that must wait for it, and checks that the thread is
// still waiting a while later and gets the lock once it is released.

#include "kvlab/stage4/rw_spin_lock.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "gtest/gtest.h"

namespace kvlab::stage4 {
namespace {

// Whether `flag` turns true within `ms` milliseconds.
bool BecomesTrue(const std::atomic<bool>& flag, int ms) {
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    if (flag.load()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return flag.load();
}

// A thread that takes the lock (shared or exclusive), says so, and releases
// it again.
std::thread Taker(uint32_t* word, bool exclusive, std::atomic<bool>* got) {
  return std::thread([word, exclusive, got] {
    std::atomic_ref<uint32_t> lock(*word);
    if (exclusive) {
      LockExclusive(lock);
    } else {
      LockShared(lock);
    }
    got->store(true);
    if (exclusive) {
      UnlockExclusive(lock);
    } else {
      UnlockShared(lock);
    }
  });
}

TEST(RwSpinLockTest, ReadersShareTheLock) {
  alignas(4) uint32_t word = 0;
  std::atomic_ref<uint32_t> lock(word);
  LockShared(lock);
  LockShared(lock);
  EXPECT_EQ(lock.load(), 2u);  // two readers, no writer bits
  std::atomic<bool> got{false};
  std::thread reader = Taker(&word, false, &got);
  EXPECT_TRUE(BecomesTrue(got, 10'000)) << "a third reader waited";
  reader.join();
  UnlockShared(lock);
  UnlockShared(lock);
  EXPECT_EQ(lock.load(), 0u);
}

TEST(RwSpinLockTest, AWriterWaitsForTheReaders) {
  alignas(4) uint32_t word = 0;
  std::atomic_ref<uint32_t> lock(word);
  LockShared(lock);
  LockShared(lock);
  std::atomic<bool> got{false};
  std::thread writer = Taker(&word, true, &got);
  EXPECT_FALSE(BecomesTrue(got, 50)) << "the writer entered beside readers";
  UnlockShared(lock);
  EXPECT_FALSE(BecomesTrue(got, 20)) << "the writer entered beside a reader";
  UnlockShared(lock);
  EXPECT_TRUE(BecomesTrue(got, 10'000));
  writer.join();
  EXPECT_EQ(lock.load(), 0u);
}

TEST(RwSpinLockTest, AWriterKeepsOutReadersAndWriters) {
  alignas(4) uint32_t word = 0;
  std::atomic_ref<uint32_t> lock(word);
  LockExclusive(lock);
  EXPECT_EQ(lock.load(), kLockWriter);
  std::atomic<bool> reader_got{false};
  std::atomic<bool> writer_got{false};
  std::thread reader = Taker(&word, false, &reader_got);
  std::thread writer = Taker(&word, true, &writer_got);
  EXPECT_FALSE(BecomesTrue(reader_got, 50)) << "a reader entered";
  EXPECT_FALSE(writer_got.load()) << "a second writer entered";
  UnlockExclusive(lock);
  EXPECT_TRUE(BecomesTrue(reader_got, 10'000));
  EXPECT_TRUE(BecomesTrue(writer_got, 10'000));
  reader.join();
  writer.join();
  EXPECT_EQ(lock.load(), 0u);
}

}  // namespace
}  // namespace kvlab::stage4
