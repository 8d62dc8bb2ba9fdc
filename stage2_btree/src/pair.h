// A key-value pair as the B-tree stores it: one malloc'd block per pair,
// outside the nodes, so a node slot is a fixed-size pointer whatever the
// key and value lengths.
//
//   offset 0  key_size    2 bytes  0..1024
//          2  value_size  2 bytes  0..4096
//          4  key bytes, then value bytes
//
// Also here: the 8-byte key prefix the nodes keep beside each pair pointer
// so that most comparisons need not follow it. Keys compare with CompareKeys
// (kvlab/key_order.h).

#ifndef KVLAB_STAGE2_SRC_PAIR_H_
#define KVLAB_STAGE2_SRC_PAIR_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "kvlab/coding.h"
#include "kvlab/key_order.h"
#include "kvlab/kv_store.h"

namespace kvlab::stage2 {

struct Pair {
  uint16_t key_size;
  uint16_t value_size;
};

static_assert(sizeof(Pair) == 4, "the pair header is two 16-bit lengths");
static_assert(kMaxKeySize <= UINT16_MAX && kMaxValueSize <= UINT16_MAX,
              "lengths fit in 16 bits");

inline std::string_view KeyOf(const Pair* pair) {
  return {reinterpret_cast<const char*>(pair + 1), pair->key_size};
}
inline std::string_view ValueOf(const Pair* pair) {
  return {reinterpret_cast<const char*>(pair + 1) + pair->key_size,
          pair->value_size};
}

// The bytes one pair block takes, as requested from malloc.
inline size_t PairBytes(size_t key_size, size_t value_size) {
  return sizeof(Pair) + key_size + value_size;
}
inline size_t PairBytes(const Pair* pair) {
  return PairBytes(pair->key_size, pair->value_size);
}

// The first 8 bytes of `key` as a big-endian number, zero-padded. Prefixes
// are ordered like their keys but not strictly: a < b implies
// KeyPrefix(a) <= KeyPrefix(b), so unequal prefixes decide a comparison and
// only equal ones need the full keys ("a" and "a\0" share a prefix).
inline uint64_t KeyPrefix(std::string_view key) {
  uint8_t bytes[8] = {};
  std::memcpy(bytes, key.data(), key.size() < 8 ? key.size() : 8);
  return LoadBE64(bytes);
}

// Pair blocks are allocated with malloc. Each function adds or subtracts the
// exact bytes it requested or released to `*bytes` (allocator headers and
// rounding excluded). NewPair throws std::bad_alloc when memory runs out.
Pair* NewPair(std::string_view key, std::string_view value, size_t* bytes);

// Gives `pair` the value `value`; returns the pair, which is a new block if
// the value's length changed (the caller stores the new pointer).
Pair* ReplaceValue(Pair* pair, std::string_view value, size_t* bytes);

void FreePair(Pair* pair, size_t* bytes);

}  // namespace kvlab::stage2

#endif  // KVLAB_STAGE2_SRC_PAIR_H_
