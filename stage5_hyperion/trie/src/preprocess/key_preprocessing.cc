#include "preprocess/key_preprocessing.h"

#include <cstring>
#include <utility>

namespace kvlab::stage5 {
namespace {

// Key bytes 1..3 are the spread bytes; they become transformed bytes 1..4.
constexpr size_t kFirstSpread = 1;
constexpr size_t kSpreadKeyBytes = 3;

// How many key bytes after byte 0 take part in the spreading.
size_t SpreadBytes(size_t key_size) {
  if (key_size <= kFirstSpread) return 0;
  size_t n = key_size - kFirstSpread;
  return n < kSpreadKeyBytes ? n : kSpreadKeyBytes;
}

// 6-bit groups needed for `bytes` spread bytes: 8 bits -> 2, 16 -> 3, 24 -> 4.
size_t GroupsFor(size_t bytes) { return (bytes * 8 + 5) / 6; }

}  // namespace

void PreprocessKey(std::string_view key, uint8_t* out) {
  const auto* in = reinterpret_cast<const uint8_t*>(key.data());
  if (key.empty()) return;
  out[0] = in[0];
  const size_t spread = SpreadBytes(key.size());
  // The spread bytes as one big-endian number, left-aligned in 24 bits, so
  // missing bytes of a short key read as the zero padding.
  uint32_t bits = 0;
  for (size_t i = 0; i < spread; ++i) {
    bits |= uint32_t{in[kFirstSpread + i]} << (16 - 8 * i);
  }
  const size_t groups = GroupsFor(spread);
  for (size_t g = 0; g < groups; ++g) {
    const uint32_t six = (bits >> (18 - 6 * g)) & 0x3F;
    out[kFirstSpread + g] = static_cast<uint8_t>(six << 2);
  }
  const size_t rest_from = kFirstSpread + spread;
  if (key.size() > rest_from) {
    std::memcpy(out + kFirstSpread + groups, in + rest_from,
                key.size() - rest_from);
  }
}

std::string PreprocessKey(std::string_view key) {
  std::string out(PreprocessedSize(key.size()), '\0');
  PreprocessKey(key, reinterpret_cast<uint8_t*>(out.data()));
  return out;
}

bool RestoreKey(std::string_view transformed, uint8_t* out, size_t* key_size) {
  const auto* in = reinterpret_cast<const uint8_t*>(transformed.data());
  const size_t size = transformed.size();
  if (size <= 1) {
    if (size == 1) out[0] = in[0];
    *key_size = size;
    return true;
  }
  if (size == 2) return false;  // No key transforms to two bytes.
  const size_t original = size - 1;
  const size_t spread = SpreadBytes(original);
  const size_t groups = GroupsFor(spread);
  uint32_t bits = 0;
  for (size_t g = 0; g < groups; ++g) {
    const uint8_t byte = in[kFirstSpread + g];
    if ((byte & 0x3) != 0) return false;
    bits |= (uint32_t{byte} >> 2) << (18 - 6 * g);
  }
  // Padding bits below the last spread byte must be zero as well.
  const uint32_t used_mask = spread == 0 ? 0 : (~0u << (24 - 8 * spread));
  if ((bits & ~used_mask & 0xFFFFFF) != 0) return false;
  out[0] = in[0];
  for (size_t i = 0; i < spread; ++i) {
    out[kFirstSpread + i] = static_cast<uint8_t>(bits >> (16 - 8 * i));
  }
  const size_t rest_from = kFirstSpread + groups;
  if (size > rest_from) {
    // memmove: restored in place, the rest moves down by one byte.
    std::memmove(out + kFirstSpread + spread, in + rest_from, size - rest_from);
  }
  *key_size = original;
  return true;
}

bool RestoreKey(std::string_view transformed, std::string* key) {
  std::string out(transformed.size(), '\0');
  size_t n = 0;
  if (!RestoreKey(transformed, reinterpret_cast<uint8_t*>(out.data()), &n)) {
    return false;
  }
  out.resize(n);
  *key = std::move(out);
  return true;
}

}  // namespace kvlab::stage5
