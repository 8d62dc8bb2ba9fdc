#include "kvlab/ect/bit_stream.h"

#include <utility>

namespace kvlab::ect {

void BitWriter::Write(uint64_t bits, int count) {
  // handout: BitWriter::Write -> #bits-most-significant-first
  if (count <= 0) return;
  if (count < 64) bits &= (uint64_t{1} << count) - 1;
  const int used = static_cast<int>(size_ % 64);
  if (used == 0) {
    words_.push_back(bits << (64 - count));  // at the top of a new word
  } else {
    const int free = 64 - used;
    if (count <= free) {
      words_.back() |= bits << (free - count);
    } else {
      words_.back() |= bits >> (count - free);
      words_.push_back(bits << (64 - (count - free)));
    }
  }
  size_ += static_cast<uint64_t>(count);
  // handout: end
}

void BitWriter::WriteZeros(uint64_t count) {
  while (count >= 64) {
    Write(0, 64);
    count -= 64;
  }
  Write(0, static_cast<int>(count));
}

std::vector<uint64_t> BitWriter::Release() {
  size_ = 0;
  return std::exchange(words_, {});
}

uint64_t BitReader::Read(int count) {
  // handout: BitReader::Read -> #bits-most-significant-first
  if (count <= 0) return 0;
  if (position_ + static_cast<uint64_t>(count) > size_) {
    // Past the end: the bits that exist, then zeros.
    overrun_ = true;
    uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
      value <<= 1;
      if (position_ < size_) {
        value |= (words_[position_ / 64] >> (63 - position_ % 64)) & 1;
      }
      ++position_;
    }
    return value;
  }
  const uint64_t word = position_ / 64;
  const int used = static_cast<int>(position_ % 64);
  const int available = 64 - used;
  uint64_t value;
  if (count <= available) {
    value = (words_[word] << used) >> (64 - count);
  } else {
    const int rest = count - available;
    const uint64_t high = (words_[word] << used) >> used;  // its low bits
    value = (high << rest) | (words_[word + 1] >> (64 - rest));
  }
  position_ += static_cast<uint64_t>(count);
  return value;
  // handout: end
}

int BitReader::ReadZerosThenOne(int limit) {
  int zeros = 0;
  while (zeros <= limit) {
    if (ReadBit()) return zeros;
    if (overrun_) return limit + 1;
    ++zeros;
  }
  return limit + 1;
}

}  // namespace kvlab::ect
