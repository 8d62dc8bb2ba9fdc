#include "kvlab/testing/allocation_failure.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/failing_allocator.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::testing {
namespace {

enum class OpKind { kPut, kDelete, kDeleteNth, kGet, kGetNth, kScan };

struct Op {
  OpKind kind;
  std::string key;    // Put, Delete, Get; Scan's start
  std::string value;  // Put
  uint64_t n = 0;     // DeleteNth, GetNth (taken modulo size + 2); Scan limit
};

std::string RandomBytes(std::mt19937_64& rng, size_t length) {
  std::string s(length, '\0');
  for (char& c : s) c = static_cast<char>(rng() % 256);
  return s;
}

// A pool of keys that share prefixes (so tries split and merge nodes), with
// the empty key among them.
std::vector<std::string> KeyPool(std::mt19937_64& rng, size_t max_length) {
  std::vector<std::string> pool = {""};
  for (int i = 0; i < 120; ++i) {
    std::string key;
    if (i > 0 && rng() % 2 == 0) {
      key = pool[rng() % pool.size()];  // extend an earlier key
      key.resize(std::min(key.size(), max_length / 2));
    }
    key += RandomBytes(rng, 1 + rng() % (max_length - key.size()));
    pool.push_back(key);
  }
  return pool;
}

std::vector<Op> MakeOperations(const AllocationFailureOptions& options,
                               std::mt19937_64& rng,
                               const std::vector<std::string>& pool) {
  std::vector<Op> ops;
  for (uint64_t i = 0; i < options.operations; ++i) {
    Op op;
    const uint64_t dice = rng() % 100;
    op.kind = dice < 40   ? OpKind::kPut
              : dice < 55 ? OpKind::kDelete
              : dice < 65 ? OpKind::kDeleteNth
              : dice < 80 ? OpKind::kGet
              : dice < 90 ? OpKind::kGetNth
                          : OpKind::kScan;
    op.key = pool[rng() % pool.size()];
    op.value = RandomBytes(rng, rng() % (options.max_value_length + 1));
    op.n = rng();
    ops.push_back(std::move(op));
  }
  return ops;
}

std::string Show(const std::string& bytes) {
  return "\"" + absl::CHexEscape(bytes.substr(0, 24)) +
         (bytes.size() > 24 ? "...\"" : "\"");
}

// Whether the store holds exactly `model`, with its invariants intact.
void ExpectHolds(const KVStore& store, const Oracle& model, bool ordered,
                 const std::string& where) {
  const absl::Status invariants = store.CheckInvariants();
  EXPECT_TRUE(invariants.ok()) << where << ": " << invariants;
  if (ordered) {
    uint64_t scanned = 0;
    store.Scan("", [&](std::string_view, std::string_view) {
      ++scanned;
      return true;
    });
    EXPECT_EQ(store.Size(), scanned) << where << ": Size() against a Scan";
  }
  EXPECT_EQ(store.Size(), model.size()) << where;
  for (const auto& [key, value] : model) {
    std::string found;
    ASSERT_TRUE(store.Get(key, &found)) << where << ": lost " << Show(key);
    ASSERT_EQ(found, value) << where << ": value of " << Show(key);
  }
}

// Runs one operation on `store` and `model`; false if the run must stop.
bool Apply(KVStore& store, Oracle& model, const Op& op, bool ordered,
           FailingAllocations& failing, const std::string& where) {
  failing.Resume();
  switch (op.kind) {
    case OpKind::kPut: {
      absl::StatusOr<bool> replaced;
      try {
        replaced = store.Put(op.key, op.value);
      } catch (const std::bad_alloc&) {
        failing.Pause();
        ADD_FAILURE() << where << ": Put threw bad_alloc instead of "
                      << "returning ResourceExhausted";
        return false;
      }
      failing.Pause();
      if (replaced.ok()) {
        EXPECT_EQ(*replaced, model.count(op.key) == 1) << where;
        model[op.key] = op.value;
      } else {
        EXPECT_EQ(replaced.status().code(),
                  absl::StatusCode::kResourceExhausted)
            << where << ": " << replaced.status();
      }
      return true;
    }
    case OpKind::kDelete: {
      bool deleted;
      try {
        deleted = store.Delete(op.key);
      } catch (const std::bad_alloc&) {
        failing.Pause();
        return true;  // a delete that needed memory failed: nothing changed
      }
      failing.Pause();
      EXPECT_EQ(deleted, model.erase(op.key) == 1) << where;
      return true;
    }
    case OpKind::kDeleteNth: {
      if (!ordered) break;
      const uint64_t n = op.n % (model.size() + 2);
      bool deleted;
      try {
        deleted = store.DeleteNth(n);
      } catch (const std::bad_alloc&) {
        failing.Pause();
        return true;
      }
      failing.Pause();
      EXPECT_EQ(deleted, n < model.size()) << where;
      if (deleted && n < model.size()) model.erase(std::next(model.begin(), n));
      return true;
    }
    case OpKind::kGet: {
      std::string value;
      bool found;
      try {
        found = store.Get(op.key, &value);
      } catch (const std::bad_alloc&) {
        failing.Pause();
        return true;
      }
      failing.Pause();
      const auto it = model.find(op.key);
      EXPECT_EQ(found, it != model.end()) << where;
      if (found && it != model.end()) {
        EXPECT_EQ(value, it->second) << where;
      }
      return true;
    }
    case OpKind::kGetNth: {
      if (!ordered) break;
      const uint64_t n = op.n % (model.size() + 2);
      std::string key, value;
      bool found;
      try {
        found = store.GetNth(n, &key, &value);
      } catch (const std::bad_alloc&) {
        failing.Pause();
        return true;
      }
      failing.Pause();
      EXPECT_EQ(found, n < model.size()) << where;
      if (found && n < model.size()) {
        const auto it = std::next(model.begin(), n);
        EXPECT_EQ(key, it->first) << where;
        EXPECT_EQ(value, it->second) << where;
      }
      return true;
    }
    case OpKind::kScan: {
      if (!ordered) break;
      const uint64_t limit = 1 + op.n % 8;
      std::vector<std::pair<std::string, std::string>> seen;
      try {
        store.Scan(op.key, [&](std::string_view k, std::string_view v) {
          seen.emplace_back(k, v);
          return seen.size() < limit;
        });
      } catch (const std::bad_alloc&) {
        failing.Pause();
        return true;
      }
      failing.Pause();
      auto it = model.lower_bound(op.key);
      for (const auto& [k, v] : seen) {
        if (it == model.end()) {
          ADD_FAILURE() << where << ": Scan past the end";
          break;
        }
        EXPECT_EQ(k, it->first) << where;
        EXPECT_EQ(v, it->second) << where;
        ++it;
      }
      return true;
    }
  }
  failing.Pause();
  return true;
}

}  // namespace

uint64_t RunAllocationFailureSweep(
    const std::function<std::unique_ptr<KVStore>()>& make,
    const AllocationFailureOptions& full_options) {
  // KVLAB_TEST_SCALE shrinks the sequence and the preload alike; the sweep
  // costs about their product, so a scale of 0.5 makes it four times
  // quicker. Each keeps a floor that still reaches every kind of operation.
  AllocationFailureOptions options = full_options;
  options.operations =
      Scaled(options.operations, std::min<uint64_t>(options.operations, 30));
  options.preload =
      Scaled(options.preload, std::min<uint64_t>(options.preload, 10));
  std::mt19937_64 rng(options.seed);
  const std::vector<std::string> pool = KeyPool(rng, options.max_key_length);
  Oracle preload;
  for (uint64_t i = 0; i < options.preload; ++i) {
    preload[pool[rng() % pool.size()] + RandomBytes(rng, rng() % 4)] =
        RandomBytes(rng, rng() % (options.max_value_length + 1));
  }
  const std::vector<Op> ops = MakeOperations(options, rng, pool);

  // With `sample`, a first run that fails nothing counts the allocations,
  // and k steps through them evenly.
  uint64_t step = 1;
  if (options.sample != 0) {
    std::unique_ptr<KVStore> store = make();
    for (const auto& [key, value] : preload) {
      EXPECT_TRUE(store->Put(key, value).ok());
    }
    Oracle model = preload;
    FailingAllocations counting(0);
    counting.Pause();
    for (const Op& op : ops) {
      if (!Apply(*store, model, op, options.ordered, counting,
                 "counting run")) {
        return 0;
      }
    }
    step = std::max<uint64_t>(1, counting.allocations() / options.sample);
  }

  uint64_t runs = 0;
  for (uint64_t k = 1;; k += step) {
    if (options.max_runs != 0 && runs == options.max_runs) break;
    ++runs;
    std::unique_ptr<KVStore> store = make();
    for (const auto& [key, value] : preload) {
      EXPECT_TRUE(store->Put(key, value).ok());
    }
    Oracle model = preload;
    bool reached;
    bool checked_after_failure = false;
    {
      FailingAllocations failing(k, options.persistent);
      failing.Pause();
      for (size_t i = 0; i < ops.size(); ++i) {
        const std::string where = "allocation " + std::to_string(k) +
                                  (options.persistent ? " and after" : "") +
                                  " failing, operation " + std::to_string(i);
        if (!Apply(*store, model, ops[i], options.ordered, failing, where)) {
          return runs;
        }
        if (::testing::Test::HasFatalFailure()) return runs;
        if (!options.persistent && failing.failures() > 0 &&
            !checked_after_failure) {
          checked_after_failure = true;
          ExpectHolds(*store, model, options.ordered, where);
          if (::testing::Test::HasFailure()) return runs;
        }
      }
      reached = failing.allocations() >= k;
    }
    const std::string where = "after the run failing allocation " +
                              std::to_string(k) +
                              (options.persistent ? " and after" : "");
    ExpectHolds(*store, model, options.ordered, where);
    // Memory is back: the store must work as before.
    EXPECT_TRUE(store->Put("after the failure", "works").ok()) << where;
    std::string value;
    EXPECT_TRUE(store->Get("after the failure", &value)) << where;
    EXPECT_TRUE(store->Delete("after the failure")) << where;
    model.erase("after the failure");
    ExpectHolds(*store, model, options.ordered, where);
    if (::testing::Test::HasFailure()) return runs;
    if (!reached) break;  // every allocation of the sequence has failed once
  }
  return runs;
}

}  // namespace kvlab::testing
