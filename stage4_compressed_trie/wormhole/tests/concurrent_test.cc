// wormhole under threads: readers (Get, Scan, GetNth) beside writers whose
// inserts split leaves and whose deletes merge them. Each reader checks what
// it sees against what must be there: the keys no writer touches are always
// found with their values, and a scan is always in order. Run it under
// ThreadSanitizer too (make stage4 tsan).

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/testing/test_scale.h"
#include "kvlab/testing/thread_errors.h"

namespace kvlab {
namespace {

using testing::Scaled;
using testing::ThreadErrors;

std::string Stable(int i) { return "t" + std::to_string(i * 7 % 1000); }
std::string Churn(int writer, int i) {
  return "c" + std::to_string(writer) + "/" + std::to_string(i % 700);
}

TEST(WormholeConcurrentTest, ReadersSeeStableKeysWhileWritersSplitAndMerge) {
  WormholeOptions options;
  options.leaf_capacity = 8;  // many splits and merges
  WormholeStore store(options);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(store.Put(Stable(i), "v" + Stable(i)).ok());
  }
  const int rounds = static_cast<int>(Scaled(6'000, 600));
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  ThreadErrors errors;
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      errors.Run([&] {
        for (int i = 0; i < rounds; ++i) {
          if (!store.Put(Churn(w, i), "x").ok()) ++failures;
          if (i % 3 == 2) store.Delete(Churn(w, i - 1));
          if (i % 50 == 0) {
            // Every DeleteNth(0) follows a Put of an "a" key, so it always
            // removes an "a" key, never a stable one.
            if (!store.Put("a" + std::to_string(w) + std::to_string(i), "y")
                     .ok() ||
                !store.DeleteNth(0)) {
              ++failures;
            }
          }
          if (i % 500 == 499) {
            for (int j = 0; j < 700; ++j) store.Delete(Churn(w, j));
          }
        }
      });
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      errors.Run([&] {
        std::string value;
        for (int i = 0; !stop.load(); ++i) {
          const std::string key = Stable((i * 13 + r) % 1000);
          if (!store.Get(key, &value) || value != "v" + key) ++failures;
          if (i % 64 == 0) {
            std::string last;
            bool first = true;
            store.Scan(key, [&](std::string_view k, std::string_view) {
              if (!first && !(last < k)) ++failures;
              first = false;
              last.assign(k);
              return k < "t5";
            });
          }
          if (i % 32 == 0) {
            std::string k;
            const uint64_t size = store.Size();
            if (size > 0) store.GetNth(size / 2, &k, nullptr);
          }
        }
      });
    });
  }
  for (int w = 0; w < 2; ++w) threads[w].join();
  stop.store(true);
  for (size_t t = 2; t < threads.size(); ++t) threads[t].join();
  ASSERT_EQ(errors.first(), "");
  EXPECT_EQ(failures.load(), 0);
  const absl::Status invariants = store.CheckInvariants();
  EXPECT_TRUE(invariants.ok()) << invariants;
  std::string value;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(store.Get(Stable(i), &value));
    EXPECT_EQ(value, "v" + Stable(i));
  }
}

// Stable keys interleaved with the writers' keys in a few leaves, so that
// the leaves the readers look in split and merge all the time, moving
// stable keys between leaves under them: a reader that found a leaf in a
// table copy older than the leaf's last split or merge must look again, or
// it misses a key that moved out.
TEST(WormholeConcurrentTest,
     ReadersFindKeysInLeavesThatSplitAndMergeUnderThem) {
  WormholeOptions options;
  options.leaf_capacity = 4;
  WormholeStore store(options);
  auto key_of = [](int i) { return "k" + std::to_string(100 + i); };
  constexpr int kKeys = 48;  // even: stable; odd: writer i / 2 % 2's
  for (int i = 0; i < kKeys; i += 2) {
    ASSERT_TRUE(store.Put(key_of(i), "v" + key_of(i)).ok());
  }
  const int passes = static_cast<int>(Scaled(3'000, 300));
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  ThreadErrors errors;
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      errors.Run([&] {
        for (int pass = 0; pass < passes; ++pass) {
          for (int i = 1; i < kKeys; i += 2) {
            if (i / 2 % 2 == w && !store.Put(key_of(i), "x").ok()) ++failures;
          }
          for (int i = 1; i < kKeys; i += 2) {
            if (i / 2 % 2 == w && !store.Delete(key_of(i))) ++failures;
          }
        }
      });
    });
  }
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      errors.Run([&] {
        std::string value;
        for (int i = r; !stop.load(); ++i) {
          const std::string key = key_of(i * 2 % kKeys);
          if (!store.Get(key, &value) || value != "v" + key) ++failures;
          if (i % 8 == 0) {
            std::string first;
            store.Scan(key, [&](std::string_view k, std::string_view) {
              first.assign(k);
              return false;
            });
            if (first != key) ++failures;
          }
        }
      });
    });
  }
  for (int w = 0; w < 2; ++w) threads[w].join();
  stop.store(true);
  for (size_t t = 2; t < threads.size(); ++t) threads[t].join();
  ASSERT_EQ(errors.first(), "");
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(store.Size(), static_cast<uint64_t>(kKeys / 2));
  const absl::Status invariants = store.CheckInvariants();
  EXPECT_TRUE(invariants.ok()) << invariants;
}

}  // namespace
}  // namespace kvlab
