// Alphabet: slots in byte order, lower bounds, and the refusal message.

#include "kvlab/stage3/alphabet.h"

#include <string>

#include "gtest/gtest.h"

namespace kvlab::stage3 {
namespace {

TEST(AlphabetTest, AllBytesMapsEveryByteToItself) {
  const Alphabet alphabet = Alphabet::AllBytes();
  EXPECT_EQ(alphabet.name(), "bytes");
  ASSERT_EQ(alphabet.size(), 256);
  for (int b = 0; b < 256; ++b) {
    EXPECT_EQ(alphabet.SlotOf(static_cast<uint8_t>(b)), b);
    EXPECT_EQ(alphabet.ByteAt(b), b);
    EXPECT_EQ(alphabet.FirstSlotAtLeast(static_cast<uint8_t>(b)), b);
  }
  EXPECT_TRUE(alphabet.Check(std::string("\0\xff", 2)).ok());
}

TEST(AlphabetTest, LettersAreFiftyTwoSlotsInByteOrder) {
  const Alphabet alphabet = Alphabet::Letters();
  EXPECT_EQ(alphabet.name(), "letters");
  ASSERT_EQ(alphabet.size(), 52);
  EXPECT_EQ(alphabet.SlotOf('A'), 0);
  EXPECT_EQ(alphabet.SlotOf('Z'), 25);
  EXPECT_EQ(alphabet.SlotOf('a'), 26);
  EXPECT_EQ(alphabet.SlotOf('z'), 51);
  EXPECT_EQ(alphabet.SlotOf('0'), -1);
  EXPECT_EQ(alphabet.SlotOf('['), -1);
  for (int slot = 1; slot < alphabet.size(); ++slot) {
    EXPECT_LT(alphabet.ByteAt(slot - 1), alphabet.ByteAt(slot));
  }
}

TEST(AlphabetTest, FirstSlotAtLeastSkipsGaps) {
  const Alphabet alphabet = Alphabet::Letters();
  EXPECT_EQ(alphabet.FirstSlotAtLeast(0), 0);
  EXPECT_EQ(alphabet.FirstSlotAtLeast('A'), 0);
  EXPECT_EQ(alphabet.FirstSlotAtLeast('B'), 1);
  EXPECT_EQ(alphabet.FirstSlotAtLeast('['), 26);  // between Z and a
  EXPECT_EQ(alphabet.FirstSlotAtLeast('a'), 26);
  EXPECT_EQ(alphabet.FirstSlotAtLeast('z'), 51);
  EXPECT_EQ(alphabet.FirstSlotAtLeast('{'), 52);  // past z: none
  EXPECT_EQ(alphabet.FirstSlotAtLeast(0xff), 52);
}

TEST(AlphabetTest, CheckNamesTheAlphabetAndTheByte) {
  const Alphabet alphabet = Alphabet::Letters();
  EXPECT_TRUE(alphabet.Check("").ok());
  EXPECT_TRUE(alphabet.Check("HelloWorld").ok());
  const absl::Status status = alphabet.Check("ab c");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  const std::string message(status.message());
  EXPECT_NE(message.find("0x20"), std::string::npos) << message;
  EXPECT_NE(message.find("position 2"), std::string::npos) << message;
  EXPECT_NE(message.find("letters alphabet"), std::string::npos) << message;
  EXPECT_NE(message.find("A-Z and a-z"), std::string::npos) << message;
}

}  // namespace
}  // namespace kvlab::stage3
