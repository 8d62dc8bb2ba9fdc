#include "kvlab/testing/key_generator.h"

#include <algorithm>

namespace kvlab::testing {
namespace {

// Stems that many keys start with: the empty stem, short ones, and long ones
// so that keys share long prefixes and are prefixes of each other.
std::vector<std::string> MakeStems(std::mt19937_64& rng, size_t max_length) {
  std::vector<std::string> stems = {"",
                                    "a",
                                    "ab",
                                    "abc",
                                    std::string(1, '\0'),
                                    "\xff",
                                    "http://www.example.com/"};
  for (int i = 0; i < 6; ++i) {
    std::string stem;
    size_t length = std::uniform_int_distribution<size_t>(
        8, std::max<size_t>(8, max_length / 2))(rng);
    for (size_t j = 0; j < length; ++j) stem.push_back('a' + rng() % 3);
    stems.push_back(stem);
  }
  for (std::string& stem : stems) {
    if (stem.size() > max_length) stem.resize(max_length);
  }
  return stems;
}

}  // namespace

KeyGenerator::KeyGenerator(uint64_t seed, size_t pool_size,
                           size_t max_key_length)
    : rng_(seed) {
  std::vector<std::string> stems = MakeStems(rng_, max_key_length);
  pool_.reserve(pool_size);
  for (size_t i = 0; i < pool_size; ++i) {
    std::string key = stems[rng_() % stems.size()];
    size_t room = max_key_length - key.size();
    // Short tails make prefix chains ("ab", "abc", ...); a few tails are long.
    size_t tail = rng_() % 4 == 0 ? rng_() % (room + 1)
                                  : std::min<size_t>(room, rng_() % 4);
    if (rng_() % 2 == 0) {
      key += RandomBytes(tail);  // any byte value
    } else {
      for (size_t j = 0; j < tail; ++j) key.push_back('a' + rng_() % 4);
    }
    pool_.push_back(std::move(key));
  }
}

const std::string& KeyGenerator::PooledKey() {
  // Half the draws come from the first eighth of the pool: a hot set.
  size_t limit =
      rng_() % 2 == 0 ? std::max<size_t>(1, pool_.size() / 8) : pool_.size();
  return pool_[rng_() % limit];
}

std::string KeyGenerator::FreshKey() { return RandomBytes(1 + rng_() % 24); }

std::string KeyGenerator::Value(size_t max_length) {
  return RandomBytes(rng_() % (max_length + 1));
}

std::string KeyGenerator::RandomBytes(size_t length) {
  std::string bytes(length, '\0');
  for (char& c : bytes) c = static_cast<char>(rng_() & 0xff);
  return bytes;
}

}  // namespace kvlab::testing
