#include "bitmap.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage5 {
namespace {

TEST(BitmapTest, FindFirstSetOnEmptyMapFindsNothing) {
  const std::vector<uint64_t> words(64, 0);
  EXPECT_EQ(FindFirstSet(words.data(), words.size()), kNoBit);
  EXPECT_TRUE(AllClear(words.data(), words.size()));
}

TEST(BitmapTest, FindFirstSetFindsEveryPositionOfA4096BitMap) {
  std::vector<uint64_t> words(64, 0);
  for (size_t bit = 0; bit < 4096; ++bit) {
    SetBit(words.data(), bit);
    ASSERT_TRUE(TestBit(words.data(), bit));
    ASSERT_EQ(FindFirstSet(words.data(), words.size()), bit);
    // A higher bit does not change the answer.
    if (bit + 1 < 4096) SetBit(words.data(), 4095);
    ASSERT_EQ(FindFirstSet(words.data(), words.size()), bit);
    ClearBit(words.data(), 4095);
    ClearBit(words.data(), bit);
    ASSERT_TRUE(AllClear(words.data(), words.size()));
  }
  EXPECT_TRUE(AllClear(words.data(), words.size()));
}

TEST(BitmapTest, FindFirstSetStartsAtTheGivenWord) {
  std::vector<uint64_t> words(4, 0);
  SetBit(words.data(), 5);
  SetBit(words.data(), 200);
  EXPECT_EQ(FindFirstSet(words.data(), 4, 0), 5u);
  EXPECT_EQ(FindFirstSet(words.data(), 4, 1), 200u);
  EXPECT_EQ(FindFirstSet(words.data(), 4, 3), 200u);
  EXPECT_EQ(FindFirstSet(words.data(), 3, 1), kNoBit);
}

TEST(BitmapTest, AllSetInRangeAgreesWithTestingEachBit) {
  for (size_t hole = 0; hole <= 256; ++hole) {
    std::vector<uint64_t> words(4, ~uint64_t{0});
    if (hole < 256) ClearBit(words.data(), hole);
    for (size_t first = 0; first < 256; ++first) {
      for (size_t last = first; last < 256; ++last) {
        const bool expected = hole < first || hole > last;
        ASSERT_EQ(AllSetInRange(words.data(), first, last), expected)
            << "hole " << hole << ", bits " << first << ".." << last;
      }
    }
  }
}

}  // namespace
}  // namespace kvlab::stage5
