// kvlab_fuzz_seeds DIR: writes the seed corpus (kvlab/fuzz/seeds.h) into
// DIR, one file per seed, and lists them.
//
//   build/debug/benchmarks/fuzz/kvlab_fuzz_seeds benchmarks/fuzz/corpus

#include <cstdio>
#include <fstream>
#include <string>

#include "kvlab/fuzz/program.h"
#include "kvlab/fuzz/seeds.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  for (const kvlab::fuzz::Seed& seed : kvlab::fuzz::Seeds()) {
    const std::string path = std::string(argv[1]) + "/" + seed.name;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(seed.bytes.data(),
              static_cast<std::streamsize>(seed.bytes.size()));
    out.close();
    if (!out) {
      std::fprintf(stderr, "kvlab_fuzz_seeds: cannot write %s\n", path.c_str());
      return 1;
    }
    std::printf("%-34s %5zu bytes %5zu ops  %s\n", seed.name.c_str(),
                seed.bytes.size(), kvlab::fuzz::Decode(seed.bytes).ops.size(),
                seed.description.c_str());
  }
  return 0;
}
