// The fuzzer's input format: a byte string decoded into a store choice and a
// list of store operations (a Program), so that libFuzzer's byte mutations
// become programs that reach unusual key shapes cheaply.
//
// Every byte string decodes to a program (there is no invalid input), and the
// same bytes always decode to the same program. The format:
//
//   input   := store-byte command*
//   command := opcode-byte operands
//
// The store byte picks a store from the fuzz store list when the fuzzer is
// not given one (kvlab_fuzz --store=SPEC or KVLAB_FUZZ_STORE=SPEC). The
// opcode byte modulo 16 names the command (the Opcode enum; 1-3 and 15 are
// also Put, 5 Get, 7 Delete, 11 Scan, so Put comes up most); its operands:
//
//   Put       key value      Get        key        Delete     key
//   GetNth    index          DeleteNth  index      Scan       key limit
//   Size      -              Check      -          Repeat     length command
//
// Repeat decodes the command after it `length` times, at least once (a
// Repeat right after a Repeat only reads its length); the key form kCounter
// gives each pass a key of its own.
//
// A key is an expression, its first byte's low four bits naming the form
// (KeyForm) and its high four bits a parameter p:
//
//   kRecent    the p-th most recent key decoded so far (0: the last one)
//   kLiteral   a byte n, then n bytes
//   kRepeat    a byte b, then a length n: b repeated n times
//   kConcat    two key expressions, one after the other
//   kPrefix    a length n, then a key: its first n bytes
//   kDropTail  a byte n, then a key: all but its last n bytes
//   kSetByte   a length i, a byte b, then a key: byte i (mod its size) set
//              to b; the empty key becomes "b"
//   kIncrement a key whose last byte is incremented, carrying into the bytes
//              before it (all 0xff: one 0x00 is appended instead)
//   kCounter   a byte c: the pass number i of the enclosing Repeat (0 outside
//              one) as two bytes, i / r and o + i % r, with radix r = c % 16
//              (0 meaning 256) and offset o = c / 16
//   kPutKey    a byte j: the (j * count / 256)-th of the keys that a Put
//              has added so far (a key deleted and put again counts twice)
//   kEmpty     the empty key
//   others     as kRecent
//
// Expressions nest at most kMaxKeyDepth deep (a deeper one is its head byte
// alone, and the empty key), and a key is cut at kMaxDecodedKey bytes, well
// past kMaxKeySize, so that oversized keys (refused by Put, absent to Get)
// are cheap to reach.
//
// A length is one byte c, sometimes two:
//   c < 0xa0          c itself (0..159)
//   0xa0 <= c < 0xe0  an edge E = kLengthEdges[(c - 0xa0) / 8] plus
//                     (c % 8) - 4: 124..131 around 128, 1020..1027 around
//                     1024, and so on
//   c >= 0xe0         (c - 0xe0) * 256 + the next byte (0..8191)
//
// A value is a length; its bytes are PatternValue(the op's position in the
// program, length), so every Put writes a value of its own. A length above
// kMaxValueSize must be refused by Put.
//
// An index (GetNth, DeleteNth) is one byte c, sometimes two, resolved
// against the number s of pairs the program has stored by then (counting
// every key and value within the limits):
//   c < 0xc0          c * s / 0xc0 (in range when s > 0)
//   0xc0 <= c < 0xe0  (c - 0xc0) * 256 + the next byte
//   0xe0 <= c < 0xf0  s - 8 + (c - 0xe0), at least 0: around the end
//   c >= 0xf0         UINT64_MAX - (c - 0xf0)
//
// A Scan limit is one byte: stop after that many pairs, 0 meaning never.
// An input that ends in the middle of a command reads zero bytes from there;
// decoding stops at kMaxOps operations.

#ifndef KVLAB_FUZZ_PROGRAM_H_
#define KVLAB_FUZZ_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvlab::fuzz {

enum class Opcode : uint8_t {
  kPut = 0,
  kGet = 4,
  kDelete = 6,
  kGetNth = 8,
  kDeleteNth = 9,
  kScan = 10,
  kSize = 12,
  kCheck = 13,
  kRepeat = 14,
};

enum class KeyForm : uint8_t {
  kRecent = 0,
  kLiteral = 1,
  kRepeat = 2,
  kConcat = 3,
  kPrefix = 4,
  kDropTail = 5,
  kSetByte = 6,
  kIncrement = 7,
  kCounter = 8,
  kPutKey = 9,
  kEmpty = 10,
};

inline constexpr size_t kLengthEdges[8] = {8,   32,  64,   128,
                                           256, 512, 1024, 4096};
inline constexpr int kMaxKeyDepth = 8;
inline constexpr size_t kMaxDecodedKey = 8192;
// Recent keys kRecent can name.
inline constexpr size_t kRecentKeys = 16;
// Operations one input may decode to, so that every input runs quickly.
inline constexpr size_t kMaxOps = 4096;

// One operation with its arguments resolved.
struct Op {
  enum class Kind : uint8_t {
    kPut,
    kGet,
    kDelete,
    kGetNth,
    kDeleteNth,
    kScan,
    kSize,
    kCheck
  };
  Kind kind = Kind::kSize;
  std::string key;     // Put, Get, Delete; Scan's start
  std::string value;   // Put
  uint64_t index = 0;  // GetNth, DeleteNth
  uint64_t limit = 0;  // Scan: pairs visited before it stops; 0: all

  static Op Put(std::string key, std::string value);
  static Op Get(std::string key);
  static Op Delete(std::string key);
  static Op GetNth(uint64_t index);
  static Op DeleteNth(uint64_t index);
  static Op Scan(std::string start, uint64_t limit);
  static Op Size();
  static Op Check();

  bool operator==(const Op&) const = default;
};

struct Program {
  uint8_t store_byte = 0;
  std::vector<Op> ops;
};

// The program `bytes` encode (see above). Never fails.
Program Decode(std::string_view bytes);

// The value of `length` bytes a Put at position `serial` writes: "v<serial>:"
// repeated and cut, e.g. PatternValue(17, 10) == "v17:v17:v1".
std::string PatternValue(size_t serial, size_t length);

// One line for a person, e.g. Put("\x00" x 1024 + "ab", 200 bytes).
std::string ToString(const Op& op);

// `bytes` quoted with C escapes, runs of 8 or more equal bytes written as
// "b" x n and joined with " + ".
std::string ShowBytes(std::string_view bytes);

}  // namespace kvlab::fuzz

#endif  // KVLAB_FUZZ_PROGRAM_H_
