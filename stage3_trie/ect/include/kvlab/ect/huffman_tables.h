// Static Huffman codes for the left-subtree counts of small tries of hashed
// keys.
//
// In a trie of n hashed keys every key's next bit is 0 or 1 with probability
// 1/2 independently, so the number L of keys in the left subtree follows the
// binomial distribution: P(L = l) = C(n, l) / 2^n. The two one-sided cases
// l = 0 and l = n share one symbol, since a lookup of a stored key only needs
// to know that all keys went one way (Lim, Andersen and Kaminsky, "Practical
// Batch-Updatable External Hashing with Sorting", ALENEX 2013). So a trie of
// n >= 2 keys has n symbols: 0 for "one-sided" (probability 2 / 2^n) and
// l = 1 .. n - 1 for a split. For every n from 2 to hmax these tables hold a
// Huffman code over those symbols, built from the exact probabilities, in
// canonical form: codes of one length are consecutive numbers in symbol
// order, and shorter codes come first. The tables depend only on hmax, so
// nothing about them is stored with the data.
//
// Thread-safety: immutable after construction; any number of threads may
// encode and decode at once.

#ifndef KVLAB_ECT_HUFFMAN_TABLES_H_
#define KVLAB_ECT_HUFFMAN_TABLES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/ect/bit_stream.h"

namespace kvlab::ect {

// The largest hmax the tables support: a code is at most n - 1 bits, and
// codes are held in 64-bit words.
inline constexpr int kMaxHuffmanTrieSize = 64;

class HuffmanTables {
 public:
  // Builds the codes for tries of 2 .. hmax keys. InvalidArgument unless
  // 1 <= hmax <= kMaxHuffmanTrieSize (hmax 1: no tables, every count is
  // Elias-gamma coded).
  static absl::StatusOr<HuffmanTables> Build(int hmax);

  int hmax() const { return hmax_; }

  // The code of `symbol` (0 <= symbol < n) for a trie of n keys,
  // 2 <= n <= hmax: its length in bits and its bits (low `length` bits).
  int CodeLength(int n, int symbol) const;
  uint64_t Code(int n, int symbol) const;

  // Appends the code of `symbol` for a trie of n keys (2 <= n <= hmax).
  void Encode(int n, int symbol, BitWriter* out) const;

  // Reads one code for a trie of n keys (2 <= n <= hmax) and returns its
  // symbol, or -1 if the bits are not a code (the string ended).
  int Decode(int n, BitReader* in) const;

  // The expected code length in bits of a trie of n keys' count, and the
  // entropy of the count's distribution (both for 2 <= n <= hmax).
  double ExpectedLength(int n) const;
  static double Entropy(int n);

 private:
  // One n's canonical code.
  struct Table {
    std::vector<uint8_t> length;  // by symbol
    std::vector<uint64_t> code;   // by symbol
    // Decoding: for each length, the first code of that length, how many
    // codes have it, and where its symbols start in `sorted`.
    std::vector<uint64_t> first_code;
    std::vector<int> count;
    std::vector<int> start;
    std::vector<int> sorted;  // symbols by (length, symbol)
  };

  explicit HuffmanTables(int hmax) : hmax_(hmax) {}
  static Table BuildTable(int n);

  int hmax_;
  std::vector<Table> tables_;  // tables_[n], for 2 <= n <= hmax
};

// The probability of symbol `symbol` in a trie of n >= 2 keys, as above.
double CountProbability(int n, int symbol);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_HUFFMAN_TABLES_H_
