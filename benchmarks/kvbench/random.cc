#include "kvbench/random.h"

#include <numeric>

namespace kvbench {
namespace {

constexpr std::string_view kLetters =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

}  // namespace

uint64_t DeriveSeed(uint64_t seed, uint64_t stream) {
  // SplitMix64's finaliser over the pair; the odd constant separates streams.
  uint64_t z = seed + (stream + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void AppendRandomLetters(Rng& rng, size_t length, std::string* out) {
  for (size_t i = 0; i < length; ++i) {
    out->push_back(kLetters[Below(rng, kLetters.size())]);
  }
}

void AppendRandomPrintable(Rng& rng, size_t length, std::string* out) {
  for (size_t i = 0; i < length; ++i) {
    out->push_back(static_cast<char>(32 + Below(rng, 95)));
  }
}

std::string RandomCourseKey(Rng& rng) {
  std::string key;
  AppendRandomLetters(rng, 1 + Below(rng, 64), &key);
  return key;
}

std::string RandomCourseValue(Rng& rng) {
  std::string value;
  AppendRandomPrintable(rng, 1 + Below(rng, 255), &value);
  return value;
}

std::vector<uint32_t> RandomPermutation(uint32_t n, Rng& rng) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  Shuffle(order, rng);
  return order;
}

}  // namespace kvbench
