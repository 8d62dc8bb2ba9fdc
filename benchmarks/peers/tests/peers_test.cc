// What the conformance suite does not cover: the peers' registered traits,
// the unordered stores' answers to order operations, the hash stores'
// growth when memory runs out, judyl's two sides and its integer side when
// memory runs out, and the peers' own memory accounting.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "judyl_store.h"
#include "kvlab/peers/stores.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/failing_allocator.h"

namespace kvlab {
namespace {

class PeersTest : public ::testing::Test {
 protected:
  PeersTest() { RegisterBenchmarkPeers(&registry_); }
  std::unique_ptr<KVStore> Make(std::string_view spec) {
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry_.Make(spec);
    EXPECT_TRUE(store.ok()) << store.status();
    return *std::move(store);
  }
  StoreRegistry registry_;
};

std::string BigEndian(uint64_t value) {
  std::string key(8, '\0');
  for (int i = 7; i >= 0; --i, value >>= 8) key[i] = static_cast<char>(value);
  return key;
}

TEST_F(PeersTest, RegisteredTraits) {
  for (const char* name : {"std_unordered_map", "absl_flat_hash_map"}) {
    const StoreInfo* info = registry_.Find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_FALSE(info->ordered) << name;
    EXPECT_EQ(info->origin, "peer");
  }
  for (const char* name : {"judy", "judyl", "hattrie"}) {
    const StoreInfo* info = registry_.Find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_TRUE(info->ordered) << name;
    EXPECT_TRUE(info->linear_nth) << name;
    EXPECT_EQ(Make(name)->Name(), name);
  }
}

TEST_F(PeersTest, UnorderedStoresAnswerNothingToOrderOperations) {
  for (const char* name : {"std_unordered_map", "absl_flat_hash_map"}) {
    std::unique_ptr<KVStore> store = Make(name);
    EXPECT_EQ(store->Name(), name);
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(store->Put(absl::StrCat("k", i), "v").ok());
    }
    ASSERT_TRUE(store->Put(std::string("\0\xff", 2), "nul").ok());
    std::string key = "untouched";
    EXPECT_FALSE(store->GetNth(0, &key, nullptr)) << name;
    EXPECT_EQ(key, "untouched");
    EXPECT_FALSE(store->DeleteNth(0)) << name;
    int visits = 0;
    EXPECT_EQ(store->Scan("", [&](auto, auto) { return ++visits > 0; }), 0u);
    EXPECT_EQ(visits, 0);
    EXPECT_EQ(store->Size(), 101u);
    std::string value;
    ASSERT_TRUE(store->Get(std::string("\0\xff", 2), &value));
    EXPECT_EQ(value, "nul");
    EXPECT_FALSE(store->Get(std::string("\0", 1), nullptr));
  }
}

// Each hash store grows from empty while every allocation of each insert
// fails: the keys are short and the values empty, so nothing but the map's
// own growth allocates in absl::flat_hash_map. A failed insert must leave
// every pair there and the map working.
TEST_F(PeersTest, HashStoresGrowWhileMemoryRunsOut) {
  for (const char* name : {"std_unordered_map", "absl_flat_hash_map"}) {
    std::unique_ptr<KVStore> store = Make(name);
    int failed = 0;
    for (int i = 0; i < 2000; ++i) {
      const std::string key = absl::StrCat("k", i);  // no heap string
      absl::StatusCode code;
      {
        testing::FailingAllocations failing(1, /*and_all_after=*/true);
        code = store->Put(key, "").status().code();
      }
      if (code == absl::StatusCode::kOk) continue;
      ++failed;
      ASSERT_EQ(code, absl::StatusCode::kResourceExhausted) << name;
      ASSERT_EQ(store->Size(), static_cast<uint64_t>(i)) << name;
      for (int j = 0; j < i; ++j) {
        ASSERT_TRUE(store->Get(absl::StrCat("k", j), nullptr)) << name << j;
      }
      EXPECT_FALSE(store->Get(key, nullptr)) << name;
      ASSERT_TRUE(store->Put(key, "").ok()) << name;
    }
    EXPECT_EQ(store->Size(), 2000u) << name;
    // std::unordered_map allocates a node for every insert; the flat map
    // allocates only when it grows, a few times in 2000 keys.
    EXPECT_GE(failed, 5) << name;
  }
}

TEST_F(PeersTest, JudyLKeepsIntegerKeysInJudyLAndCountsThem) {
  std::unique_ptr<KVStore> store = Make("judyl");
  ASSERT_TRUE(store->MemoryUsage().has_value());
  const size_t empty = *store->MemoryUsage();
  // Descending inserts; GetNth by count must still give ascending order.
  for (uint64_t i = 1000; i-- > 0;) {
    ASSERT_TRUE(store->Put(BigEndian(i * 0x0101010101ULL), "v").ok());
  }
  ASSERT_TRUE(store->MemoryUsage().has_value());
  EXPECT_GT(*store->MemoryUsage(), empty + 1000 * 8);
  std::string key;
  ASSERT_TRUE(store->GetNth(999, &key, nullptr));
  EXPECT_EQ(key, BigEndian(999 * 0x0101010101ULL));
  ASSERT_TRUE(store->DeleteNth(0));
  EXPECT_FALSE(store->Get(BigEndian(0), nullptr));
  // A key of another length lands on the JudySL side; the two merge.
  ASSERT_TRUE(store->Put(BigEndian(5 * 0x0101010101ULL) + "x", "long").ok());
  EXPECT_FALSE(store->MemoryUsage().has_value());
  ASSERT_TRUE(store->GetNth(5, &key, nullptr));
  EXPECT_EQ(key, BigEndian(5 * 0x0101010101ULL) + "x");
  ASSERT_TRUE(store->GetNth(6, &key, nullptr));
  EXPECT_EQ(key, BigEndian(6 * 0x0101010101ULL));
  // A start longer than 8 bytes begins after its 8-byte prefix.
  std::string first;
  store->Scan(BigEndian(5 * 0x0101010101ULL) + "y", [&](auto k, auto) {
    first = std::string(k);
    return false;
  });
  EXPECT_EQ(first, BigEndian(6 * 0x0101010101ULL));
  EXPECT_EQ(
      store->Scan(std::string(9, '\xff'), [](auto, auto) { return true; }), 0u);
}

// JudyL leaves its array as it was when malloc fails, so judyl on 8-byte
// keys alone keeps the out-of-memory contract: a Put of a new key whose
// value needs blob mode, with every allocation failing from the k-th on,
// for every k until the Put succeeds.
TEST_F(PeersTest, JudyLIntegerKeysSurviveAFailedPut) {
  if (!testing::MallocFailuresInjected()) {
    GTEST_SKIP() << "libJudy allocates with malloc, which this build cannot "
                    "fail";
  }
  for (uint64_t k = 1;; ++k) {
    std::unique_ptr<KVStore> store = Make("judyl");
    for (uint64_t i = 0; i < 100; ++i) {
      ASSERT_TRUE(store->Put(BigEndian(i * 977), BigEndian(i)).ok());
    }
    absl::StatusCode code;
    {
      testing::FailingAllocations failing(k, /*and_all_after=*/true);
      code = store->Put(BigEndian(12345), "not 8 bytes").status().code();
    }
    if (code == absl::StatusCode::kOk) break;
    ASSERT_EQ(code, absl::StatusCode::kResourceExhausted) << k;
    EXPECT_TRUE(static_cast<peers::JudyLStore&>(*store).InlineValues()) << k;
    ASSERT_EQ(store->Size(), 100u) << k;
    EXPECT_EQ(store->Scan("", [](auto, auto) { return true; }), 100u) << k;
    for (uint64_t i = 0; i < 100; ++i) {
      std::string value;
      ASSERT_TRUE(store->Get(BigEndian(i * 977), &value)) << k;
      EXPECT_EQ(value, BigEndian(i)) << k;
    }
    EXPECT_FALSE(store->Get(BigEndian(12345), nullptr)) << k;
    ASSERT_LT(k, 1000u) << "the Put never succeeded";
  }
}

TEST_F(PeersTest, JudyLDifferentialOnIntegerKeysWithInvariants) {
  // Keys of 0 to 8 bytes from a small pool, so both sides (JudyL for the
  // 8-byte keys, JudySL for the rest) fill and empty; after every operation
  // a full Scan through the merge must count exactly Size() pairs.
  std::unique_ptr<KVStore> store = Make("judyl");
  testing::DifferentialOptions options;
  options.seed = 11;
  options.operations = 20'000;
  options.key_pool = 500;
  options.max_key_length = 8;
  options.after_each_operation = [](const KVStore& s) {
    uint64_t counted = s.Scan("", [](auto, auto) { return true; });
    ASSERT_EQ(counted, s.Size());
  };
  testing::RunDifferential(store.get(), options);
}

TEST_F(PeersTest, HatTrieAccountsForItsValues) {
  std::unique_ptr<KVStore> store = Make("hattrie");
  ASSERT_TRUE(store->MemoryUsage().has_value());
  const size_t empty = *store->MemoryUsage();
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(store->Put(absl::StrCat("key", i), std::string(100, 'v')).ok());
  }
  // Keys and 100-byte values: at least the raw bytes.
  EXPECT_GE(*store->MemoryUsage(), empty + 1000 * 106);
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(store->Delete(absl::StrCat("key", i)));
  EXPECT_LT(*store->MemoryUsage(), empty + 1000 * 106);
}

}  // namespace
}  // namespace kvlab
