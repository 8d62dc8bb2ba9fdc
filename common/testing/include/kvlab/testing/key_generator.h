// Deterministic random keys and values for tests, built to find bugs: mixed
// lengths (the empty key included), every byte value, and skewed key sets
// that share long prefixes and are prefixes of each other.

#ifndef KVLAB_TESTING_KEY_GENERATOR_H_
#define KVLAB_TESTING_KEY_GENERATOR_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace kvlab::testing {

class KeyGenerator {
 public:
  // `pool_size` keys are drawn up front so operations revisit the same keys
  // (hits as well as misses); keys are derived from a few shared stems so
  // many share long prefixes. `max_key_length` caps key length.
  KeyGenerator(uint64_t seed, size_t pool_size, size_t max_key_length = 80);

  // A key from the pool, skewed so a few keys are drawn far more often.
  const std::string& PooledKey();
  // A fresh random key, almost always absent from the pool.
  std::string FreshKey();
  // A random value of 0 to `max_length` bytes, any byte values.
  std::string Value(size_t max_length = 64);

  std::mt19937_64& rng() { return rng_; }
  const std::vector<std::string>& pool() const { return pool_; }

 private:
  std::string RandomBytes(size_t length);

  std::mt19937_64 rng_;
  std::vector<std::string> pool_;
};

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_KEY_GENERATOR_H_
