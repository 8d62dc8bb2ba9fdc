// Bit-granular writing and reading, most significant bit first.
//
// A bit string is kept in 64-bit words: bit i of the string is bit 63 - i % 64
// of word i / 64, so the string reads left to right as the words are printed
// in binary. The entropy-coded tries of this room (trie_coder.h) are such
// strings, concatenated for all buckets of a store.

#ifndef KVLAB_ECT_BIT_STREAM_H_
#define KVLAB_ECT_BIT_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kvlab::ect {

// Appends bits to a growing bit string. Not thread-safe.
class BitWriter {
 public:
  BitWriter() = default;

  // Appends the low `count` bits of `bits` (0 <= count <= 64), the most
  // significant of them first. Higher bits of `bits` are ignored.
  void Write(uint64_t bits, int count);

  void WriteBit(bool bit) { Write(bit ? 1 : 0, 1); }

  // Appends `count` zero bits (any count).
  void WriteZeros(uint64_t count);

  // The number of bits written so far.
  uint64_t size() const { return size_; }

  // The words holding the bits; the unused low bits of the last word are 0.
  const std::vector<uint64_t>& words() const { return words_; }

  // Hands over the words and leaves the writer empty.
  std::vector<uint64_t> Release();

 private:
  std::vector<uint64_t> words_;
  uint64_t size_ = 0;
};

// Reads bits from a bit string written by BitWriter, from any bit position.
// Reading past the end gives zero bits and sets overrun(), so that a decoder
// of corrupt data stops instead of reading out of bounds. Not thread-safe;
// any number of readers may share the words.
class BitReader {
 public:
  // Reads the `size_bits` bits of `words`, starting at bit `position`.
  BitReader(const uint64_t* words, uint64_t size_bits, uint64_t position = 0)
      : words_(words), size_(size_bits), position_(position) {}

  // The next `count` bits (0 <= count <= 64) as a number, the first read
  // most significant.
  uint64_t Read(int count);

  bool ReadBit() { return Read(1) != 0; }

  // Reads zero bits up to and including the first one bit and returns how
  // many zeros there were, or `limit` + 1 (having read limit + 1 zeros) if
  // more than `limit` zeros come first.
  int ReadZerosThenOne(int limit);

  uint64_t position() const { return position_; }
  uint64_t size() const { return size_; }

  // True once a read asked for a bit at or past size().
  bool overrun() const { return overrun_; }

 private:
  const uint64_t* words_;
  uint64_t size_;
  uint64_t position_;
  bool overrun_ = false;
};

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_BIT_STREAM_H_
