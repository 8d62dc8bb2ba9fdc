// The entropy-coded trie of one bucket: a binary trie over the bits of the
// bucket's sorted, distinct 64-bit hashkeys, written as its pre-order
// sequence of left-subtree key counts (Lim, Andersen and Kaminsky,
// "Practical Batch-Updatable External Hashing with Sorting", ALENEX 2013).
//
// The trie branches on hashkey bits `first_bit`, first_bit + 1, ... (bit 0 is
// the most significant; the bits before first_bit chose the bucket). A
// subtree of at most one key is a leaf and writes nothing, so each key is
// cut to its shortest unique prefix. A subtree of n >= 2 keys writes its
// left count, then its left subtree, then its right subtree. A node whose
// keys all share the bit (left count 0 or n) writes the one-sided symbol 0
// and then only its non-empty child. A count of a subtree of n <= hmax keys
// is Huffman coded (huffman_tables.h); a larger one is Elias-gamma coded
// (elias_gamma.h) as zigzag(l - n / 2) + 1, with the one-sided case as l = 0.
//
// A bucket is the Elias-gamma code of its key count plus one, then its trie.
//
// Looking a hashkey up decodes only the counts of the nodes on its path and
// skips (parses without keeping) the left subtrees to the left of it; the
// answer is the number of the bucket's keys that sort before it, which is
// the key's rank when it is in the bucket. A hashkey that is not in the bucket
// gets some rank in [0, n): the caller confirms the key at that rank.

#ifndef KVLAB_ECT_TRIE_CODER_H_
#define KVLAB_ECT_TRIE_CODER_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/ect/bit_stream.h"
#include "kvlab/ect/huffman_tables.h"

namespace kvlab::ect {

// Appends the code of one left count `left` (0 <= left <= n) of a subtree of
// n >= 2 keys; left 0 and left n are both the one-sided symbol.
void WriteLeftCount(const HuffmanTables& tables, uint64_t n, uint64_t left,
                    BitWriter* out);

// Reads one left count of a subtree of n >= 2 keys: 0 for one-sided, else
// 1 .. n - 1. InvalidArgument (naming `n`) if the bits are not a code.
absl::StatusOr<uint64_t> ReadLeftCount(const HuffmanTables& tables, uint64_t n,
                                       BitReader* in);

// Appends the trie of `hashkeys` (sorted ascending, distinct, all sharing
// their first `first_bit` bits; 0 <= first_bit < 64).
void EncodeTrie(const HuffmanTables& tables, std::span<const uint64_t> hashkeys,
                int first_bit, BitWriter* out);

// Appends a bucket: its key count, then EncodeTrie.
void EncodeBucket(const HuffmanTables& tables,
                  std::span<const uint64_t> hashkeys, int first_bit,
                  BitWriter* out);

// What a lookup in a bucket found.
struct BucketRank {
  uint64_t keys = 0;  // the bucket's key count
  uint64_t rank = 0;  // < keys when keys > 0
};

// Reads a bucket at `in`'s position and returns its key count and the rank
// of `hashkey` in it. InvalidArgument if the bits are not a bucket (corrupt:
// a bad code, or a path deeper than the hashkey's 64 bits).
absl::StatusOr<BucketRank> LookupBucket(const HuffmanTables& tables,
                                        uint64_t hashkey, int first_bit,
                                        BitReader* in);

// The rank of `hashkey` in the trie of n keys at `in`'s position.
absl::StatusOr<uint64_t> LookupTrie(const HuffmanTables& tables, uint64_t n,
                                    uint64_t hashkey, int first_bit,
                                    BitReader* in);

// Reads past the trie of n keys at `in`'s position.
absl::Status SkipTrie(const HuffmanTables& tables, uint64_t n, int first_bit,
                      BitReader* in);

// One node of a decoded trie, for drawings and tests: the bit it branches
// on, its key count, and its left count (0 for one-sided; unused for a leaf,
// keys <= 1).
struct TrieNode {
  int bit = 0;
  uint64_t keys = 0;
  uint64_t left = 0;
  uint64_t first_bit_offset = 0;  // where its count's code starts in the string
  uint64_t code_bits = 0;         // the length of that code
};

// Decodes the whole bucket at `in`'s position into its nodes in pre-order
// (a one-sided node is followed by its only child). InvalidArgument if corrupt.
absl::StatusOr<std::vector<TrieNode>> DecodeBucket(const HuffmanTables& tables,
                                                   int first_bit,
                                                   BitReader* in);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_TRIE_CODER_H_
