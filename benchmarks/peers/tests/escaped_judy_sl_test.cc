// The order-preserving escape that lets JudySL hold keys with NUL bytes.

#include "escaped_judy_sl.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::peers {
namespace {

std::string Escaped(std::string_view key) {
  uint8_t buffer[kEscapedKeyBuffer];
  EscapeKey(key, buffer);
  return reinterpret_cast<const char*>(buffer);
}

TEST(EscapeKeyTest, EscapesOnlyTheTwoLowestBytes) {
  EXPECT_EQ(Escaped(""), "");
  EXPECT_EQ(Escaped("abc"), "abc");
  EXPECT_EQ(Escaped(std::string("a\0b", 3)),
            "a\x01\x01"
            "b");
  EXPECT_EQ(Escaped("a\x01"), "a\x01\x02");
  EXPECT_EQ(Escaped("\x02\xff"), "\x02\xff");
  // The longest key, all NULs, fills the buffer exactly.
  EXPECT_EQ(Escaped(std::string(kMaxKeySize, '\0')).size(), 2 * kMaxKeySize);
}

// A key of random length over a byte alphabet dense in 0, 1 and 2, where the
// escape matters.
std::string RandomKey(std::mt19937_64& rng) {
  static constexpr char kBytes[] = {'\0', '\x01', '\x02', 'a', '\xff'};
  std::string key(rng() % 6, '\0');
  for (char& c : key) c = kBytes[rng() % sizeof(kBytes)];
  return key;
}

TEST(EscapeKeyTest, KeepsUnsignedByteOrderAndRoundTrips) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20'000; ++i) {
    const std::string a = RandomKey(rng), b = RandomKey(rng);
    const std::string ea = Escaped(a), eb = Escaped(b);
    // std::string compares as unsigned bytes, as JudySL does.
    EXPECT_EQ(a < b, ea < eb) << i;
    EXPECT_EQ(a == b, ea == eb) << i;
    EXPECT_EQ(ea.find('\0'), std::string::npos);
    EXPECT_EQ(UnescapeKey(reinterpret_cast<const uint8_t*>(ea.c_str())), a);
  }
}

TEST(EscapedJudySLTest, CursorWalksInOrderFromAnyStart) {
  EscapedJudySL map;
  std::vector<std::string> keys = {"",
                                   std::string("\0", 1),
                                   "\x01",
                                   "a",
                                   std::string("a\0", 2),
                                   "a\x01",
                                   "b",
                                   "\xff"};
  for (size_t i = 0; i < keys.size(); ++i) {
    bool inserted = false;
    Word_t* slot = map.Insert(keys[keys.size() - 1 - i], false, &inserted);
    ASSERT_TRUE(inserted);
    ASSERT_EQ(*slot, 0u);
    *slot = i + 1;
  }
  EXPECT_EQ(map.size(), keys.size());
  std::vector<std::string> seen;
  for (EscapedJudySL::Cursor c(map, ""); !c.Done(); c.Next()) {
    seen.push_back(c.Key());
  }
  EXPECT_EQ(seen, keys);
  EscapedJudySL::Cursor from_a_nul(map, std::string("a\0", 2));
  ASSERT_FALSE(from_a_nul.Done());
  EXPECT_EQ(from_a_nul.Key(), std::string("a\0", 2));
  EscapedJudySL::Cursor past_a(map, std::string("a\0\0", 3));
  EXPECT_EQ(past_a.Key(), "a\x01");
  EXPECT_EQ(EscapedJudySL::Cursor(map, "c").Key(), "\xff");
  EXPECT_TRUE(EscapedJudySL::Cursor(map, "\xff\x01").Done());
  EXPECT_TRUE(map.Erase(std::string("\0", 1)));
  EXPECT_FALSE(map.Erase(std::string("\0", 1)));
  EXPECT_EQ(map.Find(std::string("\0", 1)), nullptr);
  EXPECT_NE(map.Find("\x01"), nullptr);
  EXPECT_EQ(map.size(), keys.size() - 1);
}

TEST(EscapedJudySLTest, InsertTellsNewKeysWhenSlotsMayHoldZero) {
  EscapedJudySL map;
  bool inserted = false;
  // A slot left at 0, as an inline all-zero value leaves it.
  ASSERT_NE(map.Insert("zero", false, &inserted), nullptr);
  EXPECT_TRUE(inserted);
  Word_t* slot = map.Insert("zero", true, &inserted);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(*slot, 0u);
  EXPECT_EQ(map.size(), 1u);
  *map.Insert("one", true, &inserted) = 1;
  EXPECT_TRUE(inserted);
  *map.Insert("one", false, &inserted) = 2;
  EXPECT_FALSE(inserted);
  EXPECT_EQ(map.size(), 2u);
  // ForEachSlot meets every slot in key order, and may write them.
  std::vector<Word_t> words;
  map.ForEachSlot([&](Word_t* s) {
    words.push_back(*s);
    *s += 10;
  });
  EXPECT_EQ(words, (std::vector<Word_t>{2, 0}));
  EXPECT_EQ(*map.Find("zero"), 10u);
  EXPECT_EQ(*map.Find("one"), 12u);
}

}  // namespace
}  // namespace kvlab::peers
