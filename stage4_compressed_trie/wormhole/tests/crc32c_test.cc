// Crc32cExtend: the standard CRC-32C, the same by the CPU's instruction and
// by the table, and extending a prefix's hash gives the whole key's.

#include "crc32c.h"

#include <string>

#include "gtest/gtest.h"

namespace kvlab::stage4::wormhole {
namespace {

TEST(WormholeCrc32cTest, StandardCheckValue) {
  EXPECT_EQ(Crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(Crc32cExtendPortable(0, "123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c(""), 0u);
}

TEST(WormholeCrc32cTest, HardwareAndTableAgreeOnEveryLengthAndByte) {
  std::string data;
  for (int i = 0; i < 300; ++i) data.push_back(static_cast<char>(i * 37 + 5));
  data[7] = '\0';
  data[8] = '\xff';
  for (size_t len = 0; len <= data.size(); ++len) {
    EXPECT_EQ(Crc32cExtend(0x1234, data.data(), len),
              Crc32cExtendPortable(0x1234, data.data(), len))
        << len;
  }
}

TEST(WormholeCrc32cTest, ExtendingAPrefixGivesTheWholeKeysHash) {
  const std::string key("wormhole\0key\xff with bytes", 25);
  for (size_t cut = 0; cut <= key.size(); ++cut) {
    const uint32_t prefix = Crc32cExtend(0, key.data(), cut);
    EXPECT_EQ(Crc32cExtend(prefix, key.data() + cut, key.size() - cut),
              Crc32c(key))
        << cut;
  }
  // Trailing zero bytes change the hash: "a" and "a\0" differ.
  EXPECT_NE(Crc32c(std::string("a")), Crc32c(std::string("a\0", 2)));
}

}  // namespace
}  // namespace kvlab::stage4::wormhole
