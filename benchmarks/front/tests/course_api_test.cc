// The course API as a course harness uses it: uninitialised output Slices,
// returned buffers reused as input, 0-based N with out-of-range values, any
// byte, several threads.

#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kvlab/course.h"
#include "kvlab/kv_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/test_scale.h"

namespace {

// A Slice over a std::string's bytes (the harness owns them).
Slice SliceOf(std::string& bytes) {
  return Slice{static_cast<uint8_t>(bytes.size()), bytes.data()};
}

std::string Take(Slice& slice) {
  std::string bytes(slice.data, slice.size);
  std::free(slice.data);
  return bytes;
}

std::string RandomLetters(std::mt19937_64& rng, int min_len, int max_len) {
  static const char kLetters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string s(min_len + rng() % (max_len - min_len + 1), ' ');
  for (char& c : s) c = kLetters[rng() % 52];
  return s;
}

class CourseApiTest : public ::testing::TestWithParam<const char*> {};

// The course benchmark's checked phase: each operation compared with a
// std::map, in the five kinds the course uses.
TEST_P(CourseApiTest, CheckedPhaseMatchesStdMap) {
  kvStore store(1000, GetParam());
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(2020);
  const int load = static_cast<int>(kvlab::testing::Scaled(5'000, 200));
  for (int i = 0; i < load; ++i) {
    std::string key = RandomLetters(rng, 1, 64);
    std::string value = RandomLetters(rng, 1, 255);
    Slice k = SliceOf(key), v = SliceOf(value);
    bool existed = model.count(key) > 0;
    ASSERT_EQ(store.put(k, v), existed);
    model[key] = value;
  }
  const int ops = static_cast<int>(kvlab::testing::Scaled(10'000, 500));
  for (int i = 0; i < ops; ++i) {
    Slice out_key{123, reinterpret_cast<char*>(0x1)};  // garbage, as harnesses
    Slice out_value{7, nullptr};
    switch (i % 5) {
      case 0: {  // get of an existing key
        auto it = std::next(model.begin(), rng() % model.size());
        std::string key = it->first;
        Slice k = SliceOf(key);
        ASSERT_TRUE(store.get(k, out_value));
        EXPECT_EQ(Take(out_value), it->second);
        break;
      }
      case 1: {  // put of a new key, then get
        std::string key = RandomLetters(rng, 1, 64) + "\n";
        std::string value = RandomLetters(rng, 1, 254) + "\n";
        Slice k = SliceOf(key), v = SliceOf(value);
        ASSERT_EQ(store.put(k, v), model.count(key) > 0);
        model[key] = value;
        ASSERT_TRUE(store.get(k, out_value));
        EXPECT_EQ(Take(out_value), value);
        break;
      }
      case 2: {  // delete, then get
        auto it = std::next(model.begin(), rng() % model.size());
        std::string key = it->first;
        model.erase(it);
        Slice k = SliceOf(key);
        ASSERT_TRUE(store.del(k));
        EXPECT_FALSE(store.get(k, out_value));
        break;
      }
      case 3: {  // get(N) against the model's N-th
        int n = static_cast<int>(rng() % model.size());
        ASSERT_TRUE(store.get(n, out_key, out_value));
        auto it = std::next(model.begin(), n);
        // The harness reuses a returned key as the next call's input.
        Slice again{out_key.size, out_key.data};
        Slice check_value;
        ASSERT_TRUE(store.get(again, check_value));
        EXPECT_EQ(Take(out_key), it->first);
        EXPECT_EQ(Take(out_value), it->second);
        EXPECT_EQ(Take(check_value), it->second);
        break;
      }
      case 4: {  // del(N), then get
        int n = static_cast<int>(rng() % model.size());
        auto it = std::next(model.begin(), n);
        std::string key = it->first;
        model.erase(it);
        ASSERT_TRUE(store.del(n));
        Slice k = SliceOf(key);
        EXPECT_FALSE(store.get(k, out_value));
        break;
      }
    }
  }
  EXPECT_EQ(store.store().Size(), model.size());
}

TEST_P(CourseApiTest, OutOfRangeNReturnsFalse) {
  kvStore store(10, GetParam());
  std::string key = "k", value = "v";
  Slice k = SliceOf(key), v = SliceOf(value), out_key, out_value;
  EXPECT_FALSE(store.get(0, out_key, out_value));
  EXPECT_FALSE(store.del(0));
  ASSERT_FALSE(store.put(k, v));
  EXPECT_FALSE(store.get(-1, out_key, out_value));
  EXPECT_FALSE(store.get(1, out_key, out_value));
  EXPECT_FALSE(store.get(INT32_MIN, out_key, out_value));
  EXPECT_FALSE(store.del(-1));
  EXPECT_FALSE(store.del(1));
  EXPECT_FALSE(store.del(INT32_MAX));
  EXPECT_EQ(store.store().Size(), 1u);
}

TEST_P(CourseApiTest, AnyByteAndEmptyDataRoundTrip) {
  kvStore store(10, GetParam());
  std::string key("\0a\n\xff", 4), value("\0\0\n", 3), empty;
  Slice k = SliceOf(key), v = SliceOf(value), e = SliceOf(empty), out;
  EXPECT_FALSE(store.put(k, v));
  ASSERT_TRUE(store.get(k, out));
  EXPECT_EQ(Take(out), value);
  EXPECT_FALSE(store.put(e, e));  // empty key, empty value
  ASSERT_TRUE(store.get(e, out));
  ASSERT_NE(out.data, nullptr);  // never NULL, even for size 0
  EXPECT_EQ(Take(out), "");
  std::string max(255, '\xfe');
  Slice m = SliceOf(max);
  EXPECT_FALSE(store.put(m, m));
  ASSERT_TRUE(store.get(m, out));
  EXPECT_EQ(Take(out), max);
  // The store copied the input: changing the caller's buffer changes nothing.
  std::fill(max.begin(), max.end(), 'x');
  std::string original(255, '\xfe');
  Slice o = SliceOf(original);
  ASSERT_TRUE(store.get(o, out));
  EXPECT_EQ(Take(out), original);
}

TEST_P(CourseApiTest, FourThreadsOfTheCourseMix) {
  kvStore store(10'000, GetParam());
  std::mt19937_64 load_rng(1);
  for (int i = 0; i < 2'000; ++i) {
    std::string key = RandomLetters(load_rng, 1, 64), value = "v";
    Slice k = SliceOf(key), v = SliceOf(value);
    store.put(k, v);
  }
  const int ops = static_cast<int>(kvlab::testing::Scaled(4'000, 200));
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&store, ops, t] {
      std::mt19937_64 rng(100 + t);
      for (int i = 0; i < ops; ++i) {
        std::string key = RandomLetters(rng, 1, 64), value = "value";
        Slice k = SliceOf(key), v = SliceOf(value), out_key, out_value;
        int n = static_cast<int>(rng() % 2'500);  // sometimes out of range
        switch (i % 5) {
          case 0:
            if (store.get(k, out_value)) Take(out_value);
            break;
          case 1:
            store.put(k, v);
            break;
          case 2:
            if (store.get(n, out_key, out_value)) {
              Take(out_value);
              store.del(out_key);  // may lose a race: either answer is fine
              Take(out_key);
            }
            break;
          case 3:
            if (store.get(n, out_key, out_value)) {
              Take(out_key);
              Take(out_value);
            }
            break;
          case 4:
            store.del(n);
            break;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  // Whatever survived is still in order and readable.
  const kvlab::KVStore& inner = store.store();
  std::string previous;
  bool first = true, ordered = true;
  uint64_t count = inner.Scan("", [&](std::string_view k, std::string_view) {
    if (!first && !(previous < k)) ordered = false;
    first = false;
    previous.assign(k);
    return true;
  });
  EXPECT_TRUE(ordered);
  EXPECT_EQ(count, inner.Size());
}

INSTANTIATE_TEST_SUITE_P(Stores, CourseApiTest,
                         ::testing::Values("bst", "avl", "std_map",
                                           "wormhole"));

TEST(CourseApiEnvironmentTest, StoreComesFromKvlabStore) {
  ASSERT_EQ(setenv("KVLAB_STORE", "std_map", 1), 0);
  kvStore named(10);
  EXPECT_EQ(named.store().Name(), "std_map");
  ASSERT_EQ(unsetenv("KVLAB_STORE"), 0);
  kvStore by_default(10);
  EXPECT_EQ(by_default.store().Name(), kvlab::DefaultStoreSpec());
  // Stage 4's ctrie: the most advanced stage whose store is safe for
  // threads by itself (stage 5's hyperion needs a LockedStore).
  EXPECT_EQ(kvlab::DefaultStoreSpec(), "ctrie");
}

TEST(CourseApiEnvironmentTest, UnknownStoreThrowsWithTheList) {
  try {
    kvStore store(10, "no_such_store");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("no_such_store"));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("std_map"));
  }
}

}  // namespace
