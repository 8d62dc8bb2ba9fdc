// The Judy peers' two value modes (word_values.h): 8-byte values inline in
// the Judy word, blob mode after the first value of another length, and
// back to inline once the store is empty. The all-zero value (the word 0,
// which also marks a new key's slot) is the case to get right.

#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "judy_store.h"
#include "judyl_store.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::peers {
namespace {

const std::string kZero(8, '\0');

// One of the two stores, with the hooks the tests need beyond KVStore.
struct Subject {
  std::string name;
  std::function<std::unique_ptr<KVStore>()> make;
  std::function<bool(const KVStore&)> inline_values;
};

void PrintTo(const Subject& subject, std::ostream* os) { *os << subject.name; }

template <typename Store>
Subject SubjectOf(std::string name) {
  return Subject{std::move(name), [] { return std::make_unique<Store>(); },
                 [](const KVStore& s) {
                   return static_cast<const Store&>(s).InlineValues();
                 }};
}

std::vector<Subject> Subjects() {
  return {SubjectOf<JudyStore>("judy"), SubjectOf<JudyLStore>("judyl")};
}

class InlineValuesTest : public ::testing::TestWithParam<Subject> {
 protected:
  std::unique_ptr<KVStore> store_ = GetParam().make();
  bool Inline() const { return GetParam().inline_values(*store_); }
  std::string Get(std::string_view key) {
    std::string value = "absent";
    store_->Get(key, &value);
    return value;
  }
  std::map<std::string, std::string> All() {
    std::map<std::string, std::string> all;
    store_->Scan("", [&](std::string_view k, std::string_view v) {
      all.emplace(k, v);
      return true;
    });
    return all;
  }
};

// 8-byte keys (judyl's JudyL side), with NUL bytes, and keys of other
// lengths (its JudySL side).
const std::string kA("\0\0\0\0\0\0\0\1", 8);
const std::string kB = "bbbbbbbb";
const std::string kShort = "k";
const std::string kEmpty;

TEST_P(InlineValuesTest, AllZeroValueIsStoredReplacedAndDeleted) {
  for (const std::string& key : {kA, kB, kShort, kEmpty}) {
    ASSERT_EQ(*store_->Put(key, kZero), false) << "new key";
  }
  EXPECT_TRUE(Inline());
  EXPECT_EQ(store_->Size(), 4u);
  for (const std::string& key : {kA, kB, kShort, kEmpty}) {
    EXPECT_EQ(Get(key), kZero);
    // A zero slot must not look like a new key.
    EXPECT_EQ(*store_->Put(key, kZero), true) << "replaces";
  }
  EXPECT_EQ(store_->Size(), 4u);
  EXPECT_EQ(*store_->Put(kA, "abcdefgh"), true);
  EXPECT_EQ(*store_->Put(kB, "\x01zzzzzzz"), true);
  EXPECT_EQ(*store_->Put(kB, kZero), true);
  EXPECT_EQ(store_->Size(), 4u);
  // Key order: "", kA, "bbbbbbbb", "k".
  std::string key, value;
  ASSERT_TRUE(store_->GetNth(0, &key, &value));
  EXPECT_EQ(key, kEmpty);
  EXPECT_EQ(value, kZero);
  ASSERT_TRUE(store_->GetNth(1, &key, &value));
  EXPECT_EQ(key, kA);
  EXPECT_EQ(value, "abcdefgh");
  ASSERT_TRUE(store_->GetNth(2, &key, &value));
  EXPECT_EQ(key, kB);
  EXPECT_EQ(value, kZero);
  EXPECT_FALSE(store_->GetNth(4, &key, &value));
  EXPECT_EQ(
      All(),
      (std::map<std::string, std::string>{
          {kEmpty, kZero}, {kA, "abcdefgh"}, {kB, kZero}, {kShort, kZero}}));
  EXPECT_TRUE(store_->Delete(kB));
  EXPECT_FALSE(store_->Delete(kB));
  EXPECT_FALSE(store_->Get(kB, nullptr));
  EXPECT_EQ(store_->Size(), 3u);
  ASSERT_TRUE(store_->DeleteNth(0));  // "" and its zero word
  EXPECT_FALSE(store_->Get(kEmpty, nullptr));
  EXPECT_EQ(*store_->Put(kB, kZero), false) << "new again";
  EXPECT_EQ(store_->Size(), 3u);
  EXPECT_TRUE(Inline());
}

TEST_P(InlineValuesTest, SwitchToBlobsKeepsZeroWordsAndEmptyingSwitchesBack) {
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE(round);
    ASSERT_TRUE(Inline());
    ASSERT_EQ(*store_->Put(kA, kZero), false);
    ASSERT_EQ(*store_->Put(kShort, kZero), false);
    ASSERT_EQ(*store_->Put(kB, "12345678"), false);
    // The first value of another length converts every word, zeros too.
    ASSERT_EQ(*store_->Put("other", "not 8"), false);
    EXPECT_FALSE(Inline());
    EXPECT_EQ(store_->Size(), 4u);
    EXPECT_EQ(All(), (std::map<std::string, std::string>{{kA, kZero},
                                                         {kB, "12345678"},
                                                         {kShort, kZero},
                                                         {"other", "not 8"}}));
    // Blob mode: 8-byte values, zeros included, stay blobs.
    EXPECT_EQ(*store_->Put(kA, kZero), true);
    EXPECT_EQ(*store_->Put(kEmpty, kZero), false);
    EXPECT_EQ(*store_->Put(kB, ""), true);
    EXPECT_FALSE(Inline());
    EXPECT_EQ(store_->Size(), 5u);
    EXPECT_EQ(Get(kB), "");
    EXPECT_EQ(Get(kEmpty), kZero);
    // Emptying, by both kinds of delete, returns to inline mode.
    ASSERT_TRUE(store_->Delete(kA));
    ASSERT_TRUE(store_->DeleteNth(2));
    ASSERT_TRUE(store_->Delete("other"));
    ASSERT_TRUE(store_->DeleteNth(0));
    EXPECT_FALSE(Inline());
    ASSERT_TRUE(store_->DeleteNth(0));
    EXPECT_EQ(store_->Size(), 0u);
    EXPECT_TRUE(Inline());
  }
  // A switch on a replace, and on an empty store.
  ASSERT_EQ(*store_->Put(kA, kZero), false);
  ASSERT_EQ(*store_->Put(kA, "seven.."), true);
  EXPECT_FALSE(Inline());
  EXPECT_EQ(Get(kA), "seven..");
  ASSERT_TRUE(store_->Delete(kA));
  EXPECT_TRUE(Inline());
  ASSERT_EQ(*store_->Put(kA, ""), false);
  EXPECT_FALSE(Inline());
  EXPECT_EQ(Get(kA), "");
}

// Random operations against a std::map model, in rounds: each round fills
// the store with 8-byte values (a third of them all zeros), in every other
// round mixes in values of other lengths, and ends by deleting every key.
// After each operation: Size(), the expected mode, and every answer; every
// 64 operations the whole content by Scan.
TEST_P(InlineValuesTest, DifferentialAgainstStdMap) {
  const bool judyl = GetParam().name == "judyl";
  for (uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    std::mt19937_64 rng(seed);
    auto below = [&](uint64_t n) { return rng() % n; };
    auto random_bytes = [&](size_t length) {
      static constexpr char kBytes[] = {'\0',   '\x01', '\x02', 'a',
                                        '\x7f', '\x80', '\xff'};
      std::string s(length, '\0');
      for (char& c : s) c = kBytes[below(sizeof(kBytes))];
      return s;
    };
    std::vector<std::string> pool;
    for (int i = 0; i < 300; ++i) {
      pool.push_back(random_bytes(below(10) < 7 ? 8 : below(13)));
    }
    auto key = [&] { return pool[below(pool.size())]; };

    store_ = GetParam().make();
    const std::optional<size_t> empty_usage = store_->MemoryUsage();
    std::map<std::string, std::string> model;
    bool expect_inline = true;
    auto check = [&](const std::string& what) {
      ASSERT_EQ(store_->Size(), model.size()) << what;
      if (model.empty()) expect_inline = true;
      ASSERT_EQ(Inline(), expect_inline) << what;
      if (judyl && model.empty()) {
        // Nothing left: no blob bytes may remain counted.
        ASSERT_EQ(store_->MemoryUsage(), empty_usage) << what;
      }
    };
    const uint64_t rounds = testing::Scaled(12, 2);
    const uint64_t operations = testing::Scaled(1500, 100);
    for (uint64_t round = 0; round < rounds; ++round) {
      const bool mixed = round % 2 == 1;
      for (uint64_t i = 0; i < operations; ++i) {
        const uint64_t op = below(100);
        std::string k = key();
        std::string what = std::to_string(round) + "/" + std::to_string(i);
        if (op < 45) {
          std::string v = below(3) == 0 ? kZero : random_bytes(8);
          if (mixed && below(20) == 0) v = random_bytes(below(16));
          if (v.size() != 8) expect_inline = false;
          const bool had = model.count(k) > 0;
          model[k] = v;
          ASSERT_EQ(*store_->Put(k, v), had) << what << " put";
        } else if (op < 60) {
          ASSERT_EQ(store_->Delete(k), model.erase(k) > 0) << what << " del";
        } else if (op < 75) {
          std::string got;
          auto it = model.find(k);
          ASSERT_EQ(store_->Get(k, &got), it != model.end()) << what;
          if (it != model.end()) {
            ASSERT_EQ(got, it->second) << what << " get";
          }
        } else if (op < 85) {
          const uint64_t n = below(model.size() + 2);
          std::string got_key, got_value;
          ASSERT_EQ(store_->GetNth(n, &got_key, &got_value), n < model.size());
          if (n < model.size()) {
            auto it = std::next(model.begin(), n);
            ASSERT_EQ(got_key, it->first) << what << " nth";
            ASSERT_EQ(got_value, it->second) << what << " nth";
          }
        } else if (op < 90) {
          const uint64_t n = below(model.size() + 1);
          ASSERT_EQ(store_->DeleteNth(n), n < model.size()) << what;
          if (n < model.size()) model.erase(std::next(model.begin(), n));
        } else {
          auto it = model.lower_bound(k);
          const uint64_t limit = 1 + below(20);
          uint64_t seen = 0;
          store_->Scan(k, [&](std::string_view sk, std::string_view sv) {
            EXPECT_TRUE(it != model.end());
            if (it == model.end()) return false;
            EXPECT_EQ(sk, it->first) << what << " scan";
            EXPECT_EQ(sv, it->second) << what << " scan";
            ++it;
            return ++seen < limit;
          });
        }
        check(what);
        if (i % 64 == 0) {
          ASSERT_EQ(All(), model) << what;
        }
      }
      ASSERT_EQ(All(), model);
      // Delete everything, alternating the two kinds of delete.
      while (!model.empty()) {
        if (model.size() % 2 == 0) {
          const uint64_t n = below(model.size());
          ASSERT_TRUE(store_->DeleteNth(n));
          model.erase(std::next(model.begin(), n));
        } else {
          ASSERT_TRUE(store_->Delete(model.begin()->first));
          model.erase(model.begin());
        }
        check("drain");
      }
      ASSERT_TRUE(Inline());
    }
  }
}

// The point of inline mode: judyl's MemoryUsage is JudyL's own figure,
// with no blob per value, until a value of another length arrives.
TEST(JudyLInlineMemoryTest, BlobBytesOnlyInBlobMode) {
  JudyLStore store;
  const size_t empty = *store.MemoryUsage();
  constexpr uint64_t kKeys = 1000;
  auto key = [](uint64_t i) {
    std::string k(8, '\0');
    for (int b = 7; b >= 0; --b, i >>= 8) k[b] = static_cast<char>(i);
    return k;
  };
  for (uint64_t i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(store.Put(key(i), i % 2 == 0 ? kZero : "8 bytes!").ok());
  }
  // Dense keys: JudyL holds each value word in a leaf, 8 bytes and a little
  // index; a blob per value (at least 24 bytes) would not fit.
  const size_t inline_usage = *store.MemoryUsage();
  EXPECT_GE(inline_usage, empty + kKeys * 8);
  EXPECT_LT(inline_usage, empty + kKeys * 16);
  ASSERT_TRUE(store.Put(key(kKeys), "x").ok());
  EXPECT_FALSE(store.InlineValues());
  EXPECT_GE(*store.MemoryUsage(), inline_usage + (kKeys + 1) * 12);
  std::string value;
  ASSERT_TRUE(store.Get(key(0), &value));
  EXPECT_EQ(value, kZero);
  for (uint64_t i = 0; i <= kKeys; ++i) ASSERT_TRUE(store.Delete(key(i)));
  EXPECT_TRUE(store.InlineValues());
  EXPECT_EQ(*store.MemoryUsage(), empty);
}

INSTANTIATE_TEST_SUITE_P(JudyPeers, InlineValuesTest,
                         ::testing::ValuesIn(Subjects()),
                         [](const ::testing::TestParamInfo<Subject>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace kvlab::peers
