// The fuzzer's seed corpus (benchmarks/fuzz/corpus/), written from readable
// descriptions so that every seed can be reviewed and regenerated:
// kvlab_fuzz_seeds DIR writes them, and fuzz_program_test checks that the
// committed files are exactly these bytes.

#ifndef KVLAB_FUZZ_SEEDS_H_
#define KVLAB_FUZZ_SEEDS_H_

#include <string>
#include <vector>

namespace kvlab::fuzz {

struct Seed {
  std::string name;  // its file name in the corpus
  // The spec of the fuzz store list (stores.txt) it was written for; its
  // first byte picks that store when the fuzzer is given none, so a
  // reordered list changes the seed's bytes.
  std::string store;
  std::string description;  // one line: what it exercises
  std::string bytes;        // the input (program.h's format)
};

std::vector<Seed> Seeds();

}  // namespace kvlab::fuzz

#endif  // KVLAB_FUZZ_SEEDS_H_
