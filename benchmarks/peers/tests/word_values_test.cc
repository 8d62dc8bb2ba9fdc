// WordValues on plain arrays of words: the two modes, the zero-word count,
// the switch and its rollback.

#include "word_values.h"

#include <cstring>
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

}  // namespace
}  // namespace kvlab::peers
