// The conformance suite: the contract of kv_store.h, checked for every
// store. Stages instantiate it (see conformance.h).

#include "kvlab/testing/conformance.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "kvlab/locked_store.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"
#include "kvlab/testing/thread_errors.h"

namespace kvlab::testing {

namespace {

// OK if `spec` names a registered store and only options it takes. Values
// are checked when each test builds the store: building one here would run
// at every test process's start, and some stores (a durable one writes its
// log files) are not free to build.
absl::Status CheckSpec(const StoreRegistry& registry, const std::string& spec) {
  absl::StatusOr<StoreSpec> parsed = ParseStoreSpec(spec);
  if (!parsed.ok()) return parsed.status();
  const StoreInfo* info = registry.Find(parsed->name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "no store '", parsed->name, "' (known: ", registry.NameList(), ")"));
  }
  for (const std::string& key : parsed->options.Keys()) {
    if (std::none_of(info->options.begin(), info->options.end(),
                     [&](const OptionInfo& o) { return o.name == key; })) {
      return absl::InvalidArgumentError(
          absl::StrCat(parsed->name, " has no option '", key, "'"));
    }
  }
  return absl::OkStatus();
}

// The store `spec` builds; a spec that passed CheckSpec but whose values
// are refused ends the test process with the reason. A store of a course
// handout whose constructor reaches a stub (kvlab/not_implemented.h)
// throws NotImplementedError out of here: the test then fails by itself,
// naming the function still to write.
std::unique_ptr<KVStore> BuildOrDie(const StoreRegistry& registry,
                                    const std::string& spec) {
  absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(spec);
  if (!store.ok()) {
    std::cerr << "conformance: cannot build '" << spec
              << "': " << store.status() << "\n";
    std::abort();
  }
  return *std::move(store);
}

}  // namespace

std::vector<ConformanceCase> ConformanceCases(
    void (*register_stores)(StoreRegistry*),
    const std::vector<std::string>& specs) {
  auto registry = std::make_shared<StoreRegistry>();
  register_stores(registry.get());
  std::vector<ConformanceCase> cases;
  for (const std::string& spec : specs) {
    if (absl::Status status = CheckSpec(*registry, spec); !status.ok()) {
      std::cerr << "conformance: cannot build '" << spec << "': " << status
                << "\n";
      std::abort();
    }
    const StoreInfo* info = registry->Find(ParseStoreSpec(spec)->name);
    cases.push_back({spec,
                     [registry, spec] { return BuildOrDie(*registry, spec); },
                     info->ordered, info->linear_nth});
  }
  return cases;
}

std::string ConformanceCaseName(
    const ::testing::TestParamInfo<ConformanceCase>& info) {
  std::string name = info.param.spec;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

void PrintTo(const ConformanceCase& test_case, std::ostream* os) {
  *os << test_case.spec;
}

namespace {

// The first line of a test of key order: an unordered store skips it.
#define KVLAB_REQUIRE_ORDERED_STORE()                                    \
  if (!GetParam().ordered) {                                             \
    GTEST_SKIP() << GetParam().spec << " is unordered (no GetNth/Scan)"; \
  }

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

std::string Nth(const KVStore& store, uint64_t n) {
  std::string key;
  EXPECT_TRUE(store.GetNth(n, &key, nullptr)) << "GetNth " << n;
  return key;
}

std::vector<std::string> ScanKeys(const KVStore& store, std::string_view start,
                                  size_t limit = SIZE_MAX) {
  std::vector<std::string> keys;
  store.Scan(start, [&](std::string_view key, std::string_view) {
    keys.emplace_back(key);
    return keys.size() < limit;
  });
  return keys;
}

// "new", "replaced" or "error: ..." for one Put, for readable expectations.
std::string PutResult(KVStore& store, std::string_view key,
                      std::string_view value) {
  absl::StatusOr<bool> replaced = store.Put(key, value);
  if (!replaced.ok())
    return absl::StrCat("error: ", replaced.status().message());
  return *replaced ? "replaced" : "new";
}

void PutOrDie(KVStore& store, std::string_view key, std::string_view value) {
  ASSERT_TRUE(store.Put(key, value).ok()) << "Put " << key;
}

TEST_P(KVStoreConformanceTest, EmptyStore) {
  EXPECT_EQ(store_->Size(), 0u);
  EXPECT_FALSE(store_->Name().empty());
  EXPECT_FALSE(store_->Get("", nullptr));
  EXPECT_FALSE(store_->Get("a", nullptr));
  EXPECT_FALSE(store_->Delete(""));
  EXPECT_FALSE(store_->Delete("a"));
  EXPECT_FALSE(store_->GetNth(0, nullptr, nullptr));
  EXPECT_FALSE(store_->DeleteNth(0));
  EXPECT_EQ(store_->Scan("", [](auto, auto) { return true; }), 0u);
  EXPECT_EQ(Contents(*store_).size(), 0u);
}

TEST_P(KVStoreConformanceTest, SingleKey) {
  KVLAB_REQUIRE_ORDERED_STORE();
  ASSERT_EQ(PutResult(*store_, "key", "value"), "new");
  EXPECT_EQ(store_->Size(), 1u);
  std::string value;
  ASSERT_TRUE(store_->Get("key", &value));
  EXPECT_EQ(value, "value");
  EXPECT_TRUE(store_->Get("key", nullptr));
  EXPECT_FALSE(store_->Get("ke", nullptr));
  EXPECT_FALSE(store_->Get("keyy", nullptr));
  std::string key;
  ASSERT_TRUE(store_->GetNth(0, &key, &value));
  EXPECT_EQ(key, "key");
  EXPECT_EQ(value, "value");
  EXPECT_FALSE(store_->GetNth(1, &key, &value));
  EXPECT_THAT(Contents(*store_), ElementsAre(Pair("key", "value")));
}

TEST_P(KVStoreConformanceTest, OverwriteReportsReplacement) {
  EXPECT_EQ(PutResult(*store_, "k", "one"), "new");
  EXPECT_EQ(PutResult(*store_, "k", "two"), "replaced");
  EXPECT_EQ(PutResult(*store_, "k", ""), "replaced");
  EXPECT_EQ(PutResult(*store_, "k", std::string(300, 'x')), "replaced");
  EXPECT_EQ(store_->Size(), 1u);
  std::string value;
  ASSERT_TRUE(store_->Get("k", &value));
  EXPECT_EQ(value, std::string(300, 'x'));
  EXPECT_EQ(PutResult(*store_, "k", "short"), "replaced");
  ASSERT_TRUE(store_->Get("k", &value));
  EXPECT_EQ(value, "short");
}

TEST_P(KVStoreConformanceTest, DeletePresentAndAbsent) {
  KVLAB_REQUIRE_ORDERED_STORE();
  PutOrDie(*store_, "a", "1");
  PutOrDie(*store_, "b", "2");
  PutOrDie(*store_, "c", "3");
  EXPECT_FALSE(store_->Delete("bb"));
  EXPECT_FALSE(store_->Delete(""));
  EXPECT_TRUE(store_->Delete("b"));
  EXPECT_FALSE(store_->Delete("b"));
  EXPECT_EQ(store_->Size(), 2u);
  EXPECT_FALSE(store_->Get("b", nullptr));
  EXPECT_THAT(Contents(*store_), ElementsAre(Pair("a", "1"), Pair("c", "3")));
  EXPECT_TRUE(store_->Delete("a"));
  EXPECT_TRUE(store_->Delete("c"));
  EXPECT_EQ(store_->Size(), 0u);
  EXPECT_EQ(PutResult(*store_, "b", "again"), "new");  // reinsert after delete
  EXPECT_THAT(Contents(*store_), ElementsAre(Pair("b", "again")));
}

TEST_P(KVStoreConformanceTest, EmptyKeyAndEmptyValue) {
  KVLAB_REQUIRE_ORDERED_STORE();
  EXPECT_EQ(PutResult(*store_, "", "empty key"), "new");
  EXPECT_EQ(PutResult(*store_, "x", ""), "new");
  std::string value = "garbage";
  ASSERT_TRUE(store_->Get("", &value));
  EXPECT_EQ(value, "empty key");
  ASSERT_TRUE(store_->Get("x", &value));
  EXPECT_EQ(value, "");
  EXPECT_EQ(Nth(*store_, 0), "");
  EXPECT_EQ(ScanKeys(*store_, ""), (std::vector<std::string>{"", "x"}));
  EXPECT_EQ(PutResult(*store_, "", "replaced"), "replaced");
  EXPECT_TRUE(store_->Delete(""));
  EXPECT_FALSE(store_->Get("", nullptr));
  EXPECT_TRUE(store_->Get("x", nullptr));
}

TEST_P(KVStoreConformanceTest, KeysThatArePrefixesOfEachOther) {
  KVLAB_REQUIRE_ORDERED_STORE();
  std::vector<std::string> keys = {"", "a", "ab", "abc"};
  // Every insertion order, each checked against the sorted order.
  std::vector<int> order = {0, 1, 2, 3};
  do {
    store_ = GetParam().make();
    for (int i : order) PutOrDie(*store_, keys[i], "v" + keys[i]);
    ASSERT_EQ(store_->Size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(Nth(*store_, i), keys[i]);
    EXPECT_EQ(ScanKeys(*store_, ""), keys);
    EXPECT_EQ(ScanKeys(*store_, "a"),
              (std::vector<std::string>{"a", "ab", "abc"}));
    EXPECT_EQ(ScanKeys(*store_, "aa"), (std::vector<std::string>{"ab", "abc"}));
    EXPECT_EQ(ScanKeys(*store_, "abca"), std::vector<std::string>{});
    // Deleting a key that is a prefix of others leaves them intact.
    EXPECT_TRUE(store_->Delete("ab"));
    EXPECT_FALSE(store_->Get("ab", nullptr));
    std::string value;
    ASSERT_TRUE(store_->Get("abc", &value));
    EXPECT_EQ(value, "vabc");
    ASSERT_TRUE(store_->Get("a", &value));
    EXPECT_EQ(value, "va");
    EXPECT_TRUE(store_->Delete("abc"));
    EXPECT_EQ(ScanKeys(*store_, ""), (std::vector<std::string>{"", "a"}));
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST_P(KVStoreConformanceTest, EveryByteValueInKeysAndValues) {
  KVLAB_REQUIRE_ORDERED_STORE();
  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>(b));
  // Single-byte keys, inserted high to low; values hold every byte.
  for (int b = 255; b >= 0; --b) {
    std::string key(1, static_cast<char>(b));
    ASSERT_EQ(
        PutResult(*store_, key, all_bytes.substr(b) + all_bytes.substr(0, b)),
        "new");
  }
  // Keys with NUL and 0xFF inside and at the end.
  for (const std::string& key :
       {std::string("a\0b", 3), std::string("a\0", 2), std::string("a\xff", 2),
        std::string("\0\0", 2), std::string("\xff\xff", 2)}) {
    ASSERT_EQ(PutResult(*store_, key, key), "new");
  }
  ASSERT_EQ(store_->Size(), 261u);
  // Unsigned order: NUL first, 0xFF last, "a" before "a\0".
  EXPECT_EQ(Nth(*store_, 0), std::string(1, '\0'));
  EXPECT_EQ(Nth(*store_, 1), std::string("\0\0", 2));
  EXPECT_EQ(Nth(*store_, 260), std::string("\xff\xff", 2));
  std::vector<std::string> a_keys = ScanKeys(*store_, "a", 4);
  EXPECT_EQ(a_keys, (std::vector<std::string>{"a", std::string("a\0", 2),
                                              std::string("a\0b", 3),
                                              std::string("a\xff", 2)}));
  for (int b = 0; b < 256; ++b) {
    std::string value;
    ASSERT_TRUE(store_->Get(std::string(1, static_cast<char>(b)), &value));
    EXPECT_EQ(value, all_bytes.substr(b) + all_bytes.substr(0, b));
  }
  std::string value;
  ASSERT_TRUE(store_->Get(std::string("a\0b", 3), &value));
  EXPECT_EQ(value, std::string("a\0b", 3));
  // Strictly ascending by memcmp over the whole scan.
  std::vector<std::string> keys = ScanKeys(*store_, "");
  ASSERT_EQ(keys.size(), 261u);
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_TRUE(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
}

TEST_P(KVStoreConformanceTest, SizeLimitsAreEnforcedWithoutDataLoss) {
  const std::string max_key(kMaxKeySize, 'k');
  const std::string max_value(kMaxValueSize, '\xff');
  PutOrDie(*store_, "keep", "me");
  ASSERT_EQ(PutResult(*store_, max_key, max_value), "new");
  std::string value;
  ASSERT_TRUE(store_->Get(max_key, &value));
  EXPECT_EQ(value, max_value);

  absl::StatusOr<bool> too_long_key = store_->Put(max_key + "k", "v");
  EXPECT_EQ(too_long_key.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_long_key.status().message(), HasSubstr("1024"));
  absl::StatusOr<bool> too_long_value = store_->Put("keep", max_value + "x");
  EXPECT_EQ(too_long_value.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_long_value.status().message(), HasSubstr("4096"));
  absl::StatusOr<bool> too_long_both = store_->Put(max_key, max_value + "x");
  EXPECT_FALSE(too_long_both.ok());

  // Nothing changed: refused puts neither inserted nor overwrote.
  EXPECT_EQ(store_->Size(), 2u);
  ASSERT_TRUE(store_->Get("keep", &value));
  EXPECT_EQ(value, "me");
  ASSERT_TRUE(store_->Get(max_key, &value));
  EXPECT_EQ(value, max_value);
  EXPECT_FALSE(store_->Get(max_key + "k", nullptr));
  EXPECT_FALSE(store_->Delete(max_key + "k"));
  EXPECT_EQ(store_->Size(), 2u);
  EXPECT_TRUE(store_->Delete(max_key));
}

TEST_P(KVStoreConformanceTest, NthAtTheBoundaries) {
  KVLAB_REQUIRE_ORDERED_STORE();
  for (int i = 0; i < 10; ++i) {
    PutOrDie(*store_, absl::StrCat("key", i), absl::StrCat("value", i));
  }
  std::string key, value;
  ASSERT_TRUE(store_->GetNth(0, &key, &value));
  EXPECT_EQ(key, "key0");
  EXPECT_EQ(value, "value0");
  ASSERT_TRUE(store_->GetNth(9, &key, &value));
  EXPECT_EQ(key, "key9");
  EXPECT_TRUE(store_->GetNth(5, &key, nullptr));
  EXPECT_EQ(key, "key5");
  EXPECT_TRUE(store_->GetNth(5, nullptr, &value));
  EXPECT_EQ(value, "value5");
  key = "untouched";
  EXPECT_FALSE(store_->GetNth(10, &key, &value));
  EXPECT_FALSE(store_->GetNth(UINT64_MAX, &key, &value));
  EXPECT_FALSE(store_->GetNth(uint64_t{1} << 32, &key, &value));
  EXPECT_EQ(key, "untouched");
  EXPECT_FALSE(store_->DeleteNth(10));
  EXPECT_FALSE(store_->DeleteNth(UINT64_MAX));
  EXPECT_EQ(store_->Size(), 10u);

  EXPECT_TRUE(store_->DeleteNth(9));  // the last
  EXPECT_FALSE(store_->Get("key9", nullptr));
  EXPECT_TRUE(store_->DeleteNth(0));  // the first
  EXPECT_FALSE(store_->Get("key0", nullptr));
  EXPECT_TRUE(store_->DeleteNth(3));  // key4, in the middle
  EXPECT_EQ(ScanKeys(*store_, ""),
            (std::vector<std::string>{"key1", "key2", "key3", "key5", "key6",
                                      "key7", "key8"}));
  while (store_->Size() > 0) ASSERT_TRUE(store_->DeleteNth(0));
  EXPECT_FALSE(store_->DeleteNth(0));
}

TEST_P(KVStoreConformanceTest, ScanFromEveryKindOfStart) {
  KVLAB_REQUIRE_ORDERED_STORE();
  for (const char* key : {"b", "d", "f"}) PutOrDie(*store_, key, key);
  EXPECT_EQ(ScanKeys(*store_, ""), (std::vector<std::string>{"b", "d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, "a"), (std::vector<std::string>{"b", "d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, "c"), (std::vector<std::string>{"d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, "d"), (std::vector<std::string>{"d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, "b\0"),
            (std::vector<std::string>{"b", "d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, std::string("b\0", 2)),
            (std::vector<std::string>{"d", "f"}));
  EXPECT_EQ(ScanKeys(*store_, "f"), (std::vector<std::string>{"f"}));
  EXPECT_EQ(ScanKeys(*store_, "ff"), std::vector<std::string>{});
  EXPECT_EQ(ScanKeys(*store_, "\xff"), std::vector<std::string>{});
  // Stopping early: the visitor's false ends the scan, and the count
  // includes that last visit.
  int calls = 0;
  EXPECT_EQ(store_->Scan("", [&](auto, auto) { return ++calls < 2; }), 2u);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(store_->Scan("", [](auto, auto) { return false; }), 1u);
  EXPECT_EQ(store_->Scan("e", [](auto, auto) { return true; }), 1u);
  std::string values;
  store_->Scan("", [&](std::string_view, std::string_view value) {
    values.append(value);
    return true;
  });
  EXPECT_EQ(values, "bdf");
}

// No key is longer than kMaxKeySize, but a scan may start from any string.
TEST_P(KVStoreConformanceTest, ScanFromAStartLongerThanAnyKey) {
  KVLAB_REQUIRE_ORDERED_STORE();
  const std::string longest(kMaxKeySize, 'b');
  const std::string b10c = std::string(10, 'b') + "c";
  for (const std::string& key :
       {std::string("a"), longest, b10c, std::string("c")}) {
    PutOrDie(*store_, key, "v");
  }
  // A stored key that starts the scan's start is below it.
  EXPECT_EQ(ScanKeys(*store_, longest + "b"),
            (std::vector<std::string>{b10c, "c"}));
  EXPECT_EQ(ScanKeys(*store_, "a" + std::string(2 * kMaxKeySize, '\0')),
            (std::vector<std::string>{longest, b10c, "c"}));
  // NUL and 0xff bytes, which some stores escape or treat specially.
  EXPECT_EQ(ScanKeys(*store_, std::string(3 * kMaxKeySize, '\0')),
            (std::vector<std::string>{"a", longest, b10c, "c"}));
  EXPECT_EQ(ScanKeys(*store_, std::string(kMaxKeySize + 1, '\xff')),
            std::vector<std::string>{});
  EXPECT_EQ(store_->Scan(std::string(kMaxKeySize + 1, 'c'),
                         [](auto, auto) { return true; }),
            0u);
}

TEST_P(KVStoreConformanceTest, ManySequentialKeysInAndOut) {
  KVLAB_REQUIRE_ORDERED_STORE();
  // Quadratic for an unbalanced tree (bst), so kept modest.
  const int n = static_cast<int>(Scaled(8'000, 500));
  auto key_of = [](int i) {
    char bytes[4] = {static_cast<char>(i >> 24), static_cast<char>(i >> 16),
                     static_cast<char>(i >> 8), static_cast<char>(i)};
    return std::string(bytes, 4);
  };
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(PutResult(*store_, key_of(i), "v"), "new");
  ASSERT_EQ(store_->Size(), static_cast<uint64_t>(n));
  EXPECT_EQ(Nth(*store_, n / 2), key_of(n / 2));
  // Reverse order out, checking the ends as they move.
  for (int i = n - 1; i >= 0; --i) {
    ASSERT_TRUE(store_->Delete(key_of(i)));
    if (i % 997 == 0 && i > 0) {
      ASSERT_EQ(Nth(*store_, i - 1), key_of(i - 1));
    }
  }
  EXPECT_EQ(store_->Size(), 0u);
}

TEST_P(KVStoreConformanceTest, DifferentialAgainstStdMap) {
  DifferentialOptions options;
  options.seed = 20261122;
  // An O(n) GetNth makes the run quadratic; a tenth of the operations
  // still revisit every pooled key many times.
  options.operations =
      GetParam().linear_nth ? Scaled(20'000, 1'000) : Scaled(200'000, 2'000);
  options.key_pool = 2'000;
  options.max_key_length = 80;
  options.ordered = GetParam().ordered;
  RunDifferential(store_.get(), options);
}

TEST_P(KVStoreConformanceTest, DifferentialWithLongKeysAndValues) {
  DifferentialOptions options;
  options.seed = 7;
  options.operations =
      GetParam().linear_nth ? Scaled(15'000, 1'000) : Scaled(40'000, 1'000);
  options.key_pool = 300;
  options.max_key_length = kMaxKeySize;
  options.max_value_length = kMaxValueSize;
  options.ordered = GetParam().ordered;
  RunDifferential(store_.get(), options);
}

// Several writers on disjoint key ranges and readers walking the whole store
// at once; the final content is exactly the writers' last puts.
void RunConcurrently(KVStore* store, bool ordered) {
  const int kWriters = 3;
  const int keys_per_writer = static_cast<int>(Scaled(3'000, 200));
  std::atomic<bool> done{false};
  std::atomic<int> reader_errors{0};
  ThreadErrors thread_errors;
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([=, &thread_errors] {
      thread_errors.Run([=] {
        for (int round = 0; round < 2; ++round) {
          for (int i = 0; i < keys_per_writer; ++i) {
            std::string key = absl::StrCat("w", w, "/", i);
            (void)store->Put(key, absl::StrCat(round, ":", key));
          }
          for (int i = 0; i < keys_per_writer; i += 3) {
            store->Delete(absl::StrCat("w", w, "/", i));
          }
        }
      });
    });
  }
  threads.emplace_back([&] {
    thread_errors.Run([&] {
      std::string key, previous;
      while (!done.load()) {
        uint64_t size = store->Size();
        if (size > 0) store->GetNth(size / 2, &key, nullptr);
        previous.clear();
        bool first = true;
        store->Scan("w1/", [&](std::string_view k, std::string_view) {
          if (!first && !(previous < k)) {
            reader_errors++;
          }
          first = false;
          previous.assign(k);
          return previous.size() < 8;
        });
      }
    });
  });
  for (int w = 0; w < kWriters; ++w) threads[w].join();
  done = true;
  threads.back().join();
  ASSERT_EQ(thread_errors.first(), "") << "a thread threw";
  EXPECT_EQ(reader_errors.load(), 0);

  Oracle expected;
  for (int w = 0; w < kWriters; ++w) {
    for (int i = 0; i < keys_per_writer; ++i) {
      if (i % 3 == 0) continue;
      std::string key = absl::StrCat("w", w, "/", i);
      expected[key] = absl::StrCat(1, ":", key);
    }
  }
  if (ordered) {
    EXPECT_EQ(Contents(*store), expected);
  }
  for (const auto& [key, value] : expected) {
    std::string got;
    EXPECT_TRUE(store->Get(key, &got) && got == value) << key;
  }
  EXPECT_EQ(store->Size(), expected.size());
}

TEST_P(KVStoreConformanceTest, ConcurrentUseBehindLockedStore) {
  std::unique_ptr<KVStore> locked = MakeThreadSafe(std::move(store_));
  ASSERT_TRUE(locked->IsThreadSafe());
  RunConcurrently(locked.get(), GetParam().ordered);
}

TEST_P(KVStoreConformanceTest, ConcurrentUseWhenThreadSafe) {
  if (!store_->IsThreadSafe()) {
    GTEST_SKIP() << store_->Name() << " is not thread-safe by itself";
  }
  RunConcurrently(store_.get(), GetParam().ordered);
}

}  // namespace
}  // namespace kvlab::testing
