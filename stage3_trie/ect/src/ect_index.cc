#include "kvlab/ect/ect_index.h"

#include <cassert>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/ect/slot_format.h"
#include "kvlab/ect/trie_coder.h"

namespace kvlab::ect {

int BucketBitsFor(uint64_t keys, uint64_t bucket_size) {
  if (bucket_size == 0 || keys <= bucket_size) return 0;
  const double bits = std::round(std::log2(double(keys) / double(bucket_size)));
  return std::min(40, static_cast<int>(bits));
}

uint64_t EctIndex::TrieStart(uint64_t b) const {
  return trie_base_[b >> group_shift_] + trie_rel_[b];
}

uint64_t EctIndex::DataStart(uint64_t b) const {
  return data_base_[b >> group_shift_] + data_rel_[b];
}

uint64_t EctIndex::DataEnd(uint64_t b) const {
  return b + 1 < buckets() ? DataStart(b + 1) : data_end_;
}

absl::StatusOr<SlotLocation> EctIndex::Find(uint64_t hashkey) const {
  // handout: EctIndex::Find -> #4-the-index-and-the-file
  SlotLocation loc;
  loc.bucket = BucketOf(hashkey, bucket_bits_);
  BitReader in(trie_words_.data(), trie_bits_, TrieStart(loc.bucket));
  absl::StatusOr<BucketRank> found =
      LookupBucket(*tables_, hashkey, bucket_bits_, &in);
  if (!found.ok()) return found.status();
  loc.keys = found->keys;
  if (loc.keys == 0) return loc;
  loc.rank = found->rank;
  const uint64_t start = DataStart(loc.bucket);
  const uint64_t end = DataEnd(loc.bucket);
  if (end < start + kBucketHeaderBytes ||
      (end - start - kBucketHeaderBytes) % loc.keys != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("ect index: bucket ", loc.bucket, " has ", end - start,
                     " bytes for ", loc.keys, " slots"));
  }
  loc.slot_bytes = (end - start - kBucketHeaderBytes) / loc.keys;
  loc.offset = start + kBucketHeaderBytes + loc.rank * loc.slot_bytes;
  return loc;
  // handout: end
}

size_t EctIndex::MemoryBytes() const {
  return trie_words_.capacity() * sizeof(uint64_t) +
         trie_base_.capacity() * sizeof(uint64_t) +
         trie_rel_.capacity() * sizeof(uint16_t) +
         data_base_.capacity() * sizeof(uint64_t) +
         data_rel_.capacity() * sizeof(uint32_t);
}

size_t EctIndex::TablesBytes() const {
  size_t bytes = 0;
  for (int n = 2; n <= tables_->hmax(); ++n) {
    // A length byte, a code word and a sorted-symbol int per symbol, plus
    // the per-length arrays (at most n of each).
    bytes += static_cast<size_t>(n) * (1 + 8 + 4) +
             static_cast<size_t>(n) * (8 + 4 + 4);
  }
  return bytes;
}

absl::StatusOr<EctIndexBuilder> EctIndexBuilder::Create(
    int bucket_bits, std::shared_ptr<const HuffmanTables> tables) {
  if (bucket_bits < 0 || bucket_bits > 40) {
    return absl::InvalidArgumentError(
        absl::StrCat("ect: bucket bits must be 0..40, not ", bucket_bits));
  }
  if (tables == nullptr) {
    return absl::InvalidArgumentError("ect: no Huffman tables");
  }
  EctIndexBuilder b;
  b.bucket_bits_ = bucket_bits;
  b.tables_ = std::move(tables);
  return b;
}

void EctIndexBuilder::FillEmptyUpTo(uint64_t bucket, uint64_t data_offset) {
  while (trie_start_.size() < bucket) {
    trie_start_.push_back(tries_.size());
    data_start_.push_back(data_offset);
    EncodeBucket(*tables_, {}, bucket_bits_, &tries_);
  }
}

void EctIndexBuilder::AddBucket(uint64_t bucket,
                                std::span<const uint64_t> hashkeys,
                                uint64_t data_offset) {
  assert(bucket >= trie_start_.size());
  assert(bucket < (uint64_t{1} << bucket_bits_));
  FillEmptyUpTo(bucket, data_offset);
  trie_start_.push_back(tries_.size());
  data_start_.push_back(data_offset);
  EncodeBucket(*tables_, hashkeys, bucket_bits_, &tries_);
  keys_ += hashkeys.size();
}

absl::StatusOr<EctIndex> EctIndexBuilder::Finish(uint64_t data_end) && {
  const uint64_t buckets = uint64_t{1} << bucket_bits_;
  FillEmptyUpTo(buckets, data_end);
  EctIndex index;
  index.bucket_bits_ = bucket_bits_;
  index.tables_ = tables_;
  index.keys_ = keys_;
  index.data_end_ = data_end;
  index.trie_bits_ = tries_.size();
  index.trie_words_ = tries_.Release();
  index.trie_words_.shrink_to_fit();  // MemoryBytes counts capacity
  // The largest group that keeps every relative offset in its width.
  int shift = 6;
  for (; shift > 0; --shift) {
    bool fits = true;
    for (uint64_t b = 0; b < buckets && fits; ++b) {
      const uint64_t base = (b >> shift) << shift;
      fits = trie_start_[b] - trie_start_[base] <=
                 std::numeric_limits<uint16_t>::max() &&
             data_start_[b] - data_start_[base] <=
                 std::numeric_limits<uint32_t>::max();
    }
    if (fits) break;
  }
  index.group_shift_ = shift;
  const uint64_t groups = (buckets + (uint64_t{1} << shift) - 1) >> shift;
  index.trie_base_.resize(groups);
  index.data_base_.resize(groups);
  index.trie_rel_.resize(buckets);
  index.data_rel_.resize(buckets);
  for (uint64_t b = 0; b < buckets; ++b) {
    const uint64_t g = b >> shift;
    const uint64_t base = g << shift;
    if (b == base) {
      index.trie_base_[g] = trie_start_[b];
      index.data_base_[g] = data_start_[b];
    }
    const uint64_t trie_rel = trie_start_[b] - trie_start_[base];
    const uint64_t data_rel = data_start_[b] - data_start_[base];
    // Groups of one bucket (shift 0) always fit: their offsets are 0.
    assert(trie_rel <= std::numeric_limits<uint16_t>::max() &&
           data_rel <= std::numeric_limits<uint32_t>::max());
    index.trie_rel_[b] = static_cast<uint16_t>(trie_rel);
    index.data_rel_[b] = static_cast<uint32_t>(data_rel);
  }
  return index;
}

}  // namespace kvlab::ect
