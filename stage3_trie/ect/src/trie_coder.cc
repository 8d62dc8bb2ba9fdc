#include "kvlab/ect/trie_coder.h"

#include <algorithm>
#include <cassert>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/elias_gamma.h"

namespace kvlab::ect {
namespace {

// Bit `bit` of `hashkey`, bit 0 the most significant.
inline bool BitAt(uint64_t hashkey, int bit) {
  return (hashkey >> (63 - bit)) & 1;
}

// handout: cut
// Elias-gamma codes a count l of a subtree of n keys by its distance from
// n / 2, where the binomial distribution has its peak.
uint64_t ZigZag(int64_t d) {
  return d >= 0 ? uint64_t(d) << 1 : (uint64_t(-(d + 1)) << 1) | 1;
}
int64_t UnZigZag(uint64_t z) {
  return (z & 1) ? -int64_t(z >> 1) - 1 : int64_t(z >> 1);
}
// handout: end

absl::Status Corrupt(const char* what, uint64_t n) {
  return absl::InvalidArgumentError(
      absl::StrCat("ect trie: ", what, " in a subtree of ", n, " keys"));
}

// handout: cut
void EncodeRange(const HuffmanTables& tables, std::span<const uint64_t> keys,
                 int bit, BitWriter* out) {
  // Walks down one-sided nodes in a loop and recurses only at real splits,
  // so the recursion depth is at most 64.
  while (keys.size() >= 2) {
    assert(bit < 64 && "hashkeys must be distinct");
    const auto split = std::partition_point(
        keys.begin(), keys.end(), [bit](uint64_t k) { return !BitAt(k, bit); });
    const auto left = static_cast<uint64_t>(split - keys.begin());
    WriteLeftCount(tables, keys.size(), left, out);
    ++bit;
    if (left == 0 || left == keys.size()) continue;
    EncodeRange(tables, keys.first(left), bit, out);
    keys = keys.subspan(left);
  }
}
// handout: end

}  // namespace

void WriteLeftCount(const HuffmanTables& tables, uint64_t n, uint64_t left,
                    BitWriter* out) {
  // handout: WriteLeftCount -> #3-the-codes
  assert(n >= 2 && left <= n);
  const uint64_t symbol = left == n ? 0 : left;
  if (n <= static_cast<uint64_t>(tables.hmax())) {
    tables.Encode(static_cast<int>(n), static_cast<int>(symbol), out);
  } else {
    WriteEliasGamma(
        ZigZag(static_cast<int64_t>(symbol) - static_cast<int64_t>(n / 2)) + 1,
        out);
  }
  // handout: end
}

absl::StatusOr<uint64_t> ReadLeftCount(const HuffmanTables& tables, uint64_t n,
                                       BitReader* in) {
  // handout: ReadLeftCount -> #3-the-codes
  if (n <= static_cast<uint64_t>(tables.hmax())) {
    const int symbol = tables.Decode(static_cast<int>(n), in);
    if (symbol < 0) return Corrupt("a bad Huffman code", n);
    return static_cast<uint64_t>(symbol);
  }
  const uint64_t code = ReadEliasGamma(in);
  if (code == 0) return Corrupt("a bad Elias-gamma code", n);
  const int64_t left = UnZigZag(code - 1) + static_cast<int64_t>(n / 2);
  if (left < 0 || left >= static_cast<int64_t>(n)) {
    return Corrupt("a left count out of range", n);
  }
  return static_cast<uint64_t>(left);
  // handout: end
}

void EncodeTrie(const HuffmanTables& tables, std::span<const uint64_t> hashkeys,
                int first_bit, BitWriter* out) {
  // handout: EncodeTrie -> #2-one-buckets-trie-and-its-bits
  assert(first_bit >= 0 && first_bit < 64);
  assert(std::is_sorted(hashkeys.begin(), hashkeys.end()));
  EncodeRange(tables, hashkeys, first_bit, out);
  // handout: end
}

void EncodeBucket(const HuffmanTables& tables,
                  std::span<const uint64_t> hashkeys, int first_bit,
                  BitWriter* out) {
  WriteEliasGamma(hashkeys.size() + 1, out);
  EncodeTrie(tables, hashkeys, first_bit, out);
}

absl::Status SkipTrie(const HuffmanTables& tables, uint64_t n, int first_bit,
                      BitReader* in) {
  // handout: SkipTrie -> #2-one-buckets-trie-and-its-bits
  // The subtrees still to be read, right before left, each with the bit it
  // branches on. A path is at most 64 bits deep, so at most 65 are pending.
  struct Pending {
    uint64_t keys;
    int bit;
  };
  Pending stack[66];
  int top = 0;
  stack[top++] = {n, first_bit};
  while (top > 0) {
    Pending p = stack[--top];
    while (p.keys >= 2) {
      if (p.bit >= 64) return Corrupt("a path longer than 64 bits", p.keys);
      absl::StatusOr<uint64_t> left = ReadLeftCount(tables, p.keys, in);
      if (!left.ok()) return left.status();
      ++p.bit;
      if (*left == 0) continue;
      stack[top++] = {p.keys - *left, p.bit};
      p.keys = *left;
    }
  }
  return absl::OkStatus();
  // handout: end
}

absl::StatusOr<uint64_t> LookupTrie(const HuffmanTables& tables, uint64_t n,
                                    uint64_t hashkey, int first_bit,
                                    BitReader* in) {
  // handout: LookupTrie -> #2-one-buckets-trie-and-its-bits
  uint64_t rank = 0;
  int bit = first_bit;
  while (n >= 2) {
    if (bit >= 64) return Corrupt("a path longer than 64 bits", n);
    absl::StatusOr<uint64_t> left = ReadLeftCount(tables, n, in);
    if (!left.ok()) return left.status();
    const bool right = BitAt(hashkey, bit);
    ++bit;
    if (*left == 0) continue;  // every key went the way this one goes
    if (!right) {
      n = *left;
    } else {
      if (absl::Status s = SkipTrie(tables, *left, bit, in); !s.ok()) return s;
      rank += *left;
      n -= *left;
    }
  }
  return rank;
  // handout: end
}

absl::StatusOr<BucketRank> LookupBucket(const HuffmanTables& tables,
                                        uint64_t hashkey, int first_bit,
                                        BitReader* in) {
  const uint64_t count = ReadEliasGamma(in);
  if (count == 0) return Corrupt("a bad key count", 0);
  BucketRank result;
  result.keys = count - 1;
  absl::StatusOr<uint64_t> rank =
      LookupTrie(tables, result.keys, hashkey, first_bit, in);
  if (!rank.ok()) return rank.status();
  result.rank = *rank;
  return result;
}

absl::StatusOr<std::vector<TrieNode>> DecodeBucket(const HuffmanTables& tables,
                                                   int first_bit,
                                                   BitReader* in) {
  const uint64_t count = ReadEliasGamma(in);
  if (count == 0) return Corrupt("a bad key count", 0);
  std::vector<TrieNode> nodes;
  struct Pending {
    uint64_t keys;
    int bit;
  };
  std::vector<Pending> stack = {{count - 1, first_bit}};
  while (!stack.empty()) {
    const Pending p = stack.back();
    stack.pop_back();
    TrieNode node;
    node.bit = p.bit;
    node.keys = p.keys;
    node.first_bit_offset = in->position();
    if (p.keys >= 2) {
      if (p.bit >= 64) return Corrupt("a path longer than 64 bits", p.keys);
      absl::StatusOr<uint64_t> left = ReadLeftCount(tables, p.keys, in);
      if (!left.ok()) return left.status();
      node.left = *left;
      if (*left == 0) {
        stack.push_back({p.keys, p.bit + 1});
      } else {
        stack.push_back({p.keys - *left, p.bit + 1});
        stack.push_back({*left, p.bit + 1});
      }
    }
    node.code_bits = in->position() - node.first_bit_offset;
    nodes.push_back(node);
  }
  return nodes;
}

}  // namespace kvlab::ect
