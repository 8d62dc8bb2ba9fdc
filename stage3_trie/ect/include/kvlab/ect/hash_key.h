// The hashkey: the 64-bit number that decides where a key lives in an
// entropy-coded trie store. Pairs are sorted by it, its top bits choose the
// bucket and the rest are the bits the bucket's trie branches on.
//
// The function is kvlab's own HashKey64: 8-byte little-endian words folded in
// with multiplications by odd 64-bit constants and rotations, the length and
// the tail bytes mixed last, and the result passed through the 64-bit
// avalanche finalizer of Austin Appleby's MurmurHash3 (fmix64). It is fixed
// forever: it is part of the file format (no seed, the same on every host).
//
// Why this is good enough: the trie coder's compression assumes each bit of
// each hashkey is 0 or 1 with probability 1/2 independently of the others
// (that is what makes a left count binomial), and the store needs collisions
// to be rare. A finalizer with full avalanche gives both for ordinary key
// sets (the tests check the bucket occupancy of sequential numbers, word-like
// keys and keys differing in one byte against the binomial's spread). It is
// not a keyed hash: someone choosing keys to collide could make buckets
// uneven or put several pairs under one hashkey, which costs time, never
// correctness (pairs with equal hashkeys share one slot, slot_format.h).

#ifndef KVLAB_ECT_HASH_KEY_H_
#define KVLAB_ECT_HASH_KEY_H_

#include <cstdint>
#include <string_view>

namespace kvlab::ect {

uint64_t HashKey64(std::string_view key);

// The bucket of `hashkey` among 2^bucket_bits buckets (0 <= bucket_bits <
// 64): its top bucket_bits bits.
inline uint64_t BucketOf(uint64_t hashkey, int bucket_bits) {
  return bucket_bits == 0 ? 0 : hashkey >> (64 - bucket_bits);
}

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_HASH_KEY_H_
