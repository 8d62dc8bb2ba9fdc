#include "kvlab/stage3/alphabet.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::stage3 {

Alphabet::Alphabet(std::string_view name, std::string_view bytes)
    : name_(name), size_(static_cast<int>(bytes.size())) {
  slot_of_.fill(-1);
  byte_at_.fill(0);
  for (int slot = 0; slot < size_; ++slot) {
    const uint8_t byte = static_cast<uint8_t>(bytes[slot]);
    slot_of_[byte] = static_cast<int16_t>(slot);
    byte_at_[slot] = byte;
  }
  // Filled downwards: the first slot at or above `b` is b's own slot if it
  // has one, else the answer for b + 1.
  int16_t next = static_cast<int16_t>(size_);
  for (int b = 255; b >= 0; --b) {
    if (slot_of_[b] >= 0) next = slot_of_[b];
    first_slot_at_least_[b] = next;
  }
}

Alphabet Alphabet::AllBytes() {
  std::string bytes(256, '\0');
  for (int b = 0; b < 256; ++b) bytes[b] = static_cast<char>(b);
  return Alphabet("bytes", bytes);
}

Alphabet Alphabet::Letters() {
  return Alphabet("letters",
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
}

absl::Status Alphabet::Check(std::string_view key) const {
  for (size_t i = 0; i < key.size(); ++i) {
    const uint8_t byte = static_cast<uint8_t>(key[i]);
    if (slot_of_[byte] >= 0) continue;
    char shown[8];
    std::snprintf(shown, sizeof(shown), "0x%02x", byte);
    return absl::InvalidArgumentError(
        absl::StrCat("key byte ", shown, " at position ", i, " is not in the ",
                     ToAbsl(name_), " alphabet (", size_, " symbols",
                     name_ == "letters" ? ": A-Z and a-z" : "", ")"));
  }
  return absl::OkStatus();
}

}  // namespace kvlab::stage3
