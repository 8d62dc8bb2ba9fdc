// Alphabet: the bytes an array trie can branch on, and their slot numbers.
//
// An array-trie node holds one child pointer per alphabet symbol, so the
// alphabet fixes the node size: 8 bytes a symbol. Two alphabets exist:
//
//   bytes    all 256 byte values, so any key can be stored (the default)
//   letters  the course report's 52 letters, A-Z then a-z
//
// Slots follow byte order (slot i < slot j exactly when byte i < byte j), so
// walking a node's array from slot 0 up visits its children in key order.

#ifndef KVLAB_STAGE3_ALPHABET_H_
#define KVLAB_STAGE3_ALPHABET_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace kvlab::stage3 {

class Alphabet {
 public:
  static Alphabet AllBytes();
  static Alphabet Letters();

  // "bytes" or "letters", as the option is spelled.
  std::string_view name() const { return name_; }
  int size() const { return size_; }

  // The slot of `byte`, or -1 if the alphabet lacks it.
  int SlotOf(uint8_t byte) const { return slot_of_[byte]; }
  // The byte in slot `slot`, 0 <= slot < size().
  uint8_t ByteAt(int slot) const { return byte_at_[slot]; }
  // The first slot whose byte is >= `byte`; size() if there is none.
  int FirstSlotAtLeast(uint8_t byte) const {
    return first_slot_at_least_[byte];
  }

  // OK if every byte of `key` is in the alphabet, otherwise InvalidArgument
  // naming the alphabet, the first offending byte and its position.
  absl::Status Check(std::string_view key) const;

 private:
  Alphabet(std::string_view name, std::string_view bytes);

  std::string_view name_;
  int size_ = 0;
  std::array<int16_t, 256> slot_of_;
  std::array<uint8_t, 256> byte_at_;
  std::array<int16_t, 256> first_slot_at_least_;
};

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_ALPHABET_H_
