// The in-memory index of an entropy-coded trie store: for any hashkey, the
// one place in the data file where its slot would be.
//
// The hashkeys' top bucket_bits bits split them into 2^bucket_bits virtual
// buckets (about 256 keys each). Each bucket has a compressed trie
// (trie_coder.h), all tries concatenated in one bit string, and a byte range
// in the data file (slot_format.h). Two-level offset index (Lim, Andersen
// and Kaminsky, ALENEX 2013): for every group of G buckets (G = 64, or a
// smaller power of two if a group's offsets would overflow) an absolute
// 64-bit trie bit offset and data byte offset, and per bucket a 16-bit trie
// offset and a 32-bit data offset relative to its group's.
//
// A lookup: bucket = top bits; its trie gives the key count n and the
// hashkey's rank r; the slot size is (bucket bytes - header) / n; the slot
// is at bucket start + header + r * slot size. An empty bucket needs no read.
//
// Thread-safety: immutable once built; Find may run on any number of threads.

#ifndef KVLAB_ECT_ECT_INDEX_H_
#define KVLAB_ECT_ECT_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/ect/bit_stream.h"
#include "kvlab/ect/huffman_tables.h"

namespace kvlab::ect {

// Where a hashkey's slot is.
struct SlotLocation {
  uint64_t bucket = 0;
  uint64_t keys = 0;        // the bucket's slots; 0: the hashkey is absent
  uint64_t rank = 0;        // the slot's number in its bucket
  uint64_t offset = 0;      // of the slot in the data file
  uint64_t slot_bytes = 0;  // its size
};

class EctIndex {
 public:
  EctIndex(EctIndex&&) = default;
  EctIndex& operator=(EctIndex&&) = default;

  // The slot `hashkey` would occupy. InvalidArgument if the index is corrupt.
  absl::StatusOr<SlotLocation> Find(uint64_t hashkey) const;

  int bucket_bits() const { return bucket_bits_; }
  uint64_t buckets() const { return uint64_t{1} << bucket_bits_; }
  int group_size() const { return 1 << group_shift_; }
  const HuffmanTables& tables() const { return *tables_; }
  // The distinct hashkeys indexed, and the data file's bytes.
  uint64_t keys() const { return keys_; }
  uint64_t data_bytes() const { return data_end_; }

  // The bit string of all tries and where bucket `b`'s starts / ends.
  const std::vector<uint64_t>& trie_words() const { return trie_words_; }
  uint64_t trie_bits() const { return trie_bits_; }
  uint64_t TrieStart(uint64_t b) const;
  uint64_t DataStart(uint64_t b) const;
  uint64_t DataEnd(uint64_t b) const;

  // Bytes of memory held: the tries and the two-level offsets (the Huffman
  // tables, shared and fixed in size, are TablesBytes()).
  size_t MemoryBytes() const;
  size_t TablesBytes() const;
  // The tries alone, in bits.
  uint64_t TrieBitsOnly() const { return trie_bits_; }

 private:
  friend class EctIndexBuilder;
  EctIndex() = default;

  int bucket_bits_ = 0;
  int group_shift_ = 6;
  std::shared_ptr<const HuffmanTables> tables_;
  std::vector<uint64_t> trie_words_;
  uint64_t trie_bits_ = 0;
  std::vector<uint64_t> trie_base_;  // per group
  std::vector<uint16_t> trie_rel_;   // per bucket
  std::vector<uint64_t> data_base_;  // per group
  std::vector<uint32_t> data_rel_;   // per bucket
  uint64_t data_end_ = 0;
  uint64_t keys_ = 0;
};

// Builds an index bucket by bucket, in bucket order, as the data file is
// written. Not thread-safe.
class EctIndexBuilder {
 public:
  // InvalidArgument unless 0 <= bucket_bits <= 40 and hmax is valid
  // (huffman_tables.h).
  static absl::StatusOr<EctIndexBuilder> Create(
      int bucket_bits, std::shared_ptr<const HuffmanTables> tables);

  // Adds bucket `bucket` (above every bucket added so far): its slots'
  // sorted, distinct hashkeys and where its bytes start in the data file
  // (at or after the previous bucket's end). Buckets never added are empty.
  void AddBucket(uint64_t bucket, std::span<const uint64_t> hashkeys,
                 uint64_t data_offset);

  // The index, with the data file ending at `data_end`.
  absl::StatusOr<EctIndex> Finish(uint64_t data_end) &&;

 private:
  EctIndexBuilder() = default;
  void FillEmptyUpTo(uint64_t bucket, uint64_t data_offset);

  int bucket_bits_ = 0;
  std::shared_ptr<const HuffmanTables> tables_;
  BitWriter tries_;
  std::vector<uint64_t> trie_start_;  // per bucket added or filled
  std::vector<uint64_t> data_start_;
  uint64_t keys_ = 0;
};

// The bucket bits for about `keys` keys at `bucket_size` keys per bucket:
// round(log2(keys / bucket_size)), at least 0.
int BucketBitsFor(uint64_t keys, uint64_t bucket_size);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_ECT_INDEX_H_
