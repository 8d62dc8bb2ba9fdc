// Deterministic randomness for kvbench: every random choice the driver makes
// is derived from --seed through these helpers, so a run is reproducible on
// any machine with any standard library (std::uniform_int_distribution and
// std::shuffle are implementation-defined; these are not).

#ifndef KVBENCH_RANDOM_H_
#define KVBENCH_RANDOM_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kvbench {

using Rng = std::mt19937_64;

// Independent streams of one seed, one per purpose.
enum class Stream : uint64_t {
  kDataSet = 1,
  kGetOrder = 2,
  kCourseCheck = 3,
  kCourseThread = 100,  // + thread index
};

// A seed for `stream` derived from `seed` by SplitMix64 mixing, so nearby
// seeds and streams give unrelated generators.
uint64_t DeriveSeed(uint64_t seed, uint64_t stream);
inline uint64_t DeriveSeed(uint64_t seed, Stream stream) {
  return DeriveSeed(seed, static_cast<uint64_t>(stream));
}

// A number in [0, bound), or 0 when bound is 0. Lemire's multiply-shift
// without rejection: the bias is below bound / 2^64, far below noise.
inline uint64_t Below(Rng& rng, uint64_t bound) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(rng()) * bound) >> 64);
}

// Appends `length` letters drawn uniformly from [a-zA-Z].
void AppendRandomLetters(Rng& rng, size_t length, std::string* out);

// Appends `length` bytes drawn uniformly from printable ASCII 32..126.
void AppendRandomPrintable(Rng& rng, size_t length, std::string* out);

// A course key: 1 to 64 random letters, the length uniform.
std::string RandomCourseKey(Rng& rng);

// A course value: 1 to 255 printable bytes, the length uniform.
std::string RandomCourseValue(Rng& rng);

// The numbers 0..n-1 in a random order (Fisher-Yates).
std::vector<uint32_t> RandomPermutation(uint32_t n, Rng& rng);

// Shuffles `items` in place (Fisher-Yates).
template <typename T>
void Shuffle(std::vector<T>& items, Rng& rng) {
  for (size_t i = items.size(); i > 1; --i) {
    std::swap(items[i - 1], items[Below(rng, i)]);
  }
}

}  // namespace kvbench

#endif  // KVBENCH_RANDOM_H_
