#include "kvlab/ect/slot_format.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/kv_store.h"

namespace kvlab::ect {
namespace {

TEST(SlotFormatTest, OnePairRoundTripsWithPadding) {
  const std::vector<Pair> pairs = {{"key", "value"}};
  EXPECT_EQ(SlotBytes(pairs), 2u + 4 + 3 + 5);
  std::string slot;
  AppendSlot(pairs, 20, &slot);
  ASSERT_EQ(slot.size(), 20u);
  std::string v;
  auto found = FindInSlot(slot, "key", &v);
  ASSERT_TRUE(found.ok());
  EXPECT_TRUE(*found);
  EXPECT_EQ(v, "value");
  found = FindInSlot(slot, "kex", &v);
  ASSERT_TRUE(found.ok());
  EXPECT_FALSE(*found);
  EXPECT_EQ(v, "value");  // untouched
}

TEST(SlotFormatTest, SeveralPairsAnyBytesAndLimits) {
  const std::vector<Pair> pairs = {
      {"", ""},
      {std::string("\0\xff", 2), std::string(kMaxValueSize, '\0')},
      {std::string(kMaxKeySize, 'k'), "v"}};
  std::string slot;
  AppendSlot(pairs, SlotBytes(pairs), &slot);
  std::vector<Pair> seen;
  ASSERT_TRUE(ForEachInSlot(slot, [&](std::string_view k, std::string_view v) {
                seen.emplace_back(k, v);
              }).ok());
  EXPECT_EQ(seen, pairs);
  for (const Pair& p : pairs) {
    std::string v;
    auto found = FindInSlot(slot, p.first, &v);
    ASSERT_TRUE(found.ok() && *found);
    EXPECT_EQ(v, p.second);
  }
}

TEST(SlotFormatTest, BucketHeaderRoundTrips) {
  std::string h;
  AppendBucketHeader(123456, 789, &h);
  ASSERT_EQ(h.size(), kBucketHeaderBytes);
  uint32_t slot_bytes = 0, slots = 0;
  ASSERT_TRUE(ReadBucketHeader(h, &slot_bytes, &slots).ok());
  EXPECT_EQ(slot_bytes, 123456u);
  EXPECT_EQ(slots, 789u);
  EXPECT_FALSE(ReadBucketHeader(h.substr(0, 7), &slot_bytes, &slots).ok());
}

TEST(SlotFormatTest, DamagedSlotsAreErrorsNotCrashes) {
  std::string slot;
  AppendSlot({{"abc", "def"}}, SlotBytes({{"abc", "def"}}), &slot);
  EXPECT_FALSE(
      FindInSlot(slot.substr(0, slot.size() - 1), "abc", nullptr).ok());
  EXPECT_FALSE(FindInSlot(std::string(2, '\0'), "abc", nullptr).ok());
  EXPECT_FALSE(FindInSlot("", "abc", nullptr).ok());
  std::string big = slot;
  big[2] = '\xff';  // key length 0x03ff... past the slot
  big[3] = '\x7f';
  EXPECT_FALSE(FindInSlot(big, "abc", nullptr).ok());
}

}  // namespace
}  // namespace kvlab::ect
