#include "pair.h"

#include <cstdlib>
#include <new>

namespace kvlab::stage2 {

Pair* NewPair(std::string_view key, std::string_view value, size_t* bytes) {
  const size_t size = PairBytes(key.size(), value.size());
  auto* pair = static_cast<Pair*>(std::malloc(size));
  if (pair == nullptr) throw std::bad_alloc();
  pair->key_size = static_cast<uint16_t>(key.size());
  pair->value_size = static_cast<uint16_t>(value.size());
  char* data = reinterpret_cast<char*>(pair + 1);
  // Empty views may hold null pointers, which memcpy must not get.
  if (!key.empty()) std::memcpy(data, key.data(), key.size());
  if (!value.empty())
    std::memcpy(data + key.size(), value.data(), value.size());
  *bytes += size;
  return pair;
}

Pair* ReplaceValue(Pair* pair, std::string_view value, size_t* bytes) {
  if (value.size() == pair->value_size) {
    if (!value.empty()) {
      std::memcpy(reinterpret_cast<char*>(pair + 1) + pair->key_size,
                  value.data(), value.size());
    }
    return pair;
  }
  Pair* replacement = NewPair(KeyOf(pair), value, bytes);
  FreePair(pair, bytes);
  return replacement;
}

void FreePair(Pair* pair, size_t* bytes) {
  *bytes -= PairBytes(pair);
  std::free(pair);
}

}  // namespace kvlab::stage2
