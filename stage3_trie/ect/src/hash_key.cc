#include "kvlab/ect/hash_key.h"

#include <bit>

#include "kvlab/coding.h"

namespace kvlab::ect {
namespace {

constexpr uint64_t kMul1 = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio
constexpr uint64_t kMul2 = 0xc2b2ae3d27d4eb4fULL;
constexpr uint64_t kMul3 = 0x165667b19e3779f9ULL;

// MurmurHash3's fmix64: every input bit flips each output bit with
// probability close to 1/2.
uint64_t Avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

uint64_t Fold(uint64_t h, uint64_t word) {
  word *= kMul2;
  word = std::rotl(word, 31);
  word *= kMul1;
  h ^= word;
  return std::rotl(h, 27) * 5 + kMul3;
}

}  // namespace

uint64_t HashKey64(std::string_view key) {
  const auto* p = reinterpret_cast<const uint8_t*>(key.data());
  size_t n = key.size();
  uint64_t h = kMul3 ^ (uint64_t{n} * kMul1);
  while (n >= 8) {
    h = Fold(h, LoadLE64(p));
    p += 8;
    n -= 8;
  }
  uint64_t tail = 0;
  for (size_t i = 0; i < n; ++i) tail |= uint64_t{p[i]} << (8 * i);
  // The tail is folded in even when empty, so "" and "\0" differ by length
  // alone and still avalanche.
  h = Fold(h, tail ^ (uint64_t{n} << 56));
  return Avalanche(h);
}

}  // namespace kvlab::ect
