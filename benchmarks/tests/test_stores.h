// Small deliberately faulty stores for the tests: each forwards to a correct
// std_map store and breaks exactly one operation, so a test can assert that
// kvbench's checks catch that fault.

#ifndef KVBENCH_TESTS_TEST_STORES_H_
#define KVBENCH_TESTS_TEST_STORES_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

#include "kvlab/std_map_store.h"

namespace kvbench::testing {

// Forwards every operation to a StdMapStore.
class ForwardingStore : public kvlab::KVStore {
 public:
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    return inner_.GetNth(n, key, value);
  }
  bool DeleteNth(uint64_t n) override { return inner_.DeleteNth(n); }
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override {
    return inner_.Scan(start, visitor);
  }
  uint64_t Size() const override { return inner_.Size(); }
  std::string_view Name() const override { return "forwarding"; }
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    return *inner_.Put(key, value);
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    return inner_.Get(key, value);
  }
  bool DeleteImpl(std::string_view key) override { return inner_.Delete(key); }

  kvlab::StdMapStore inner_;
};

// GetNth(n) answers with the (n+1)-th pair: an off-by-one rank.
class OffByOneNthStore : public ForwardingStore {
 public:
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    if (n + 1 < inner_.Size()) return inner_.GetNth(n + 1, key, value);
    return inner_.GetNth(n, key, value);
  }
};

// Delete reports success but keeps the pair.
class LeakyDeleteStore : public ForwardingStore {
 protected:
  bool DeleteImpl(std::string_view key) override {
    return inner_.Get(key, nullptr);
  }
};

// An unordered store, as ect is: GetNth and DeleteNth answer false, Scan
// visits nothing, and each counts its calls (thread-safe, so the timed
// phase runs it unwrapped).
class UnorderedStore : public ForwardingStore {
 public:
  bool GetNth(uint64_t, std::string*, std::string*) const override {
    ++rank_calls_;
    return false;
  }
  bool DeleteNth(uint64_t) override {
    ++rank_calls_;
    return false;
  }
  uint64_t Scan(std::string_view, ScanVisitor) const override {
    ++rank_calls_;
    return 0;
  }
  uint64_t Size() const override {
    std::lock_guard lock(mutex_);
    return inner_.Size();
  }
  bool IsThreadSafe() const override { return true; }
  uint64_t rank_calls() const { return rank_calls_.load(); }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    std::lock_guard lock(mutex_);
    return *inner_.Put(key, value);
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    std::lock_guard lock(mutex_);
    return inner_.Get(key, value);
  }
  bool DeleteImpl(std::string_view key) override {
    std::lock_guard lock(mutex_);
    return inner_.Delete(key);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::atomic<uint64_t> rank_calls_{0};
};

// Every GetNth takes 2 ms, like an O(n) walk over a large store.
class SlowNthStore : public ForwardingStore {
 public:
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return inner_.GetNth(n, key, value);
  }
};

// Get answers with a corrupted value for one key.
class CorruptValueStore : public ForwardingStore {
 public:
  explicit CorruptValueStore(std::string victim) : victim_(std::move(victim)) {}

 protected:
  bool GetImpl(std::string_view key, std::string* value) const override {
    const bool found = inner_.Get(key, value);
    if (found && key == victim_ && value != nullptr) value->append("!");
    return found;
  }

 private:
  std::string victim_;
};

// Scan hands out a wrong value for one key; Get stays correct.
class CorruptScanStore : public ForwardingStore {
 public:
  explicit CorruptScanStore(std::string victim) : victim_(std::move(victim)) {}
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override {
    return inner_.Scan(start, [&](std::string_view key,
                                  std::string_view value) {
      return visitor(key, key == victim_ ? std::string_view("wrong") : value);
    });
  }

 private:
  std::string victim_;
};

}  // namespace kvbench::testing

#endif  // KVBENCH_TESTS_TEST_STORES_H_
