#include "kvlab/testing/failing_allocator.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace kvlab::testing {
namespace {

// Allocations the compiler cannot elide: the result escapes.
void* volatile sink;

TEST(FailingAllocationsTest, FailsExactlyTheNthNew) {
  FailingAllocations failing(3);
  std::unique_ptr<int> first(new int(1));
  std::unique_ptr<int> second(new int(2));
  EXPECT_THROW(sink = new int(3), std::bad_alloc);
  std::unique_ptr<int> fourth(new int(4));
  EXPECT_EQ(failing.allocations(), 4u);
  EXPECT_EQ(failing.failures(), 1u);
}

TEST(FailingAllocationsTest, AndAllAfterKeepsFailing) {
  FailingAllocations failing(2, /*and_all_after=*/true);
  std::unique_ptr<int> first(new int(1));
  EXPECT_THROW(sink = new int(2), std::bad_alloc);
  EXPECT_THROW(sink = new int(3), std::bad_alloc);
  EXPECT_EQ(new (std::nothrow) int(4), nullptr);
  EXPECT_EQ(failing.failures(), 3u);
}

TEST(FailingAllocationsTest, PausedAllocationsAreNotCounted) {
  FailingAllocations failing(1);
  failing.Pause();
  std::string uncounted(100, 'x');
  failing.Resume();
  EXPECT_THROW(sink = new int(1), std::bad_alloc);
  EXPECT_EQ(failing.allocations(), 1u);
}

TEST(FailingAllocationsTest, NothingFailsOutsideAScope) {
  { FailingAllocations failing(1, /*and_all_after=*/true); }
  std::unique_ptr<int> fine(new int(1));
  EXPECT_EQ(*fine, 1);
}

TEST(FailingAllocationsTest, OtherThreadsAreNotAffected) {
  FailingAllocations failing(1, /*and_all_after=*/true);
  bool other_thread_allocated = false;
  failing.Pause();  // the thread object itself
  std::thread other([&] {
    std::unique_ptr<int> fine(new int(1));
    other_thread_allocated = true;
  });
  other.join();
  failing.Resume();
  EXPECT_TRUE(other_thread_allocated);
  EXPECT_THROW(sink = new int(1), std::bad_alloc);
}

TEST(FailingAllocationsTest, FailsMallocAndMmapWithoutSanitizers) {
  if (!MallocFailuresInjected()) {
    GTEST_SKIP() << "sanitized build: only operator new is failed";
  }
  FailingAllocations failing(1, /*and_all_after=*/true);
  errno = 0;
  EXPECT_EQ(std::malloc(16), nullptr);
  EXPECT_EQ(errno, ENOMEM);
  EXPECT_EQ(std::calloc(2, 8), nullptr);
  EXPECT_EQ(std::realloc(nullptr, 16), nullptr);
  EXPECT_EQ(mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            MAP_FAILED);
  EXPECT_EQ(failing.failures(), 4u);
}

TEST(FailingAllocationsTest, MmapWorksWhenNotFailed) {
  FailingAllocations failing(0);
  void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  static_cast<char*>(p)[4095] = 1;
  EXPECT_EQ(munmap(p, 4096), 0);
}

}  // namespace
}  // namespace kvlab::testing
