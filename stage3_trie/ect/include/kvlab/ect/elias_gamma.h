// Elias-gamma codes (P. Elias, "Universal codeword sets and representations
// of the integers", IEEE Transactions on Information Theory, 1975): a
// positive integer x with N = floor(log2 x) is written as N zero bits and
// then x itself in N + 1 bits, so 1 is "1", 2 is "010", 5 is "00101". Small
// numbers get short codes, and no table is needed: the trie coder uses them
// for the counts of tries too large for its Huffman tables.

#ifndef KVLAB_ECT_ELIAS_GAMMA_H_
#define KVLAB_ECT_ELIAS_GAMMA_H_

#include <cstdint>

#include "kvlab/ect/bit_stream.h"

namespace kvlab::ect {

// The number of bits of the code of `x` (x >= 1): 2 floor(log2 x) + 1.
int EliasGammaLength(uint64_t x);

// Appends the code of `x`, which must be >= 1.
void WriteEliasGamma(uint64_t x, BitWriter* out);

// Reads one code; returns its number, or 0 if the bits are not a code
// (more than 63 leading zeros, or the string ended inside it).
uint64_t ReadEliasGamma(BitReader* in);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_ELIAS_GAMMA_H_
