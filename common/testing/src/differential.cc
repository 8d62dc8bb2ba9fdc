#include "kvlab/testing/differential.h"

#include <iterator>
#include <random>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/string_view_compat.h"
#include "kvlab/testing/key_generator.h"

namespace kvlab::testing {
namespace {

std::string Show(std::string_view bytes) {
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(bytes)), "\"");
}

enum class Op { kPut, kGet, kDelete, kGetNth, kDeleteNth, kScan };

Op PickOp(std::mt19937_64& rng) {
  // Puts are weighted up so the store grows to the pool size and the other
  // operations meet a populated store.
  switch (rng() % 10) {
    case 0:
    case 1:
    case 2:
      return Op::kPut;
    case 3:
    case 4:
      return Op::kGet;
    case 5:
      return Op::kDelete;
    case 6:
    case 7:
      return Op::kGetNth;
    case 8:
      return Op::kDeleteNth;
    default:
      return Op::kScan;
  }
}

// An index for GetNth/DeleteNth: mostly in range, sometimes at or just past
// the end, sometimes huge.
uint64_t PickIndex(std::mt19937_64& rng, uint64_t size) {
  switch (rng() % 8) {
    case 0:
      return size;
    case 1:
      return size + 1 + rng() % 3;
    case 2:
      return UINT64_MAX - rng() % 2;
    case 3:
      return size == 0 ? 0 : size - 1;
    default:
      return size == 0 ? 0 : rng() % size;
  }
}

}  // namespace

Oracle Contents(const KVStore& store) {
  Oracle contents;
  store.Scan("", [&](std::string_view key, std::string_view value) {
    contents.emplace_hint(contents.end(), key, value);
    return true;
  });
  return contents;
}

void RunDifferential(KVStore* store, const DifferentialOptions& options) {
  Oracle oracle = Contents(*store);
  ASSERT_EQ(oracle.size(), store->Size());
  KeyGenerator keys(options.seed, options.key_pool, options.max_key_length);
  std::mt19937_64& rng = keys.rng();
  std::string got_key, got_value;

  for (uint64_t i = 0; i < options.operations; ++i) {
    const std::string where =
        absl::StrCat(ToAbsl(store->Name()), " op #", i, " seed ", options.seed);
    std::string key =
        rng() % 16 == 0 ? keys.FreshKey() : std::string(keys.PooledKey());
    switch (PickOp(rng)) {
      case Op::kPut: {
        std::string value = keys.Value(options.max_value_length);
        absl::StatusOr<bool> replaced = store->Put(key, value);
        ASSERT_TRUE(replaced.ok())
            << where << ": Put " << Show(key) << ": " << replaced.status();
        auto [it, inserted] = oracle.insert_or_assign(key, value);
        ASSERT_EQ(*replaced, !inserted)
            << where << ": Put " << Show(key) << " replaced?";
        break;
      }
      case Op::kGet: {
        got_value = "untouched";
        bool found = store->Get(key, &got_value);
        auto it = oracle.find(key);
        ASSERT_EQ(found, it != oracle.end()) << where << ": Get " << Show(key);
        if (found) {
          ASSERT_EQ(got_value, it->second) << where << ": Get " << Show(key);
        } else {
          ASSERT_EQ(got_value, "untouched")
              << where << ": Get of absent key wrote the value";
        }
        break;
      }
      case Op::kDelete: {
        bool deleted = store->Delete(key);
        ASSERT_EQ(deleted, oracle.erase(key) == 1)
            << where << ": Delete " << Show(key);
        break;
      }
      case Op::kGetNth: {
        uint64_t n = PickIndex(rng, oracle.size());
        if (!options.ordered) {
          ASSERT_FALSE(store->GetNth(n, &got_key, &got_value))
              << where << ": GetNth of an unordered store";
          break;
        }
        bool found = store->GetNth(n, &got_key, &got_value);
        ASSERT_EQ(found, n < oracle.size()) << where << ": GetNth " << n;
        if (found) {
          auto it = std::next(oracle.begin(), n);
          ASSERT_EQ(got_key, it->first) << where << ": GetNth " << n << " key";
          ASSERT_EQ(got_value, it->second)
              << where << ": GetNth " << n << " value";
        }
        break;
      }
      case Op::kDeleteNth: {
        uint64_t n = PickIndex(rng, oracle.size());
        if (!options.ordered) {
          ASSERT_FALSE(store->DeleteNth(n))
              << where << ": DeleteNth of an unordered store";
          break;
        }
        bool deleted = store->DeleteNth(n);
        ASSERT_EQ(deleted, n < oracle.size()) << where << ": DeleteNth " << n;
        if (deleted) {
          const std::string nth_key = std::next(oracle.begin(), n)->first;
          oracle.erase(nth_key);
          ASSERT_FALSE(store->Get(nth_key, nullptr))
              << where << ": DeleteNth " << n << " left " << Show(nth_key);
        }
        break;
      }
      case Op::kScan: {
        const uint64_t limit = rng() % 20;
        std::vector<std::pair<std::string, std::string>> seen;
        uint64_t visited =
            store->Scan(key, [&](std::string_view k, std::string_view v) {
              seen.emplace_back(k, v);
              return seen.size() < limit;
            });
        ASSERT_EQ(visited, seen.size()) << where << ": Scan return value";
        if (!options.ordered) {
          ASSERT_EQ(visited, 0u) << where << ": Scan of an unordered store";
          break;
        }
        auto it = oracle.lower_bound(key);
        uint64_t expected = 0;
        for (; it != oracle.end() && expected < std::max<uint64_t>(limit, 1);
             ++it, ++expected) {
          ASSERT_LT(expected, seen.size())
              << where << ": Scan from " << Show(key) << " missed "
              << Show(it->first);
          ASSERT_EQ(seen[expected].first, it->first)
              << where << ": Scan from " << Show(key) << " position "
              << expected;
          ASSERT_EQ(seen[expected].second, it->second)
              << where << ": Scan value of " << Show(it->first);
        }
        ASSERT_EQ(seen.size(), expected)
            << where << ": Scan from " << Show(key) << " visited too many";
        break;
      }
    }
    ASSERT_EQ(store->Size(), oracle.size()) << where << ": Size";
    if (options.after_each_operation) {
      options.after_each_operation(*store);
      if (::testing::Test::HasFailure()) return;
    }
  }
  if (options.ordered) {
    ASSERT_EQ(Contents(*store), oracle) << "final content differs";
    return;
  }
  for (const auto& [key, value] : oracle) {
    ASSERT_TRUE(store->Get(key, &got_value)) << "final: lost " << Show(key);
    ASSERT_EQ(got_value, value) << "final: value of " << Show(key);
  }
}

}  // namespace kvlab::testing
