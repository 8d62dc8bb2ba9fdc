// The order of keys that every kvlab store keeps (kv_store.h): unsigned
// bytes, compared with memcmp over the common prefix, then the shorter key
// first. std::string_view's own comparison gives the same order; stores that
// walk their keys call CompareKeys for its three-way result.

#ifndef KVLAB_KEY_ORDER_H_
#define KVLAB_KEY_ORDER_H_

#include <cstddef>
#include <cstring>
#include <string_view>

namespace kvlab {

// Returns <0, 0 or >0 as `a` sorts before, equal to or after `b`, like
// memcmp. Inline: every step of every tree walk calls it.
inline int CompareKeys(std::string_view a, std::string_view b) {
  const size_t common = a.size() < b.size() ? a.size() : b.size();
  // memcmp compares as unsigned char; a zero length skips it because an
  // empty string_view may hold a null pointer, which memcmp must not get.
  if (common != 0) {
    if (int c = std::memcmp(a.data(), b.data(), common); c != 0) return c;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace kvlab

#endif  // KVLAB_KEY_ORDER_H_
