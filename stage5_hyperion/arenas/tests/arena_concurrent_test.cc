// Concurrent differential test of the arena store: writers on disjoint key
// sets, readers checking every answer against what the writers have
// acknowledged, for the promises of kvlab/stage5/arena_store.h.
//
// Each key has a history of operations numbered 1, 2, 3, ... by its one
// writer: operation q deletes the key if q is a multiple of 3 and otherwise
// puts the value "<key>|<q>|" plus padding (long enough, now and then, to be
// stored outside its node). After operation q returns, the writer publishes
// q as the key's acknowledged number. A reader that reads acknowledged
// number a0 before its call and a1 after it may see any state from a0 up to
// a1 + 1 (the operation in flight): a value "<key>|<q>|..." with
// a0 <= q <= a1 + 1 and q not a multiple of 3, or absence if some state in
// that range is absent (0: never written, or a delete). Anything else - a
// torn or misrouted value, a number out of range - is a failure, as are a
// Scan out of order or repeating a key, and a full Scan that misses a key
// present throughout it. After the threads join, the content, the
// invariants (per arena) and every GetNth are checked exactly.
//
// Run it under ThreadSanitizer too (make tsan build): a missing lock shows
// there as a race even where the answers happen to come out right.

#include <atomic>
#include <cctype>
#include <charconv>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/stores.h"
#include "kvlab/string_view_compat.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"
#include "kvlab/testing/thread_errors.h"

namespace kvlab::stage5 {
namespace {

using testing::Failures;
using testing::Oracle;
using testing::Scaled;

constexpr int kWriters = 3;
constexpr int kReaders = 2;

bool IsDelete(uint64_t q) { return q % 3 == 0; }

std::string ValueOf(std::string_view key, uint64_t q) {
  std::string v = absl::StrCat(ToAbsl(key), "|", q, "|");
  // Every seventh value is too long to be inline (inline_value: 255).
  v.append(q % 7 == 0 ? 300 : q % 23, '.');
  return v;
}

// The operation number of a value of `key`, or 0 if the value is not one
// ValueOf made for `key` (torn, or another key's).
uint64_t NumberOf(std::string_view key, std::string_view value) {
  if (value.size() <= key.size() + 1 || value.substr(0, key.size()) != key ||
      value[key.size()] != '|') {
    return 0;
  }
  const std::string_view rest = value.substr(key.size() + 1);
  uint64_t q = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.end(), q);
  if (error != std::errc() || end == rest.end() || *end != '|') return 0;
  return ValueOf(key, q) == value ? q : 0;
}

// Keys of every first byte (and the empty key), sharing prefixes within a
// first byte so that the tries below them change shape; or, `skewed`, all
// starting with the same 12 bytes as urls do (then a balanced store
// repartitions as the writers fill it).
std::vector<std::string> MakeKeys(size_t count, bool skewed) {
  std::mt19937_64 rng(7);
  std::vector<std::string> keys{""};
  std::set<std::string> seen{""};
  while (keys.size() < count) {
    std::string key(1, char(keys.size() % 256));
    if (skewed) key = "http://www." + key;
    key.append(rng() % 10, 'a');
    for (size_t i = skewed ? 12 : 1; i < key.size(); ++i) {
      key[i] = char('a' + rng() % 3);
    }
    if (seen.insert(key).second) keys.push_back(key);
  }
  return keys;
}

class ArenaConcurrentTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    StoreRegistry registry;
    RegisterStage5Stores(&registry);
    absl::StatusOr<std::unique_ptr<KVStore>> made = registry.Make(GetParam());
    ASSERT_TRUE(made.ok()) << made.status();
    store_ = *std::move(made);
    ASSERT_TRUE(store_->IsThreadSafe());
    balanced_ = GetParam().find("partition=balanced") != std::string::npos;
    keys_ = MakeKeys(Scaled(3000, 300), balanced_);
    index_.clear();
    for (size_t i = 0; i < keys_.size(); ++i) index_[keys_[i]] = i;
    acked_ = std::vector<std::atomic<uint64_t>>(keys_.size());
  }

  uint64_t Acked(size_t i) const {
    return acked_[i].load(std::memory_order_acquire);
  }

  // Whether a reader that saw acknowledged numbers a0 and a1 around its
  // call may see `value` (nullptr: absent) for key i.
  static bool Allowed(uint64_t a0, uint64_t a1, std::string_view key,
                      const std::string_view* value) {
    if (value == nullptr) {
      for (uint64_t q = a0; q <= a1 + 1; ++q) {
        if (q == 0 || IsDelete(q)) return true;
      }
      return false;
    }
    const uint64_t q = NumberOf(key, *value);
    return q != 0 && !IsDelete(q) && a0 <= q && q <= a1 + 1;
  }

  void Writer(int w, uint64_t ops, Failures* failures) {
    std::mt19937_64 rng(100 + w);
    std::vector<size_t> mine;
    for (size_t i = w; i < keys_.size(); i += kWriters) mine.push_back(i);
    for (uint64_t n = 0; n < ops && failures->count.load() == 0; ++n) {
      const size_t i = mine[rng() % mine.size()];
      const std::string& key = keys_[i];
      const uint64_t before = Acked(i);
      const bool present = before != 0 && !IsDelete(before);
      const uint64_t q = before + 1;
      if (IsDelete(q)) {
        if (store_->Delete(key) != present) {
          failures->Add(absl::StrCat("delete of ", key, " #", q));
        }
      } else {
        absl::StatusOr<bool> replaced = store_->Put(key, ValueOf(key, q));
        if (!replaced.ok() || *replaced != present) {
          failures->Add(absl::StrCat("put of ", key, " #", q));
        }
      }
      acked_[i].store(q, std::memory_order_release);
    }
  }

  void Reader(int r, const std::atomic<bool>* done, Failures* failures) {
    std::mt19937_64 rng(200 + r);
    std::vector<uint64_t> before(keys_.size());
    while (!done->load() && failures->count.load() == 0) {
      const int op = int(rng() % 16);
      if (op < 10) {  // Get
        const size_t i = rng() % keys_.size();
        const uint64_t a0 = Acked(i);
        std::string got;
        const bool found = store_->Get(keys_[i], &got);
        const std::string_view view(got);
        if (!Allowed(a0, Acked(i), keys_[i], found ? &view : nullptr)) {
          failures->Add(absl::StrCat("Get(", keys_[i], ") = ",
                                     found ? got : "absent", " after #", a0));
        }
      } else if (op < 14) {  // GetNth: some pair stored during the call
        for (size_t i = 0; i < keys_.size(); ++i) before[i] = Acked(i);
        const uint64_t size = store_->Size();
        std::string key, value;
        if (size == 0 || !store_->GetNth(rng() % size, &key, &value)) continue;
        const auto it = index_.find(key);
        const std::string_view view(value);
        if (it == index_.end() ||
            !Allowed(before[it->second], Acked(it->second), key, &view)) {
          failures->Add(absl::StrCat("GetNth gave ", key, " = ", value));
        }
      } else {  // Scan, part or whole
        for (size_t i = 0; i < keys_.size(); ++i) before[i] = Acked(i);
        const bool whole = op == 15;
        const size_t from = whole ? 0 : rng() % keys_.size();
        int budget = whole ? -1 : int(rng() % 200);
        std::vector<bool> visited(keys_.size());
        std::string previous;
        bool first = true;
        store_->Scan(keys_[from], [&](std::string_view k, std::string_view v) {
          const auto it = index_.find(std::string(k));
          if (it == index_.end() || (!first && k <= previous) ||
              !Allowed(before[it->second], Acked(it->second), k, &v)) {
            failures->Add(absl::StrCat("Scan gave ", ToAbsl(k), " = ",
                                       ToAbsl(v), " after ", previous));
            return false;
          }
          visited[it->second] = true;
          first = false;
          previous.assign(k);
          return --budget != 0;
        });
        if (!whole) continue;
        // Present before and after, with no delete in between or in
        // flight: present throughout the scan.
        for (size_t i = 0; i < keys_.size(); ++i) {
          const uint64_t a = before[i];
          if (!visited[i] && a != 0 && !IsDelete(a) && Acked(i) == a &&
              !IsDelete(a + 1)) {
            failures->Add(absl::StrCat("Scan missed ", keys_[i], " #", a));
          }
        }
      }
    }
  }

  std::unique_ptr<KVStore> store_;
  bool balanced_ = false;
  std::vector<std::string> keys_;
  std::map<std::string, size_t> index_;
  std::vector<std::atomic<uint64_t>> acked_;
};

TEST_P(ArenaConcurrentTest, ReadersSeeOnlyAcknowledgedStates) {
  const uint64_t ops = Scaled(15'000, 500);
  Failures failures;
  std::atomic<bool> done{false};
  testing::ThreadErrors thread_errors;
  std::vector<std::thread> writers, readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back(
        [&, r] { thread_errors.Run([&] { Reader(r, &done, &failures); }); });
  }
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back(
        [&, w] { thread_errors.Run([&] { Writer(w, ops, &failures); }); });
  }
  for (std::thread& t : writers) t.join();
  done = true;
  for (std::thread& t : readers) t.join();
  ASSERT_EQ(thread_errors.first(), "") << "a thread threw";
  ASSERT_EQ(failures.count.load(), 0) << failures.first;
  if (balanced_) {
    // The readers ran across repartitions: the store grew from empty while
    // they read.
    EXPECT_GE(dynamic_cast<const HyperionArenaStore&>(*store_).repartitions(),
              3u);
  }

  // Quiescent: exact.
  Oracle want;
  for (size_t i = 0; i < keys_.size(); ++i) {
    const uint64_t q = Acked(i);
    if (q != 0 && !IsDelete(q)) want[keys_[i]] = ValueOf(keys_[i], q);
  }
  EXPECT_EQ(store_->CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(store_->Size(), want.size());
  EXPECT_EQ(testing::Contents(*store_), want);
  uint64_t n = 0;
  for (const auto& [k, v] : want) {
    std::string key, value;
    ASSERT_TRUE(store_->GetNth(n++, &key, &value));
    ASSERT_EQ(key, k);
    ASSERT_EQ(value, v);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Arenas, ArenaConcurrentTest,
    ::testing::Values(
        "hyperion:arenas=1", "hyperion:arenas=2", "hyperion:arenas=3:lock=rw",
        "hyperion:arenas=3:lock=mutex",
        "hyperion:arenas=16:lock=rw:embed=16:split_above=64",
        "hyperion:arenas=256", "hyperion:arenas=256:lock=rw",
        "hyperion:arenas=2:partition=balanced",
        "hyperion:arenas=16:partition=balanced:lock=rw",
        "hyperion:arenas=3:partition=balanced:lock=mutex:"
        "embed=16:split_above=64",
        "hyperion:arenas=1:lock=leftright", "hyperion:arenas=2:lock=leftright",
        "hyperion:arenas=3:lock=leftright",
        "hyperion:arenas=16:lock=leftright:embed=16:split_above=64",
        "hyperion:arenas=256:lock=leftright",
        // Pre-processing composed with each way of sharing: every arena
        // stores images, and every answer must still be the caller's key.
        "hyperion:arenas=3:preprocess=1",
        "hyperion:arenas=4:partition=balanced:preprocess=1",
        "hyperion:arenas=2:lock=leftright:preprocess=1"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (!isalnum(uint8_t(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace kvlab::stage5
