#include "kvbench/course_workload.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <limits>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvbench/random.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

using Clock = std::chrono::steady_clock;

std::string Quote(std::string_view bytes) {
  return absl::StrCat("\"", absl::CHexEscape(kvlab::ToAbsl(bytes)), "\"");
}

std::string Answer(bool found, std::string_view value) {
  return found ? absl::StrCat("present, value ", Quote(value)) : "absent";
}

// One checked operation. Returns an error describing the first mismatch.
class Checker {
 public:
  Checker(kvlab::KVStore& store, Oracle& oracle, uint64_t seed, bool ordered)
      : store_(store), oracle_(oracle), rng_(seed), ordered_(ordered) {}

  absl::Status Step(uint64_t step) {
    step_ = step;
    // An unordered store draws only the first three.
    switch (Below(rng_, ordered_ ? 5 : 3)) {
      case 0:
        return CheckGet();
      case 1:
        return CheckPutThenGet();
      case 2:
        return CheckDeleteThenGet();
      case 3:
        return CheckGetNth();
      default:
        return CheckDeleteNthThenGet();
    }
  }

  absl::Status CheckSize() {
    const uint64_t size = store_.Size();
    if (size != oracle_.size()) {
      return Mismatch("Size", "", absl::StrCat(size),
                      absl::StrCat(oracle_.size()));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Mismatch(absl::string_view operation, absl::string_view key,
                        absl::string_view store_answer,
                        absl::string_view oracle_answer) const {
    return absl::InternalError(absl::StrCat(
        "course check failed at operation #", step_, ": ", operation,
        key.empty() ? "" : " key ",
        key.empty() ? "" : Quote(kvlab::FromAbsl(key)), ": store answered ",
        store_answer, "; oracle answered ", oracle_answer));
  }

  // After a write, Get of `key` must find `expected` (or nothing).
  absl::Status CheckGetAfter(absl::string_view operation,
                             const std::string& key,
                             const std::string* expected) {
    const bool found = store_.Get(key, &value_);
    if (found != (expected != nullptr) || (found && value_ != *expected)) {
      return Mismatch(
          absl::StrCat(operation, " then Get"), key, Answer(found, value_),
          Answer(expected != nullptr, expected != nullptr ? *expected : ""));
    }
    return absl::OkStatus();
  }

  absl::Status CheckGet() {
    if (oracle_.empty())
      return CheckGetAfter("Get", RandomCourseKey(rng_), nullptr);
    auto it = oracle_.find_by_order(Below(rng_, oracle_.size()));
    return CheckGetAfter("Get", it->first, &it->second);
  }

  absl::Status CheckPutThenGet() {
    const std::string key = RandomCourseKey(rng_);
    const std::string value = RandomCourseValue(rng_);
    const bool existed = oracle_.find(key) != oracle_.end();
    absl::StatusOr<bool> replaced = store_.Put(key, value);
    if (!replaced.ok() || *replaced != existed) {
      return Mismatch("Put", key,
                      replaced.ok()
                          ? (*replaced ? "true (replaced)" : "false (new key)")
                          : replaced.status().ToString(),
                      existed ? "true (replaced)" : "false (new key)");
    }
    oracle_[key] = value;
    return CheckGetAfter("Put", key, &value);
  }

  absl::Status CheckDeleteThenGet() {
    if (oracle_.empty()) return absl::OkStatus();
    const std::string key =
        oracle_.find_by_order(Below(rng_, oracle_.size()))->first;
    if (!store_.Delete(key)) {
      return Mismatch("Delete", key, "false (absent)", "true (deleted)");
    }
    oracle_.erase(key);
    return CheckGetAfter("Delete", key, nullptr);
  }

  absl::Status CheckGetNth() {
    const uint64_t n = Below(rng_, oracle_.size());
    const bool found = store_.GetNth(n, &key_, &value_);
    auto it = oracle_.find_by_order(n);
    const bool expected = it != oracle_.end();
    if (found != expected ||
        (found && (key_ != it->first || value_ != it->second))) {
      auto describe = [](bool present, std::string_view k, std::string_view v) {
        return present ? absl::StrCat("key ", Quote(k), " value ", Quote(v))
                       : std::string("false (out of range)");
      };
      return Mismatch(absl::StrCat("GetNth(", n, ")"), "",
                      describe(found, key_, value_),
                      expected ? describe(true, it->first, it->second)
                               : describe(false, "", ""));
    }
    return absl::OkStatus();
  }

  absl::Status CheckDeleteNthThenGet() {
    if (oracle_.empty()) return absl::OkStatus();
    const uint64_t n = Below(rng_, oracle_.size());
    const std::string key = oracle_.find_by_order(n)->first;
    if (!store_.DeleteNth(n)) {
      return Mismatch(absl::StrCat("DeleteNth(", n, ")"), key, "false",
                      "true (deleted)");
    }
    oracle_.erase(key);
    return CheckGetAfter(absl::StrCat("DeleteNth(", n, ")"), key, nullptr);
  }

  kvlab::KVStore& store_;
  Oracle& oracle_;
  Rng rng_;
  const bool ordered_;
  uint64_t step_ = 0;
  std::string key_, value_;  // reused answers
};

// What one timed thread did.
struct ThreadTally {
  uint64_t operations = 0;
  uint64_t checksum = 0;       // consumed answers
  Clock::time_point finish{};  // when its last operation returned
};

// The body of one timed thread: runs the mix until `stop` is set or it has
// done `limit` operations, then counts itself in `finished`.
void TimedThread(kvlab::KVStore& store, uint64_t seed, uint64_t limit,
                 bool ordered, const std::atomic<bool>& go,
                 const std::atomic<bool>& stop, std::atomic<int>& finished,
                 ThreadTally* tally) {
  Rng rng(seed);
  // Values come from a pool drawn before the clock starts, so the phase
  // times the store rather than the generator; keys are fresh every time.
  std::vector<std::string> values(256);
  for (std::string& value : values) value = RandomCourseValue(rng);
  std::string key, value;
  // The unordered mix's keys put and not yet deleted by this thread, newest
  // last; capped, so that a store that takes puts far faster than deletes
  // does not grow this list without bound.
  std::vector<std::string> mine;
  constexpr size_t kMaxMine = 1 << 16;
  uint64_t ops = 0, sum = 0;  // plain locals: no sharing while running
  while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
  while (!ordered && ops != limit && !stop.load(std::memory_order_relaxed)) {
    switch (Below(rng, 3)) {
      case 0:
        sum += store.Get(RandomCourseKey(rng), &value);
        break;
      case 1: {
        key = RandomCourseKey(rng);
        absl::StatusOr<bool> replaced =
            store.Put(key, values[Below(rng, values.size())]);
        sum += replaced.ok() && *replaced;
        if (replaced.ok() && mine.size() < kMaxMine) {
          mine.push_back(std::move(key));
        }
        break;
      }
      default:
        if (mine.empty()) {
          sum += store.Delete(RandomCourseKey(rng));
        } else {
          sum += store.Delete(mine.back());
          mine.pop_back();
        }
        break;
    }
    ++ops;
  }
  while (ordered && ops != limit && !stop.load(std::memory_order_relaxed)) {
    switch (Below(rng, 5)) {
      case 0:
        sum += store.Get(RandomCourseKey(rng), &value);
        break;
      case 1: {
        absl::StatusOr<bool> replaced =
            store.Put(RandomCourseKey(rng), values[Below(rng, values.size())]);
        sum += replaced.ok() && *replaced;
        break;
      }
      case 2:
        if (store.GetNth(Below(rng, store.Size()), &key, nullptr)) {
          sum += store.Delete(key);  // another thread may have won the race
        }
        break;
      case 3:
        sum += store.GetNth(Below(rng, store.Size()), &key, &value);
        break;
      default:
        sum += store.DeleteNth(Below(rng, store.Size()));
        break;
    }
    ++ops;
  }
  tally->finish = Clock::now();
  tally->operations = ops;
  tally->checksum = sum;
  finished.fetch_add(1, std::memory_order_release);
}

}  // namespace

Oracle BuildOracle(const DataSet& data) {
  Oracle oracle;
  for (uint64_t i = 0; i < data.size(); ++i) {
    oracle.insert({std::string(data.key(i)), std::string(data.value(i))});
  }
  return oracle;
}

absl::StatusOr<CheckedCourseResult> RunCheckedCourse(
    kvlab::KVStore& store, Oracle& oracle, const CheckedCourseOptions& options,
    Progress* progress) {
  if (progress != nullptr) progress->Start("course check", options.operations);
  CheckedCourseResult result;
  result.planned = options.operations;
  Checker checker(store, oracle, options.seed, options.ordered);
  if (absl::Status status = checker.CheckSize(); !status.ok()) return status;
  const Clock::time_point start = Clock::now();
  const auto cap = std::chrono::duration<double>(options.max_seconds);
  for (uint64_t i = 0; i < options.operations; ++i) {
    if (Clock::now() - start > cap) {
      result.capped = true;
      break;
    }
    if (absl::Status status = checker.Step(i); !status.ok()) return status;
    if (absl::Status status = checker.CheckSize(); !status.ok()) return status;
    ++result.checked;
    if (progress != nullptr) progress->Update(result.checked);
  }
  if (progress != nullptr) progress->Finish();
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

TimedCourseResult RunTimedCourse(kvlab::KVStore& store,
                                 const TimedCourseOptions& options,
                                 Progress* progress) {
  assert(store.IsThreadSafe());
  const int threads = options.threads;
  TimedCourseResult result;
  std::vector<ThreadTally> tallies(threads);
  std::atomic<bool> go{false}, stop{false};
  std::atomic<int> finished{0};
  const bool fixed = options.operations_per_thread > 0;
  // With no fixed count, no thread reaches the limit before the deadline.
  const uint64_t limit = fixed ? options.operations_per_thread
                               : std::numeric_limits<uint64_t>::max();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    const uint64_t seed = DeriveSeed(
        options.seed, static_cast<uint64_t>(Stream::kCourseThread) + t);
    workers.emplace_back(TimedThread, std::ref(store), seed, limit,
                         options.ordered, std::cref(go), std::cref(stop),
                         std::ref(finished), &tallies[t]);
  }
  // The clock starts when every thread exists and is released at once.
  const Clock::time_point start = Clock::now();
  const Clock::time_point deadline =
      fixed ? Clock::time_point::max()
            : start + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(options.seconds));
  go.store(true, std::memory_order_release);
  if (progress != nullptr) progress->Start("course timed", 0);
  // Sleep in slices so the progress line can move. With fixed counts the
  // threads' own finish times are what is timed, so a slice that overshoots
  // their end costs nothing but the wait.
  for (Clock::time_point now = start;
       now < deadline && finished.load(std::memory_order_acquire) < threads;
       now = Clock::now()) {
    std::this_thread::sleep_for(std::min<Clock::duration>(
        deadline - now, std::chrono::milliseconds(200)));
    if (progress != nullptr) progress->Update(0);
  }
  stop.store(true, std::memory_order_relaxed);
  for (std::thread& worker : workers) worker.join();
  if (progress != nullptr) progress->Finish();
  // Until the last thread's last operation: one in flight at the deadline
  // counts.
  Clock::time_point end = start;
  for (const ThreadTally& tally : tallies) {
    result.per_thread.push_back(tally.operations);
    result.operations += tally.operations;
    result.checksum += tally.checksum;
    end = std::max(end, tally.finish);
  }
  result.seconds = std::chrono::duration<double>(end - start).count();
  return result;
}

}  // namespace kvbench
