// The course API when memory runs out (course.h): get and get(N) answer
// with the right pair or false with empty outputs, and never throw; put
// succeeds or throws std::bad_alloc, and the store then holds what its
// answers said. Every allocation of the call fails in turn.

#include <cstdlib>
#include <iterator>
#include <map>
#include <new>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/course.h"
#include "kvlab/kv_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/failing_allocator.h"

namespace {

using kvlab::testing::FailingAllocations;

// What an uninitialised output Slice may hold.
Slice Garbage() {
  static char byte = 'g';
  return Slice{255, &byte};
}

bool IsEmptyOutput(const Slice& slice) {
  return slice.size == 0 && slice.data != nullptr;
}

Slice SliceOf(std::string& bytes) {
  return Slice{static_cast<uint8_t>(bytes.size()), bytes.data()};
}

std::string Take(Slice& slice) {
  std::string bytes(slice.data, slice.size);
  std::free(slice.data);
  return bytes;
}

// A store and the pairs put into it before any allocation fails.
struct Loaded {
  explicit Loaded(const std::string& spec) : kv(64, spec.c_str()) {
    for (int i = 0; i < 40; ++i) {
      std::string key = "key" + std::to_string(i * 7 % 40);
      std::string value(10 + i * 5, static_cast<char>('a' + i % 26));
      Slice k = SliceOf(key), v = SliceOf(value);
      kv.put(k, v);
      model[key] = value;
    }
  }
  kvStore kv;
  std::map<std::string, std::string> model;
};

std::vector<std::string> SurvivingStores() {
  std::vector<std::string> names;
  for (const kvlab::StoreInfo& info : kvlab::BuiltinStores().stores()) {
    if (info.survives_allocation_failure) names.push_back(info.name);
  }
  return names;
}

class CourseReadOutOfMemoryTest : public ::testing::TestWithParam<std::string> {
};

TEST_P(CourseReadOutOfMemoryTest, ReadsAnswerOrLeaveEmptyOutputs) {
  Loaded loaded(GetParam());
  const bool ordered = kvlab::BuiltinStores().Find(GetParam())->ordered;
  auto nth = std::next(loaded.model.begin(), 17);
  std::string key = "key5";
  Slice k = SliceOf(key);
  int failed_reads = 0;
  for (uint64_t n = 1;; ++n) {
    Slice value = Garbage(), nth_key = Garbage(), nth_value = Garbage();
    bool got = false, got_nth = false;
    uint64_t allocations = 0;
    {
      FailingAllocations failing(n);
      got = loaded.kv.get(k, value);
      got_nth = loaded.kv.get(17, nth_key, nth_value);
      allocations = failing.allocations();
    }
    if (got) {
      EXPECT_EQ(Take(value), loaded.model[key]) << n;
    } else {
      ++failed_reads;
      EXPECT_TRUE(IsEmptyOutput(value)) << n;
    }
    if (got_nth) {
      EXPECT_TRUE(ordered);
      EXPECT_EQ(Take(nth_key), nth->first) << n;
      EXPECT_EQ(Take(nth_value), nth->second) << n;
    } else {
      if (ordered) ++failed_reads;
      EXPECT_TRUE(IsEmptyOutput(nth_key)) << n;
      EXPECT_TRUE(IsEmptyOutput(nth_value)) << n;
    }
    if (allocations < n) break;  // nothing failed: every allocation covered
  }
  EXPECT_GT(failed_reads, 0) << "no read met a failed allocation";
  EXPECT_EQ(loaded.kv.store().Size(), loaded.model.size());
}

INSTANTIATE_TEST_SUITE_P(EveryStore, CourseReadOutOfMemoryTest,
                         ::testing::ValuesIn(SurvivingStores()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// put's own layer: ResourceExhausted from the store, through the lock that
// makes avl and btree thread-safe, becomes std::bad_alloc. (Each store's
// own consistency under failed allocations is the out-of-memory sweep's.)
class CoursePutOutOfMemoryTest : public ::testing::TestWithParam<std::string> {
};

TEST_P(CoursePutOutOfMemoryTest, PutThrowsBadAllocAndChangesNothing) {
  if (!kvlab::testing::MallocFailuresInjected()) {
    GTEST_SKIP() << "these stores allocate with malloc, which a sanitizer "
                    "build cannot fail";
  }
  int threw = 0;
  for (bool replace : {false, true}) {
    for (uint64_t n = 1;; ++n) {
      Loaded loaded(GetParam());
      std::string key = replace ? "key3" : "new key";
      std::string value(200, 'n');
      Slice k = SliceOf(key), v = SliceOf(value);
      bool replaced = false, bad_alloc = false;
      uint64_t allocations = 0;
      {
        FailingAllocations failing(n);
        try {
          replaced = loaded.kv.put(k, v);
        } catch (const std::bad_alloc&) {
          bad_alloc = true;
        }
        allocations = failing.allocations();
      }
      if (bad_alloc) {
        ++threw;
      } else {
        EXPECT_EQ(replaced, replace) << n;
        loaded.model[key] = value;
      }
      EXPECT_EQ(loaded.kv.store().Size(), loaded.model.size()) << n;
      for (auto& [model_key, model_value] : loaded.model) {
        std::string copy = model_key;
        Slice mk = SliceOf(copy), out = Garbage();
        ASSERT_TRUE(loaded.kv.get(mk, out)) << n << " " << model_key;
        EXPECT_EQ(Take(out), model_value) << n << " " << model_key;
      }
      if (allocations < n) break;
    }
  }
  EXPECT_GT(threw, 0) << "no put met a failed allocation";
}

INSTANTIATE_TEST_SUITE_P(LockedStores, CoursePutOutOfMemoryTest,
                         ::testing::Values("avl", "btree"));

}  // namespace
