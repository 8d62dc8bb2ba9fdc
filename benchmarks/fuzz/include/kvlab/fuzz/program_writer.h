// Writes fuzz inputs (the format of program.h) from readable calls, for the
// seed corpus and the tests:
//
//   ProgramWriter w;
//   w.Put(KeyExpr::Repeat('\0', 1024), 200)
//       .Repeat(400)
//       .Put(KeyExpr::Concat({KeyExpr::Literal("ab"), KeyExpr::Counter(4, 1)}),
//            8)
//       .Scan(KeyExpr::Recent(0), 0);
//   std::string input = w.bytes();
//
// Arguments the format cannot express (a length of 8192 or more, a Counter
// radix other than 1..15 and 256) are programming errors: the writer aborts
// with a message.

#ifndef KVLAB_FUZZ_PROGRAM_WRITER_H_
#define KVLAB_FUZZ_PROGRAM_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace kvlab::fuzz {

// The encoding of one length (program.h), shortest form first.
std::string EncodeLength(size_t length);

// A key expression's bytes.
class KeyExpr {
 public:
  static KeyExpr Recent(int p);
  // Any length: literals past 255 bytes become a Concat of pieces.
  static KeyExpr Literal(std::string_view bytes);
  static KeyExpr Repeat(char byte, size_t n);
  static KeyExpr Concat(std::initializer_list<KeyExpr> parts);
  static KeyExpr Prefix(size_t n, const KeyExpr& key);
  static KeyExpr DropTail(uint8_t n, const KeyExpr& key);
  static KeyExpr SetByte(size_t i, char byte, const KeyExpr& key);
  static KeyExpr Increment(const KeyExpr& key);
  // The enclosing Repeat's pass i as (i / radix, offset + i % radix).
  static KeyExpr Counter(size_t radix, uint8_t offset);
  static KeyExpr PutKey(uint8_t j);
  static KeyExpr Empty();

  const std::string& bytes() const { return bytes_; }

 private:
  explicit KeyExpr(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string bytes_;
};

// An index operand for GetNth and DeleteNth.
class IndexExpr {
 public:
  // c * size / 192 for c < 192: 0 is the first pair, 96 the middle one.
  static IndexExpr Scaled(uint8_t c);
  // Exactly n (< 8192).
  static IndexExpr Exact(size_t n);
  // size - 8 + d for d < 16 (at least 0): FromEnd(7) is the last pair,
  // FromEnd(8) one past it.
  static IndexExpr FromEnd(uint8_t d);
  // UINT64_MAX - k for k < 16.
  static IndexExpr Huge(uint8_t k);

  const std::string& bytes() const { return bytes_; }

 private:
  explicit IndexExpr(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string bytes_;
};

class ProgramWriter {
 public:
  explicit ProgramWriter(uint8_t store_byte = 0);

  ProgramWriter& Put(const KeyExpr& key, size_t value_length);
  ProgramWriter& Get(const KeyExpr& key);
  ProgramWriter& Delete(const KeyExpr& key);
  ProgramWriter& GetNth(const IndexExpr& index);
  ProgramWriter& DeleteNth(const IndexExpr& index);
  // `limit` pairs at most; 0: all.
  ProgramWriter& Scan(const KeyExpr& start, uint8_t limit);
  ProgramWriter& Size();
  ProgramWriter& Check();
  // The next command runs `times` (>= 1) times.
  ProgramWriter& Repeat(size_t times);

  const std::string& bytes() const { return bytes_; }

 private:
  ProgramWriter& Command(uint8_t opcode, std::string_view operands);
  std::string bytes_;
};

}  // namespace kvlab::fuzz

#endif  // KVLAB_FUZZ_PROGRAM_WRITER_H_
