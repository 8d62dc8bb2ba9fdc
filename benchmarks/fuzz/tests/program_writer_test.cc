#include "kvlab/fuzz/program_writer.h"

#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/fuzz/program.h"

namespace kvlab::fuzz {
namespace {

using namespace std::literals;
using K = KeyExpr;
using I = IndexExpr;

// The key a Put of `key` decodes to.
std::string KeyOf(const KeyExpr& key) {
  Program program = Decode(ProgramWriter().Put(key, 0).bytes());
  EXPECT_EQ(program.ops.size(), 1u);
  return program.ops.empty() ? "<no op>" : program.ops[0].key;
}

TEST(EncodeLength, RoundTripsEveryLengthInItsShortestForm) {
  for (size_t n = 0; n < 8192; ++n) {
    ASSERT_EQ(KeyOf(K::Repeat('a', n)), std::string(n, 'a')) << n;
  }
  EXPECT_EQ(EncodeLength(159), "\x9f");
  EXPECT_EQ(EncodeLength(160), "\xe0\xa0");
  EXPECT_EQ(EncodeLength(1024), "\xd4");
  EXPECT_EQ(EncodeLength(1027), "\xd7");
  EXPECT_EQ(EncodeLength(4097), "\xdd");
  EXPECT_EQ(EncodeLength(300), "\xe1\x2c");
}

TEST(EncodeLengthDeathTest, LengthPastTheFormatAborts) {
  EXPECT_DEATH(EncodeLength(8192), "length 8192 cannot be encoded");
}

TEST(KeyExpr, EveryFormDecodesToItsKey) {
  EXPECT_EQ(KeyOf(K::Literal("\0ab"sv)), "\0ab"sv);
  const std::string long_literal(600, 'L');
  EXPECT_EQ(KeyOf(K::Literal(long_literal)), long_literal);
  EXPECT_EQ(
      KeyOf(K::Concat({K::Literal("a"), K::Repeat('b', 2), K::Literal("c")})),
      "abbc");
  EXPECT_EQ(KeyOf(K::Prefix(3, K::Literal("abcdef"))), "abc");
  EXPECT_EQ(KeyOf(K::DropTail(2, K::Literal("abcdef"))), "abcd");
  EXPECT_EQ(KeyOf(K::SetByte(1, 'X', K::Literal("abc"))), "aXc");
  EXPECT_EQ(KeyOf(K::Increment(K::Literal("ab\xff"))), "ac\0"sv);
  EXPECT_EQ(KeyOf(K::Counter(256, 0)), "\0\0"sv);
  EXPECT_EQ(KeyOf(K::Empty()), "");
  EXPECT_EQ(KeyOf(K::PutKey(0)), "");
  EXPECT_EQ(KeyOf(K::Recent(0)), "");
}

TEST(ProgramWriter, RecentPutKeyAndCounterInARepeat) {
  ProgramWriter w(7);
  w.Repeat(300).Put(K::Concat({K::Literal("n"), K::Counter(256, 0)}), 1);
  w.Get(K::Recent(0)).Get(K::Recent(1)).Get(K::PutKey(255));
  w.Repeat(3).Put(K::Concat({K::Recent(0), K::Literal("+")}), 0);
  Program program = Decode(w.bytes());
  EXPECT_EQ(program.store_byte, 7);
  ASSERT_EQ(program.ops.size(), 306u);
  for (size_t i = 0; i < 300; ++i) {
    ASSERT_EQ(program.ops[i].key, "n"s + char(i / 256) + char(i % 256)) << i;
  }
  const std::string last = "n\x01\x2b"s;  // pass 299
  EXPECT_EQ(program.ops[300].key, last);
  EXPECT_EQ(program.ops[301].key, last);    // recent 1: the Get before
  const std::string key298 = "n\x01\x2a"s;  // 255 * 300 / 256 = 298
  EXPECT_EQ(program.ops[302].key, key298);
  EXPECT_EQ(program.ops[303].key, key298 + "+");
  EXPECT_EQ(program.ops[305].key, key298 + "+++");
}

TEST(ProgramWriter, IndexForms) {
  ProgramWriter w;
  w.Repeat(10).Put(K::Counter(256, 0), 0);
  w.GetNth(I::Scaled(96))
      .GetNth(I::Exact(4000))
      .GetNth(I::FromEnd(7))
      .DeleteNth(I::FromEnd(8))
      .DeleteNth(I::Huge(1));
  Program program = Decode(w.bytes());
  ASSERT_EQ(program.ops.size(), 15u);
  std::vector<uint64_t> indexes;
  for (size_t i = 10; i < 15; ++i) indexes.push_back(program.ops[i].index);
  EXPECT_EQ(indexes, (std::vector<uint64_t>{5, 4000, 9, 10, UINT64_MAX - 1}));
}

TEST(ProgramWriter, EveryCommand) {
  ProgramWriter w;
  w.Put(K::Literal("k"), 5)
      .Get(K::Literal("k"))
      .Delete(K::Literal("k"))
      .GetNth(I::Exact(0))
      .DeleteNth(I::Exact(1))
      .Scan(K::Literal("a"), 9)
      .Size()
      .Check();
  const std::vector<Op> expected = {
      Op::Put("k", "v0:v0"), Op::Get("k"),     Op::Delete("k"), Op::GetNth(0),
      Op::DeleteNth(1),      Op::Scan("a", 9), Op::Size(),      Op::Check(),
  };
  EXPECT_EQ(Decode(w.bytes()).ops, expected);
}

}  // namespace
}  // namespace kvlab::fuzz
