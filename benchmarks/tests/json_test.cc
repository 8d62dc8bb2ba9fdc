#include "kvbench/json.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "json_validator.h"

namespace kvbench {
namespace {

using ::kvbench::testing::JsonValidator;

TEST(JsonTest, ValidatorAcceptsAndRejects) {
  EXPECT_TRUE(JsonValidator::Valid(R"({"a":[1,-2.5e3,true,null],"b":"x"})"));
  EXPECT_FALSE(JsonValidator::Valid(R"({"a":1,})"));
  EXPECT_FALSE(JsonValidator::Valid("\"tab\there\""));
  EXPECT_FALSE(JsonValidator::Valid("\"\xff\""));
  EXPECT_FALSE(JsonValidator::Valid("nan"));
}

TEST(JsonTest, EscapesSpecialCharacters) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a\"b\\c"), R"("a\"b\\c")");
  EXPECT_EQ(JsonString("line\nnext\ttab\r"), R"("line\nnext\ttab\r")");
  EXPECT_EQ(JsonString(std::string("\x01\x1f\x7f\0", 4)),
            R"("\u0001\u001f\u007f\u0000")");
}

TEST(JsonTest, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(JsonString("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(JsonString("\xe2\x82\xac"), "\"\xe2\x82\xac\"");  // euro sign
  EXPECT_EQ(JsonString("a\xff"
                       "b"),
            R"("a\ufffdb")");
  EXPECT_EQ(JsonString("\xc3"), R"("\ufffd")");            // truncated
  EXPECT_EQ(JsonString("\xc0\xaf"), R"("\ufffd\ufffd")");  // overlong
  EXPECT_EQ(JsonString("\xed\xa0\x80"),
            R"("\ufffd\ufffd\ufffd")");  // a surrogate
}

TEST(JsonTest, AnyBytesGiveValidJson) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::string bytes(rng() % 40, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    const std::string json = JsonString(bytes);
    ASSERT_TRUE(JsonValidator::Valid(json)) << json;
  }
}

TEST(JsonTest, NumbersRoundTripAndNonFiniteIsNull) {
  EXPECT_EQ(JsonNumber(2), "2");
  EXPECT_EQ(JsonNumber(0.25), "0.25");
  EXPECT_EQ(std::stod(JsonNumber(1.0 / 3)), 1.0 / 3);
  EXPECT_EQ(std::stod(JsonNumber(123456789.125)), 123456789.125);
  EXPECT_EQ(JsonNumber(NAN), "null");
  EXPECT_EQ(JsonNumber(INFINITY), "null");
  EXPECT_TRUE(JsonValidator::Valid(JsonNumber(1e-300)));
  EXPECT_TRUE(JsonValidator::Valid(JsonNumber(-1e300)));
}

TEST(JsonTest, ObjectsNest) {
  JsonObject inner;
  inner.Add("x", 1).AddNull("y");
  JsonObject outer;
  outer.Add("name", "q\"uote")
      .Add("count", uint64_t{18446744073709551615u})
      .Add("neg", int64_t{-3})
      .AddBool("ok", true)
      .AddRaw("inner", inner.Build())
      .AddRaw("list", JsonArray({"1", "\"two\"", inner.Build()}));
  const std::string json = outer.Build();
  EXPECT_EQ(json, R"({"name":"q\"uote","count":18446744073709551615,"neg":-3,)"
                  R"("ok":true,"inner":{"x":1,"y":null},)"
                  R"("list":[1,"two",{"x":1,"y":null}]})");
  EXPECT_TRUE(JsonValidator::Valid(json));
}

}  // namespace
}  // namespace kvbench
