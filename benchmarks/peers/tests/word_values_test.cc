// WordValues on plain arrays of words: the two modes, the zero-word count,
// the switch and its rollback.

#include "word_values.h"

#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::peers {
namespace {

const std::string kZero(8, '\0');

// Every word of `words`, as a SlotWalk.
auto WalkOf(std::vector<Word_t>& words) {
  return [&words](WordValues::SlotVisitor visit) {
    for (Word_t& word : words) visit(&word);
  };
}

TEST(WordValuesTest, InlineWordIsTheValueAndZerosAreCounted) {
  WordValues values;
  EXPECT_TRUE(values.inline_mode());
  EXPECT_FALSE(values.MayHoldZero());
  EXPECT_FALSE(values.NeedsSwitch("12345678"));
  EXPECT_TRUE(values.NeedsSwitch("1234567"));
  EXPECT_TRUE(values.NeedsSwitch(""));
  const Word_t word = values.Make("abcdefgh");
  EXPECT_EQ(std::memcmp(&word, "abcdefgh", 8), 0);
  EXPECT_EQ(values.View(&word), "abcdefgh");
  EXPECT_FALSE(values.MayHoldZero());
  const Word_t zero = values.Make(kZero);
  EXPECT_EQ(zero, 0u);
  EXPECT_EQ(values.View(&zero), kZero);
  EXPECT_TRUE(values.MayHoldZero());
  const Word_t zero2 = values.Make(kZero);
  values.Release(zero);
  EXPECT_TRUE(values.MayHoldZero());
  values.Release(zero2);
  EXPECT_FALSE(values.MayHoldZero());
  values.Release(word);
  EXPECT_EQ(values.blob_bytes(), 0u);
}

TEST(WordValuesTest, SwitchTurnsEveryWordIntoABlob) {
  WordValues values;
  std::vector<Word_t> words = {values.Make("abcdefgh"), values.Make(kZero),
                               values.Make("\xff\xff\xff\xff\0\0\0\1")};
  ASSERT_TRUE(values.MayHoldZero());
  values.SwitchToBlobMode(WalkOf(words));
  EXPECT_FALSE(values.inline_mode());
  EXPECT_FALSE(values.MayHoldZero());
  EXPECT_FALSE(values.NeedsSwitch("short"));
  // Each blob is at least its 4-byte length and 8 bytes.
  EXPECT_GE(values.blob_bytes(), 3 * 12u);
  for (Word_t word : words) EXPECT_NE(word, 0u);
  EXPECT_EQ(values.View(&words[0]), "abcdefgh");
  EXPECT_EQ(values.View(&words[1]), kZero);
  EXPECT_EQ(values.View(&words[2]), std::string("\xff\xff\xff\xff\0\0\0\1", 8));
  words.push_back(values.Make("a value of another length"));
  EXPECT_EQ(values.View(&words[3]), "a value of another length");
  const size_t four = values.blob_bytes();
  values.Release(words[3]);
  EXPECT_LT(values.blob_bytes(), four);
  for (size_t i = 0; i < 3; ++i) values.Release(words[i]);
  EXPECT_EQ(values.blob_bytes(), 0u);
  values.Emptied();
  EXPECT_TRUE(values.inline_mode());
  EXPECT_TRUE(values.NeedsSwitch("short"));
}

TEST(WordValuesTest, FailedSwitchRestoresTheWordsAndStaysInline) {
  WordValues values;
  std::vector<Word_t> words = {values.Make("11111111"), values.Make(kZero),
                               values.Make("33333333"),
                               values.Make("44444444")};
  const std::vector<Word_t> before = words;
  // A walk that fails at its third slot the first time, as a failed
  // allocation would; the rollback walks again.
  int walks = 0;
  auto failing_walk = [&](WordValues::SlotVisitor visit) {
    const bool fail = walks++ == 0;
    for (size_t i = 0; i < words.size(); ++i) {
      if (fail && i == 2) throw std::bad_alloc();
      visit(&words[i]);
    }
  };
  EXPECT_THROW(values.SwitchToBlobMode(failing_walk), std::bad_alloc);
  EXPECT_EQ(walks, 2);
  EXPECT_EQ(words, before);
  EXPECT_TRUE(values.inline_mode());
  EXPECT_TRUE(values.MayHoldZero());
  EXPECT_EQ(values.blob_bytes(), 0u);
  values.SwitchToBlobMode(WalkOf(words));
  EXPECT_EQ(values.View(&words[1]), kZero);
  EXPECT_EQ(values.View(&words[3]), "44444444");
  for (Word_t word : words) values.Release(word);
  EXPECT_EQ(values.blob_bytes(), 0u);
}

// Store on a vector of words standing for a container: `insert` finds or
// appends the slot of key `index`.
TEST(WordValuesTest, StoreFillsTheSlotAndReleasesTheOldWord) {
  WordValues values;
  std::vector<Word_t> words;
  words.reserve(8);  // the slots must not move
  auto insert_at = [&](size_t index) {
    return [&words, index](bool, bool* inserted) {
      *inserted = index == words.size();
      if (*inserted) words.push_back(0);
      return &words[index];
    };
  };
  EXPECT_FALSE(values.Store("11111111", WalkOf(words), insert_at(0)));
  EXPECT_FALSE(values.Store(kZero, WalkOf(words), insert_at(1)));
  EXPECT_TRUE(values.MayHoldZero());
  EXPECT_TRUE(values.Store("22222222", WalkOf(words), insert_at(1)));
  EXPECT_FALSE(values.MayHoldZero());  // the zero word was released
  EXPECT_TRUE(values.Store("short", WalkOf(words), insert_at(0)));
  EXPECT_FALSE(values.inline_mode());
  EXPECT_EQ(values.View(&words[0]), "short");
  EXPECT_EQ(values.View(&words[1]), "22222222");
  for (Word_t word : words) values.Release(word);
}

// An insert that runs out of memory after Store switched to blob mode for
// its value: the words are inline again, zero count included.
TEST(WordValuesTest, FailedInsertUndoesTheSwitch) {
  WordValues values;
  std::vector<Word_t> words = {values.Make("11111111"), values.Make(kZero)};
  const std::vector<Word_t> before = words;
  auto failing_insert = [](bool, bool*) -> Word_t* { throw std::bad_alloc(); };
  EXPECT_THROW(values.Store("short", WalkOf(words), failing_insert),
               std::bad_alloc);
  EXPECT_EQ(words, before);
  EXPECT_TRUE(values.inline_mode());
  EXPECT_TRUE(values.MayHoldZero());
  EXPECT_EQ(values.blob_bytes(), 0u);
  // In blob mode already, only the new value's blob is given back.
  values.SwitchToBlobMode(WalkOf(words));
  const size_t blob_bytes = values.blob_bytes();
  EXPECT_THROW(values.Store("short", WalkOf(words), failing_insert),
               std::bad_alloc);
  EXPECT_FALSE(values.inline_mode());
  EXPECT_EQ(values.blob_bytes(), blob_bytes);
  EXPECT_EQ(values.View(&words[0]), "11111111");
  for (Word_t word : words) values.Release(word);
}

}  // namespace
}  // namespace kvlab::peers
