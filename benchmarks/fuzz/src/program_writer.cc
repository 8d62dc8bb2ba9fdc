#include "kvlab/fuzz/program_writer.h"

#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "kvlab/fuzz/program.h"

namespace kvlab::fuzz {
namespace {

[[noreturn]] void Unencodable(const char* what, size_t n) {
  std::fprintf(stderr, "ProgramWriter: %s %zu cannot be encoded\n", what, n);
  std::abort();
}

char Head(KeyForm form, size_t p = 0) {
  return static_cast<char>((p << 4) | static_cast<uint8_t>(form));
}

std::string Byte(size_t b) { return std::string(1, static_cast<char>(b)); }

}  // namespace

std::string EncodeLength(size_t length) {
  if (length < 0xa0) return Byte(length);
  for (size_t e = 0; e < std::size(kLengthEdges); ++e) {
    if (length + 4 >= kLengthEdges[e] && length < kLengthEdges[e] + 4) {
      return Byte(0xa0 + e * 8 + (length + 4 - kLengthEdges[e]));
    }
  }
  if (length >= 8192) Unencodable("length", length);
  return Byte(0xe0 + length / 256) + Byte(length % 256);
}

KeyExpr KeyExpr::Recent(int p) {
  if (p < 0 || p >= int{kRecentKeys}) Unencodable("recent key", size_t(p));
  return KeyExpr(std::string(1, Head(KeyForm::kRecent, size_t(p))));
}

KeyExpr KeyExpr::Literal(std::string_view bytes) {
  if (bytes.size() <= 255) {
    return KeyExpr(std::string(1, Head(KeyForm::kLiteral)) +
                   Byte(bytes.size()) + std::string(bytes));
  }
  return Concat({Literal(bytes.substr(0, 255)), Literal(bytes.substr(255))});
}

KeyExpr KeyExpr::Repeat(char byte, size_t n) {
  return KeyExpr(std::string(1, Head(KeyForm::kRepeat)) + byte +
                 EncodeLength(n));
}

KeyExpr KeyExpr::Concat(std::initializer_list<KeyExpr> parts) {
  if (parts.size() == 0) return Empty();
  // Concat(a, Concat(b, c)): one head per join.
  std::string bytes = std::prev(parts.end())->bytes();
  for (auto it = std::prev(parts.end()); it != parts.begin();) {
    --it;
    bytes = std::string(1, Head(KeyForm::kConcat)) + it->bytes() + bytes;
  }
  return KeyExpr(std::move(bytes));
}

KeyExpr KeyExpr::Prefix(size_t n, const KeyExpr& key) {
  return KeyExpr(std::string(1, Head(KeyForm::kPrefix)) + EncodeLength(n) +
                 key.bytes());
}

KeyExpr KeyExpr::DropTail(uint8_t n, const KeyExpr& key) {
  return KeyExpr(std::string(1, Head(KeyForm::kDropTail)) + Byte(n) +
                 key.bytes());
}

KeyExpr KeyExpr::SetByte(size_t i, char byte, const KeyExpr& key) {
  return KeyExpr(std::string(1, Head(KeyForm::kSetByte)) + EncodeLength(i) +
                 byte + key.bytes());
}

KeyExpr KeyExpr::Increment(const KeyExpr& key) {
  return KeyExpr(std::string(1, Head(KeyForm::kIncrement)) + key.bytes());
}

KeyExpr KeyExpr::Counter(size_t radix, uint8_t offset) {
  if (radix == 0 || (radix > 15 && radix != 256)) {
    Unencodable("counter radix", radix);
  }
  if (offset > 15) Unencodable("counter offset", offset);
  return KeyExpr(std::string(1, Head(KeyForm::kCounter)) +
                 Byte(offset * 16 + radix % 256));
}

KeyExpr KeyExpr::PutKey(uint8_t j) {
  return KeyExpr(std::string(1, Head(KeyForm::kPutKey)) + Byte(j));
}

KeyExpr KeyExpr::Empty() {
  return KeyExpr(std::string(1, Head(KeyForm::kEmpty)));
}

IndexExpr IndexExpr::Scaled(uint8_t c) {
  if (c >= 0xc0) Unencodable("scaled index", c);
  return IndexExpr(Byte(c));
}

IndexExpr IndexExpr::Exact(size_t n) {
  if (n >= 8192) Unencodable("exact index", n);
  return IndexExpr(Byte(0xc0 + n / 256) + Byte(n % 256));
}

IndexExpr IndexExpr::FromEnd(uint8_t d) {
  if (d >= 16) Unencodable("index from the end", d);
  return IndexExpr(Byte(0xe0 + d));
}

IndexExpr IndexExpr::Huge(uint8_t k) {
  if (k >= 16) Unencodable("huge index", k);
  return IndexExpr(Byte(0xf0 + k));
}

ProgramWriter::ProgramWriter(uint8_t store_byte) : bytes_(Byte(store_byte)) {}

ProgramWriter& ProgramWriter::Command(uint8_t opcode,
                                      std::string_view operands) {
  bytes_.push_back(static_cast<char>(opcode));
  bytes_.append(operands);
  return *this;
}

ProgramWriter& ProgramWriter::Put(const KeyExpr& key, size_t value_length) {
  return Command(uint8_t(Opcode::kPut),
                 key.bytes() + EncodeLength(value_length));
}

ProgramWriter& ProgramWriter::Get(const KeyExpr& key) {
  return Command(uint8_t(Opcode::kGet), key.bytes());
}

ProgramWriter& ProgramWriter::Delete(const KeyExpr& key) {
  return Command(uint8_t(Opcode::kDelete), key.bytes());
}

ProgramWriter& ProgramWriter::GetNth(const IndexExpr& index) {
  return Command(uint8_t(Opcode::kGetNth), index.bytes());
}

ProgramWriter& ProgramWriter::DeleteNth(const IndexExpr& index) {
  return Command(uint8_t(Opcode::kDeleteNth), index.bytes());
}

ProgramWriter& ProgramWriter::Scan(const KeyExpr& start, uint8_t limit) {
  return Command(uint8_t(Opcode::kScan), start.bytes() + Byte(limit));
}

ProgramWriter& ProgramWriter::Size() {
  return Command(uint8_t(Opcode::kSize), "");
}

ProgramWriter& ProgramWriter::Check() {
  return Command(uint8_t(Opcode::kCheck), "");
}

ProgramWriter& ProgramWriter::Repeat(size_t times) {
  if (times == 0) Unencodable("repeat count", times);
  return Command(uint8_t(Opcode::kRepeat), EncodeLength(times));
}

}  // namespace kvlab::fuzz
