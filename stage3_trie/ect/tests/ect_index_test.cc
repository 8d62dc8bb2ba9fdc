#include "kvlab/ect/ect_index.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/ect/slot_format.h"

namespace kvlab::ect {
namespace {

std::shared_ptr<const HuffmanTables> Tables(int hmax) {
  auto t = HuffmanTables::Build(hmax);
  EXPECT_TRUE(t.ok());
  return std::make_shared<const HuffmanTables>(*std::move(t));
}

// Builds an index over `hashkeys` as if each bucket's slots were
// `slot_bytes(bucket)` bytes; returns the expected location of each key.
struct Built {
  EctIndex index;
  std::map<uint64_t, SlotLocation> expected;
};

Built Build(std::vector<uint64_t> hashkeys, int bucket_bits, int hmax,
            uint64_t slot_base) {
  std::sort(hashkeys.begin(), hashkeys.end());
  hashkeys.erase(std::unique(hashkeys.begin(), hashkeys.end()), hashkeys.end());
  auto builder = EctIndexBuilder::Create(bucket_bits, Tables(hmax));
  EXPECT_TRUE(builder.ok());
  std::map<uint64_t, SlotLocation> expected;
  uint64_t offset = 0;
  for (size_t i = 0; i < hashkeys.size();) {
    const uint64_t bucket = BucketOf(hashkeys[i], bucket_bits);
    size_t j = i;
    while (j < hashkeys.size() && BucketOf(hashkeys[j], bucket_bits) == bucket)
      ++j;
    const uint64_t slot = slot_base + bucket % 7;
    builder->AddBucket(bucket, {hashkeys.data() + i, j - i}, offset);
    for (size_t k = i; k < j; ++k) {
      SlotLocation loc;
      loc.bucket = bucket;
      loc.keys = j - i;
      loc.rank = k - i;
      loc.slot_bytes = slot;
      loc.offset = offset + kBucketHeaderBytes + (k - i) * slot;
      expected[hashkeys[k]] = loc;
    }
    offset += kBucketHeaderBytes + (j - i) * slot;
    i = j;
  }
  auto index = std::move(*builder).Finish(offset);
  EXPECT_TRUE(index.ok());
  return {*std::move(index), std::move(expected)};
}

// A lookup costs time linear in its bucket's size, so tests with large
// buckets check every `stride`-th key.
void ExpectFindsAll(const Built& built, size_t stride = 1) {
  size_t i = 0;
  for (const auto& [hashkey, want] : built.expected) {
    if (i++ % stride != 0) continue;
    auto got = built.index.Find(hashkey);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_EQ(got->bucket, want.bucket);
    ASSERT_EQ(got->keys, want.keys);
    ASSERT_EQ(got->rank, want.rank);
    ASSERT_EQ(got->offset, want.offset);
    ASSERT_EQ(got->slot_bytes, want.slot_bytes);
  }
}

TEST(EctIndexTest, EmptyIndexFindsNothingWithoutARead) {
  Built b = Build({}, 4, 16, 100);
  for (uint64_t h : {0ULL, ~0ULL, 12345ULL}) {
    auto got = b.index.Find(h);
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->keys, 0u);
  }
  EXPECT_EQ(b.index.keys(), 0u);
}

TEST(EctIndexTest, FindsEveryKeysSlotAcrossBucketSizesAndHmax) {
  std::mt19937_64 rng(64);
  for (int bucket_bits : {0, 6, 8, 10}) {
    for (int hmax : {1, 16, 64}) {
      std::vector<uint64_t> keys(bucket_bits == 0 ? 500 : 20000);
      for (auto& k : keys) k = rng();
      Built b = Build(keys, bucket_bits, hmax, 40);
      ExpectFindsAll(b);
      EXPECT_EQ(b.index.keys(), b.expected.size());
      // An absent hashkey lands on some slot of its bucket, or on none.
      for (int i = 0; i < 1000; ++i) {
        auto got = b.index.Find(rng());
        ASSERT_TRUE(got.ok());
        if (got->keys > 0) {
          EXPECT_LT(got->rank, got->keys);
        }
      }
    }
  }
}

TEST(EctIndexTest, GroupsShrinkWhenRelativeOffsetsWouldOverflow) {
  std::mt19937_64 rng(3);
  // Two buckets of ~50,000 keys: each trie is over 64 Kibit, so the two
  // cannot share a 16-bit relative trie offset.
  std::vector<uint64_t> keys(100000);
  for (auto& k : keys) k = rng();
  Built b = Build(keys, 1, 64, 40);
  EXPECT_EQ(b.index.group_size(), 1);
  ExpectFindsAll(b, 499);
  // Big slots: 64 buckets x ~390 keys x 256 KiB pass 4 GiB.
  Built big = Build(keys, 8, 64, uint64_t{1} << 18);
  EXPECT_LT(big.index.group_size(), 64);
  ExpectFindsAll(big, 7);
}

TEST(EctIndexTest, UnderThreeBitsPerKeyAtTheDefaultBucketSize) {
  std::mt19937_64 rng(256);
  const uint64_t n = 1 << 18;
  std::vector<uint64_t> keys(n);
  for (auto& k : keys) k = rng();
  Built b = Build(keys, BucketBitsFor(n, 256), 64, 40);
  EXPECT_EQ(b.index.group_size(), 64);
  const double bits = 8.0 * double(b.index.MemoryBytes()) / double(n);
  EXPECT_LT(bits, 3.0);
  EXPECT_GT(bits, 2.0);
  RecordProperty("index_bits_per_key", std::to_string(bits));
}

TEST(EctIndexTest, BucketBitsForRoundsTheLog) {
  EXPECT_EQ(BucketBitsFor(0, 256), 0);
  EXPECT_EQ(BucketBitsFor(256, 256), 0);
  EXPECT_EQ(BucketBitsFor(1024, 256), 2);
  EXPECT_EQ(BucketBitsFor(10000000, 256), 15);  // log2(39062) = 15.25
}

}  // namespace
}  // namespace kvlab::ect
