#include "kvlab/ect/elias_gamma.h"

#include <bit>
#include <cassert>

namespace kvlab::ect {

int EliasGammaLength(uint64_t x) {
  assert(x >= 1);
  return 2 * (63 - std::countl_zero(x)) + 1;
}

void WriteEliasGamma(uint64_t x, BitWriter* out) {
  // handout: WriteEliasGamma -> #3-the-codes
  assert(x >= 1);
  const int n = 63 - std::countl_zero(x);
  out->WriteZeros(static_cast<uint64_t>(n));
  out->Write(x, n + 1);
  // handout: end
}

uint64_t ReadEliasGamma(BitReader* in) {
  // handout: ReadEliasGamma -> #3-the-codes
  const int n = in->ReadZerosThenOne(63);
  if (n > 63 || in->overrun()) return 0;
  const uint64_t rest = in->Read(n);
  if (in->overrun()) return 0;
  return (uint64_t{1} << n) | rest;
  // handout: end
}

}  // namespace kvlab::ect
