// The course API driven the way the course's benchmark programs drive it,
// for every registered store: output Slices holding garbage before each call,
// the key of a get(N) passed to del whatever get answered, N drawn from a size
// counter that threads update without synchronisation (so it drifts past the
// store's size), and returned buffers kept, never freed, during the run.

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/course.h"
#include "kvlab/kv_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/test_scale.h"

namespace {

// What an uninitialised output Slice may hold: a size of 255 and a pointer
// to one readable byte followed by an unreadable page, so that reading what
// the garbage claims faults in every build, sanitized or not.
class GarbageSlices {
 public:
  GarbageSlices() : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))) {
    void* pages = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED) std::abort();
    base_ = static_cast<char*>(pages);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) std::abort();
  }
  ~GarbageSlices() { munmap(base_, 2 * page_); }
  GarbageSlices(const GarbageSlices&) = delete;
  GarbageSlices& operator=(const GarbageSlices&) = delete;

  Slice Make() const { return Slice{255, base_ + page_ - 1}; }

 private:
  size_t page_;
  char* base_;
};

// The state every failed call must leave an output in (course.h).
bool IsEmptyOutput(const Slice& slice) {
  return slice.size == 0 && slice.data != nullptr;
}

Slice SliceOf(std::string& bytes) {
  return Slice{static_cast<uint8_t>(bytes.size()), bytes.data()};
}

// A harness's size counter: read and written back by every thread without
// synchronisation, so increments and decrements get lost. Relaxed atomic
// loads and stores lose them just as a plain int would, without a data race.
class RacySize {
 public:
  explicit RacySize(int start) : value_(start) {}
  void Add(int delta) {
    value_.store(value_.load(std::memory_order_relaxed) + delta,
                 std::memory_order_relaxed);
  }
  int Get() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int> value_;
};

// `count` distinct keys of 1 to 24 letters.
std::vector<std::string> KeySpace(size_t count) {
  std::mt19937_64 rng(7);
  std::set<std::string> keys;
  while (keys.size() < count) {
    std::string key(1 + rng() % 24, ' ');
    for (char& c : key) c = static_cast<char>('a' + rng() % 26);
    keys.insert(key);
  }
  return std::vector<std::string>(keys.begin(), keys.end());
}

// What one thread saw; the buffers it was handed are freed only at the end.
struct ThreadLog {
  std::vector<char*> owned;
  int failed_get_nth = 0;
  int succeeded_get_nth = 0;
  int outputs_not_empty_after_false = 0;

  void Keep(Slice& slice) { owned.push_back(slice.data); }
  void CheckFailed(const Slice& slice) {
    if (!IsEmptyOutput(slice)) ++outputs_not_empty_after_false;
  }
};

void RunHarnessThread(kvStore& kv, RacySize& size,
                      const std::vector<std::string>& keys,
                      const GarbageSlices& garbage, int ops, uint64_t seed,
                      ThreadLog& log) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < ops; ++i) {
    std::string key = keys[rng() % keys.size()];
    Slice k = SliceOf(key);
    switch (rng() % 5) {
      case 0: {
        std::string value(rng() % 256, static_cast<char>('A' + i % 26));
        Slice v = SliceOf(value);
        kv.put(k, v);
        size.Add(1);  // the harness counts its puts, replacements included
        break;
      }
      case 1: {
        Slice v = garbage.Make();
        if (kv.get(k, v)) {
          log.Keep(v);
        } else {
          log.CheckFailed(v);
        }
        break;
      }
      case 2:
        if (kv.del(k)) size.Add(-1);
        break;
      case 3: {
        Slice nth_key = garbage.Make(), nth_value = garbage.Make();
        const int n = static_cast<int>(rng() % (std::max(size.Get(), 0) + 1));
        if (kv.get(n, nth_key, nth_value)) {
          ++log.succeeded_get_nth;
          log.Keep(nth_key);
          log.Keep(nth_value);
        } else {
          ++log.failed_get_nth;
          log.CheckFailed(nth_key);
          log.CheckFailed(nth_value);
        }
        // As the course harness does, whatever get answered.
        if (kv.del(nth_key)) size.Add(-1);
        break;
      }
      case 4: {
        const int n = static_cast<int>(rng() % (std::max(size.Get(), 0) + 1));
        if (kv.del(n)) size.Add(-1);
        break;
      }
    }
  }
}

class CourseHarnessTest : public ::testing::TestWithParam<std::string> {
 protected:
  bool Ordered() const {
    return kvlab::BuiltinStores().Find(GetParam())->ordered;
  }
  GarbageSlices garbage_;
};

std::vector<std::string> AllStoreNames() {
  std::vector<std::string> names;
  for (const kvlab::StoreInfo& info : kvlab::BuiltinStores().stores()) {
    names.push_back(info.name);
  }
  return names;
}

TEST_P(CourseHarnessTest, FourThreadsWithARacySizeCounter) {
  const std::vector<std::string> keys = KeySpace(300);
  kvStore kv(keys.size(), GetParam().c_str());
  for (const std::string& key : keys) {
    std::string copy = key, value = "loaded";
    Slice k = SliceOf(copy), v = SliceOf(value);
    kv.put(k, v);
  }
  RacySize size(static_cast<int>(kv.store().Size()));
  const int ops = static_cast<int>(kvlab::testing::Scaled(5'000, 300));
  std::vector<ThreadLog> logs(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      RunHarnessThread(kv, size, keys, garbage_, ops, 1000 + t, logs[t]);
    });
  }
  for (std::thread& thread : threads) thread.join();

  int failed = 0, succeeded = 0;
  for (ThreadLog& log : logs) {
    EXPECT_EQ(log.outputs_not_empty_after_false, 0);
    failed += log.failed_get_nth;
    succeeded += log.succeeded_get_nth;
    for (char* data : log.owned) std::free(data);
  }
  // The run must have taken the path the course harness crashed on.
  EXPECT_GT(failed, 0);
  if (Ordered()) {
    EXPECT_GT(succeeded, 0);
  }

  // The store is still whole: every key it counts can be found, and an
  // ordered store hands out its pairs in key order.
  const uint64_t stored = kv.store().Size();
  uint64_t found = 0;
  for (const std::string& key : keys) {
    std::string copy = key;
    Slice k = SliceOf(copy), v = garbage_.Make();
    if (kv.get(k, v)) {
      ++found;
      std::free(v.data);
    }
  }
  EXPECT_EQ(found, stored);
  if (Ordered()) {
    std::string previous;
    for (uint64_t n = 0; n < stored; ++n) {
      Slice k = garbage_.Make(), v = garbage_.Make();
      ASSERT_TRUE(kv.get(static_cast<int>(n), k, v)) << n;
      std::string key(k.data, k.size);
      std::free(k.data);
      std::free(v.data);
      if (n > 0) {
        EXPECT_LT(previous, key);
      }
      previous = key;
    }
  }
}

// Each way a call can answer false, one at a time, and the harness's reuse
// of the output that followed.
TEST_P(CourseHarnessTest, EveryFalseAnswerLeavesEmptyOutputs) {
  kvStore kv(10, GetParam().c_str());
  std::string present = "present", value = "value";
  Slice p = SliceOf(present), v = SliceOf(value);
  ASSERT_FALSE(kv.put(p, v));

  std::string absent = "absent";
  Slice a = SliceOf(absent), out = garbage_.Make();
  EXPECT_FALSE(kv.get(a, out));
  EXPECT_TRUE(IsEmptyOutput(out));
  EXPECT_FALSE(kv.get(out, out));  // the empty key is absent too
  Slice null_key{0, nullptr};      // the empty key as a harness may spell it
  out = garbage_.Make();
  EXPECT_FALSE(kv.get(null_key, out));
  EXPECT_TRUE(IsEmptyOutput(out));
  EXPECT_FALSE(kv.del(null_key));
  std::string empty_value;
  Slice e = SliceOf(empty_value);
  EXPECT_FALSE(kv.put(null_key, e));
  EXPECT_TRUE(kv.del(null_key));

  for (int n : {-1, INT_MIN, 1, INT_MAX}) {
    Slice nth_key = garbage_.Make(), nth_value = garbage_.Make();
    EXPECT_FALSE(kv.get(n, nth_key, nth_value)) << n;
    EXPECT_TRUE(IsEmptyOutput(nth_key)) << n;
    EXPECT_TRUE(IsEmptyOutput(nth_value)) << n;
    EXPECT_FALSE(kv.del(nth_key)) << n;
    Slice again = garbage_.Make();
    EXPECT_FALSE(kv.get(nth_key, again)) << n;
    EXPECT_TRUE(IsEmptyOutput(again)) << n;
  }
  EXPECT_EQ(kv.store().Size(), 1u);
}

// A key or value over 255 bytes cannot travel in a Slice. Only a program
// reaching past the course API to the store itself can put one there.
TEST_P(CourseHarnessTest, PairsTooLongForASliceLeaveEmptyOutputs) {
  kvStore kv(10, GetParam().c_str());
  kvlab::KVStore& inner = const_cast<kvlab::KVStore&>(kv.store());
  const std::string long_key(300, 'k'), long_value(300, 'v');
  ASSERT_TRUE(inner.Put(long_key, "short").ok());
  ASSERT_TRUE(inner.Put("short", long_value).ok());

  std::string short_key = "short";
  Slice s = SliceOf(short_key), out = garbage_.Make();
  EXPECT_FALSE(kv.get(s, out));
  EXPECT_TRUE(IsEmptyOutput(out));
  for (int n : {0, 1}) {
    Slice nth_key = garbage_.Make(), nth_value = garbage_.Make();
    EXPECT_FALSE(kv.get(n, nth_key, nth_value)) << n;
    EXPECT_TRUE(IsEmptyOutput(nth_key)) << n;
    EXPECT_TRUE(IsEmptyOutput(nth_value)) << n;
    EXPECT_FALSE(kv.del(nth_key)) << n;
  }
  EXPECT_EQ(kv.store().Size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(AllStores, CourseHarnessTest,
                         ::testing::ValuesIn(AllStoreNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
