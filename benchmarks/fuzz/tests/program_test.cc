#include "kvlab/fuzz/program.h"

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::fuzz {
namespace {

using namespace std::literals;

Op Put(std::string key, std::string value) {
  return Op::Put(std::move(key), std::move(value));
}
Op Get(std::string key) { return Op::Get(std::move(key)); }

// The ops `bytes` decode to, the store byte checked to be `bytes[0]`.
std::vector<Op> Ops(std::string_view bytes) {
  Program program = Decode(bytes);
  EXPECT_EQ(program.store_byte, bytes.empty() ? 0 : uint8_t(bytes[0]));
  return program.ops;
}

// One Put of key expression `key` with an empty value, then a Get of the
// key it produced (kRecent 0).
std::string KeyOf(std::string_view key_expression) {
  const std::string input =
      "\x07"
      "\x00"s +
      std::string(key_expression) + "\x00"s + "\x04\x00"s;
  std::vector<Op> ops = Ops(input);
  EXPECT_EQ(ops.size(), 2u);
  if (ops.size() != 2) return "<wrong op count>";
  EXPECT_EQ(ops[1], Get(ops[0].key)) << "kRecent 0 is the last key";
  return ops[0].key;
}

TEST(PatternValue, IsTheSerialRepeatedAndCut) {
  EXPECT_EQ(PatternValue(17, 10), "v17:v17:v1");
  EXPECT_EQ(PatternValue(0, 0), "");
  EXPECT_EQ(PatternValue(3, 4), "v3:v");
}

TEST(Decode, EmptyInputIsAnEmptyProgram) {
  Program program = Decode("");
  EXPECT_EQ(program.store_byte, 0);
  EXPECT_TRUE(program.ops.empty());
  EXPECT_TRUE(Decode("\x2a").ops.empty());
  EXPECT_EQ(Decode("\x2a").store_byte, 0x2a);
}

TEST(Decode, EveryOpcode) {
  // store 9; Put(literal "ab", 3 bytes); Get "ab"; Delete recent; GetNth 0;
  // DeleteNth huge; Scan from "" limit 5; Size; Check.
  const std::string input =
      "\x09"
      "\x00\x01\x02"
      "ab\x03"
      "\x04\x01\x02"
      "ab"
      "\x06\x00"
      "\x08\x00"
      "\x09\xf0"
      "\x0a\x0a\x05"
      "\x0c"
      "\x0d"s;
  const std::vector<Op> expected = {
      Put("ab", "v0:"),
      Get("ab"),
      Op::Delete("ab"),
      Op::GetNth(0),
      Op::DeleteNth(UINT64_MAX),
      Op::Scan("", 5),
      Op::Size(),
      Op::Check(),
  };
  EXPECT_EQ(Ops(input), expected);
}

TEST(Decode, OpcodeAliases) {
  // 1, 2, 3, 15 and 0x10 are Put; 5 Get; 7 Delete; 11 Scan.
  for (char put : {'\x01', '\x02', '\x03', '\x0f', '\x10', '\xf0'}) {
    EXPECT_EQ(Ops("\0"s + put + "\x0a\x00")[0].kind, Op::Kind::kPut);
  }
  EXPECT_EQ(Ops("\0\x05\x0a"sv)[0].kind, Op::Kind::kGet);
  EXPECT_EQ(Ops("\0\x07\x0a"sv)[0].kind, Op::Kind::kDelete);
  EXPECT_EQ(Ops("\0\x0b\x0a\x00"sv)[0].kind, Op::Kind::kScan);
}

TEST(Decode, TruncatedInputReadsZeros) {
  // Put, literal of 5 bytes of which 2 are there, no value length.
  std::vector<Op> ops = Ops("\0\x00\x01\x05xy"sv);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0], Put("xy\0\0\0"s, ""));
}

TEST(Decode, Lengths) {
  auto repeat_length = [](std::string_view code) {
    return KeyOf("\x02z"s + std::string(code)).size();
  };
  EXPECT_EQ(repeat_length("\x00"sv), 0u);
  EXPECT_EQ(repeat_length("\x9f"), 159u);
  // Edges: 0xa0 + 8 * edge + (delta + 4).
  EXPECT_EQ(repeat_length("\xa4"), 8u);
  EXPECT_EQ(repeat_length("\xbb"), 127u);  // edge 3 (128), delta -1
  EXPECT_EQ(repeat_length("\xbc"), 128u);
  EXPECT_EQ(repeat_length("\xc3"), 255u);  // edge 4 (256), delta -1
  EXPECT_EQ(repeat_length("\xc4"), 256u);
  EXPECT_EQ(repeat_length("\xd3"), 1023u);  // edge 6 (1024)
  EXPECT_EQ(repeat_length("\xd4"), 1024u);
  EXPECT_EQ(repeat_length("\xd5"), 1025u);
  EXPECT_EQ(repeat_length("\xdc"), 4096u);
  EXPECT_EQ(repeat_length("\xdd"), 4097u);
  EXPECT_EQ(repeat_length("\xe1\x2c"), 300u);
  EXPECT_EQ(repeat_length("\xff\xff"), 8191u);
}

TEST(Decode, KeyForms) {
  EXPECT_EQ(KeyOf("\x01\x03"
                  "abc"),
            "abc");
  EXPECT_EQ(KeyOf("\x02"
                  "q"
                  "\x04"),
            "qqqq");
  EXPECT_EQ(KeyOf("\x03"
                  "\x01\x02"
                  "ab"
                  "\x02"
                  "c"
                  "\x02"),
            "abcc");
  EXPECT_EQ(KeyOf("\x04\x02"
                  "\x01\x03"
                  "abc"),
            "ab");
  EXPECT_EQ(KeyOf("\x04\x09"
                  "\x01\x03"
                  "abc"),
            "abc");
  EXPECT_EQ(KeyOf("\x05\x01"
                  "\x01\x03"
                  "abc"),
            "ab");
  EXPECT_EQ(KeyOf("\x05\x09"
                  "\x01\x03"
                  "abc"),
            "");
  EXPECT_EQ(KeyOf("\x06\x04"
                  "Z"
                  "\x01\x03"
                  "abc"),
            "aZc");  // 4 mod 3 = 1
  EXPECT_EQ(KeyOf("\x06\x04"
                  "Z"
                  "\x0a"),
            "Z");
  EXPECT_EQ(KeyOf("\x07"
                  "\x01\x02"
                  "a\xff"),
            "b\x00"s);
  EXPECT_EQ(KeyOf("\x07"
                  "\x01\x02"
                  "\xff\xff"),
            "\xff\xff\x00"s);
  EXPECT_EQ(KeyOf("\x07"
                  "\x0a"),
            "\x00"s);
  EXPECT_EQ(KeyOf("\x08\x14"), "\x00\x01"s);  // pass 0 outside a Repeat
  EXPECT_EQ(KeyOf("\x09\x80"), "");           // no key put yet
  EXPECT_EQ(KeyOf("\x0a"), "");
  // Recent keys: none yet is the empty key.
  EXPECT_EQ(KeyOf("\x30"), "");
}

TEST(Decode, RecentKeysCountBackFromTheLast) {
  // Puts of "a", "b", "c", then Gets of recent 2 (the Get's own key counts
  // once decoded, so the next Get's recent 0 is that key).
  const std::string input =
      "\0"
      "\x00\x01\x01"
      "a\x00"
      "\x00\x01\x01"
      "b\x00"
      "\x00\x01\x01"
      "c\x00"
      "\x04\x20"
      "\x04\x00"
      "\x04\xf0"s;
  std::vector<Op> ops = Ops(input);
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(ops[3], Get("a"));
  EXPECT_EQ(ops[4], Get("a"));
  EXPECT_EQ(ops[5], Get(""));  // only 5 keys so far; recent 15 is none
}

TEST(Decode, PutKeyScalesOverTheKeysPut) {
  std::string input = "\0"s;
  for (char c : "abcd"sv) input += "\x00\x01\x01"s + c + "\x00"s;
  input +=
      "\x04\x09\x00"
      "\x04\x09\x80"
      "\x04\x09\xff"s;
  std::vector<Op> ops = Ops(input);
  ASSERT_EQ(ops.size(), 7u);
  EXPECT_EQ(ops[4], Get("a"));
  EXPECT_EQ(ops[5], Get("c"));
  EXPECT_EQ(ops[6], Get("d"));
}

TEST(Decode, RepeatWithCounter) {
  // Repeat 6: Put("k" + Counter(radix 3, offset 1)).
  std::vector<Op> ops =
      Ops("\0"
          "\x0e\x06"
          "\x00"
          "\x03\x01\x01k\x08\x13"
          "\x02"s);
  ASSERT_EQ(ops.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(ops[i],
              Put("k"s + char(i / 3) + char(1 + i % 3), PatternValue(i, 2)));
  }
}

TEST(Decode, RepeatZeroRunsOnceAndNestedRepeatOnlyReadsItsLength) {
  EXPECT_EQ(Ops("\0\x0e\x00\x0c"sv).size(), 1u);
  // Repeat 3 of (Repeat 5), then Size: the inner Repeat runs no command,
  // and the Size after it runs once.
  std::vector<Op> ops = Ops("\0\x0e\x03\x0e\x05\x0c"sv);
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0].kind, Op::Kind::kSize);
}

TEST(Decode, IndexForms) {
  // Three Puts, then GetNth with each index form.
  std::string input = "\0"s;
  for (char c : "abc"sv) input += "\x00\x01\x01"s + c + "\x00"s;
  input +=
      "\x08\x60"
      "\x08\xbf"
      "\x08\xc1\x02"
      "\x08\xe0"
      "\x08\xe7"
      "\x08\xef"
      "\x08\xf3"s;
  std::vector<Op> ops = Ops(input);
  ASSERT_EQ(ops.size(), 10u);
  std::vector<uint64_t> indexes;
  for (size_t i = 3; i < ops.size(); ++i) indexes.push_back(ops[i].index);
  // 0x60 * 3 / 0xc0 = 1; 0xbf * 3 / 0xc0 = 2; exact 258; 3 - 8 + 0 -> 0;
  // 3 - 8 + 7 = 2; 3 - 8 + 15 = 10; UINT64_MAX - 3.
  EXPECT_EQ(indexes,
            (std::vector<uint64_t>{1, 2, 258, 0, 2, 10, UINT64_MAX - 3}));
}

TEST(Decode, IndexSizeFollowsDeletesAndRefusedPuts) {
  // Put a; Put b; Put of a 1025-byte key (refused); Delete a; DeleteNth of
  // the last pair (size 1 - 8 + 7 = 0) removes b; GetNth 0 - 8 + 15.
  const std::string input =
      "\0"
      "\x00\x01\x01"
      "a\x00"
      "\x00\x01\x01"
      "b\x00"
      "\x00\x02"
      "k\xd5"
      "\x00"
      "\x06\x01\x01"
      "a"
      "\x09\xe7"
      "\x08\xef"s;
  std::vector<Op> ops = Ops(input);
  ASSERT_EQ(ops.size(), 6u);
  EXPECT_EQ(ops[2].key.size(), 1025u);
  EXPECT_EQ(ops[4].index, 0u);  // 1 pair: a deleted, the long key refused
  EXPECT_EQ(ops[5].index, 7u);  // 0 pairs: b deleted by rank
}

TEST(Decode, KeysAreCutAndNestingIsBounded) {
  // Concat of two 8191-byte repeats: cut at kMaxDecodedKey.
  EXPECT_EQ(KeyOf("\x03"
                  "\x02"
                  "a\xff\xff"
                  "\x02"
                  "b\xff\xff")
                .size(),
            kMaxDecodedKey);
  // Increments nested around "a": 7 deep is "a" + 7; at depth 8
  // (kMaxKeyDepth) an expression is only its head byte and the empty key.
  EXPECT_EQ(KeyOf(std::string(7, '\x07') + "\x01\x01"
                                           "a"),
            "h");
  EXPECT_EQ(KeyOf(std::string(8, '\x07') + "\x01"), "\x07");
}

TEST(Decode, OperationCountIsBounded) {
  // Repeat 8191 Size, twice.
  EXPECT_EQ(Ops("\0\x0e\xff\xff\x0c\x0e\xff\xff\x0c"sv).size(), kMaxOps);
}

TEST(Decode, IsDeterministic) {
  std::string input;
  uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245 + 12345;
    input.push_back(static_cast<char>(x >> 24));
  }
  for (size_t length : {size_t{1}, size_t{100}, size_t{1000}, input.size()}) {
    const std::string_view prefix = std::string_view(input).substr(0, length);
    EXPECT_EQ(Decode(prefix).ops, Decode(prefix).ops);
  }
}

TEST(ShowBytes, RunsAndEscapes) {
  EXPECT_EQ(ShowBytes(""), "\"\"");
  EXPECT_EQ(ShowBytes("ab\n"), "\"ab\\n\"");
  EXPECT_EQ(ShowBytes(std::string(1024, '\0') + "ab"),
            "\"\\x00\" x 1024 + \"ab\"");
  EXPECT_EQ(ShowBytes("x" + std::string(8, 'y')), "\"x\" + \"y\" x 8");
}

TEST(ToString, OneLinePerOp) {
  EXPECT_EQ(ToString(Put(std::string(9, 'k'), PatternValue(1, 20))),
            "Put(\"k\" x 9, 20 bytes \"v1:v1:v1...\")");
  EXPECT_EQ(ToString(Put("a", "v")), "Put(\"a\", \"v\")");
  EXPECT_EQ(ToString(Op::Scan("a", 0)), "Scan(\"a\", limit none)");
  EXPECT_EQ(ToString(Op::DeleteNth(7)), "DeleteNth(7)");
}

}  // namespace
}  // namespace kvlab::fuzz
