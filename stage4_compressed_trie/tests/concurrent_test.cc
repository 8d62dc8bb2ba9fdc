// Concurrent differential test: several threads run mixed operations on
// keys of their own (disjoint) and on shared keys (overlapping); at the
// quiescent point after each round the content, the invariants and GetNth
// are checked against a sorted copy. During the rounds every answer is
// checked for self-consistency: each stored value starts with its own key
// and '|', so a torn or misrouted read shows.
//
// Run it under ThreadSanitizer (build with -DKVLAB_SANITIZE=thread) to check
// the locking designs for data races.

#include <atomic>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/stores.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"
#include "kvlab/testing/thread_errors.h"

namespace kvlab {
namespace {

using testing::Contents;
using testing::Failures;
using testing::Oracle;
using testing::Scaled;

constexpr int kThreads = 4;

// Keys from a small alphabet so that threads' keys share prefixes and the
// trie keeps splitting and merging in the same subtrees.
std::string RandomTail(std::mt19937_64& rng, size_t max_length) {
  std::string s(rng() % (max_length + 1), 'a');
  for (char& c : s) c = static_cast<char>('a' + rng() % 4);
  return s;
}

std::string ValueFor(std::string_view key, int thread, uint64_t i,
                     std::mt19937_64& rng) {
  std::string v(key);
  v += '|';
  v += std::to_string(thread) + "." + std::to_string(i);
  v.append(rng() % 40, 'x');  // vary node sizes
  return v;
}

bool SelfConsistent(std::string_view key, std::string_view value) {
  return value.size() > key.size() && value.substr(0, key.size()) == key &&
         value[key.size()] == '|';
}

class CTrieConcurrentTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    StoreRegistry registry;
    RegisterStage4Stores(&registry);
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(GetParam());
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = std::move(*store);
    ASSERT_TRUE(store_->IsThreadSafe());
  }

  // One thread's round. Own keys ("d<t>...") only this thread changes, so
  // their answers are exact, unless `delete_nth`: then any thread's
  // DeleteNth may remove them and only consistency is checked. Shared keys
  // ("s...") are raced on purpose.
  void Worker(int t, uint64_t seed, uint64_t ops, bool delete_nth, Oracle* own,
              Failures* failures) {
    std::mt19937_64 rng(seed);
    KVStore& store = *store_;
    const std::string own_prefix = "d" + std::to_string(t);
    for (uint64_t i = 0; i < ops && failures->count.load() == 0; ++i) {
      const int op = static_cast<int>(rng() % (delete_nth ? 10 : 9));
      std::string got;
      if (op <= 2) {  // own keys: put, delete, get, checked exactly
        const std::string key = own_prefix + RandomTail(rng, 6);
        if (op == 0) {
          const std::string value = ValueFor(key, t, i, rng);
          absl::StatusOr<bool> replaced = store.Put(key, value);
          if (!replaced.ok() ||
              (!delete_nth && *replaced != (own->count(key) == 1))) {
            failures->Add("own put of " + key);
          }
          (*own)[key] = value;
        } else if (op == 1) {
          if (store.Delete(key) != (own->erase(key) == 1) && !delete_nth) {
            failures->Add("own delete of " + key);
          }
        } else {
          auto it = own->find(key);
          const bool found = store.Get(key, &got);
          const bool exact =
              found == (it != own->end()) && (!found || got == it->second);
          if (found ? !SelfConsistent(key, got) : false) {
            failures->Add("own get of " + key + " returned " + got);
          } else if (!exact && !delete_nth) {
            failures->Add("own get of " + key);
          }
        }
      } else if (op <= 5) {  // shared keys: raced, checked for consistency
        const std::string key = "s" + RandomTail(rng, 5);
        if (op == 3) {
          if (!store.Put(key, ValueFor(key, t, i, rng)).ok()) {
            failures->Add("shared put");
          }
        } else if (op == 4) {
          store.Delete(key);
        } else if (store.Get(key, &got) && !SelfConsistent(key, got)) {
          failures->Add("shared get of " + key + " returned " + got);
        }
      } else if (op <= 7) {  // GetNth at a racy index
        const uint64_t size = store.Size();
        std::string key;
        if (size > 0 && store.GetNth(rng() % size, &key, &got) &&
            !SelfConsistent(key, got)) {
          failures->Add("GetNth returned " + key + " = " + got);
        }
      } else if (op == 8) {  // a short scan: ascending and consistent
        std::string previous;
        bool first = true;
        int budget = static_cast<int>(rng() % 20);
        store.Scan(
            RandomTail(rng, 3), [&](std::string_view k, std::string_view v) {
              if ((!first && k <= previous) || !SelfConsistent(k, v)) {
                failures->Add("scan out of order or torn at " + std::string(k));
              }
              first = false;
              previous.assign(k);
              return --budget > 0;
            });
      } else {  // DeleteNth: may hit another thread's key
        const uint64_t size = store.Size();
        if (size > 0) store.DeleteNth(rng() % size);
      }
    }
  }

  // Quiescent check: invariants, exact own keys, and GetNth == sorted copy.
  void CheckQuiescent(const std::vector<Oracle>& own, bool exact_own) {
    const auto& ctrie = static_cast<const CTrieStore&>(*store_);
    absl::Status status = ctrie.CheckInvariants();
    ASSERT_TRUE(status.ok()) << status;
    const Oracle content = Contents(*store_);
    ASSERT_EQ(content.size(), store_->Size());
    Oracle own_in_store;
    for (const auto& [key, value] : content) {
      ASSERT_TRUE(SelfConsistent(key, value)) << key << " = " << value;
      if (key[0] == 'd') own_in_store.emplace(key, value);
    }
    if (exact_own) {
      Oracle expected;
      for (const Oracle& o : own) expected.insert(o.begin(), o.end());
      ASSERT_EQ(own_in_store, expected);
    }
    uint64_t n = 0;
    for (const auto& [key, value] : content) {
      std::string k, v;
      ASSERT_TRUE(store_->GetNth(n, &k, &v)) << n;
      ASSERT_EQ(k, key) << n;
      ASSERT_EQ(v, value) << n;
      ++n;
    }
    EXPECT_FALSE(store_->GetNth(n, nullptr, nullptr));
  }

  void RunRounds(bool delete_nth) {
    const uint64_t rounds = Scaled(4, 2);
    const uint64_t ops = Scaled(4'000, 300);
    std::vector<Oracle> own(kThreads);
    for (uint64_t round = 0; round < rounds; ++round) {
      Failures failures;
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back(&CTrieConcurrentTest::Worker, this, t,
                             round * 100 + t + (delete_nth ? 7 : 0), ops,
                             delete_nth, &own[t], &failures);
      }
      for (std::thread& thread : threads) thread.join();
      ASSERT_EQ(failures.count.load(), 0) << failures.first;
      CheckQuiescent(own, !delete_nth);
      if (delete_nth) {
        // DeleteNth may have removed own keys: resync the oracles.
        for (Oracle& o : own) {
          for (auto it = o.begin(); it != o.end();) {
            it = store_->Get(it->first, nullptr) ? std::next(it) : o.erase(it);
          }
        }
      }
    }
  }

  std::unique_ptr<KVStore> store_;
};

TEST_P(CTrieConcurrentTest, DisjointAndSharedKeys) { RunRounds(false); }

TEST_P(CTrieConcurrentTest, WithDeleteNth) { RunRounds(true); }

INSTANTIATE_TEST_SUITE_P(Locking, CTrieConcurrentTest,
                         ::testing::Values("ctrie:lock=rcu",
                                           "ctrie:lock=global",
                                           "ctrie:lock=node",
                                           "ctrie:lock=rcu:compress=suffix",
                                           "ctrie:lock=node:compress=suffix",
                                           "ctrie:lock=rcu:alloc=malloc"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == ':' || c == '=') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace kvlab
