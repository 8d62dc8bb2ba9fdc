// EctStore::ExportStructure: one bucket's trie as kvlab-draw shows it,
// decoded from the index's bits (DecodeBucket), each node with the code it
// was read from, and each leaf with the pairs of its slot in the data file.

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/bit_stream.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/ect/elias_gamma.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/ect/slot_format.h"
#include "kvlab/ect/trie_coder.h"

namespace kvlab::ect {
namespace {

// Bits [from, to) of the index's bit string as '0' and '1'.
std::string BitText(const EctIndex& index, uint64_t from, uint64_t to) {
  BitReader in(index.trie_words().data(), index.trie_bits(), from);
  std::string text;
  for (uint64_t i = from; i < to; ++i) text += in.ReadBit() ? '1' : '0';
  return text;
}

// The bucket's key count (its Elias-gamma code) without decoding its trie.
uint64_t BucketKeys(const EctIndex& index, uint64_t bucket) {
  BitReader in(index.trie_words().data(), index.trie_bits(),
               index.TrieStart(bucket));
  const uint64_t count = ReadEliasGamma(&in);
  return count == 0 ? 0 : count - 1;
}

}  // namespace

absl::Status EctStore::ExportStructure(const StructureOptions& options,
                                       StructureGraph* graph) const {
  std::shared_lock lock(mutex_);
  graph->kind = "ect";
  graph->summary.push_back({"generation", absl::StrCat(generation_)});
  graph->summary.push_back({"pairs in the file", absl::StrCat(file_pairs_)});
  graph->summary.push_back(
      {"buffer", absl::StrCat(puts_->Size(), " puts, ", tombs_->Size(),
                              " tombstones (not in the drawing)")});
  if (index_ == nullptr) {
    graph->summary.push_back(
        {"index", "none yet: every pair is in the buffer until a merge"});
    if (options.has_from_key) {
      return absl::NotFoundError("ect: no data file, so no bucket to draw");
    }
    return absl::OkStatus();
  }
  const EctIndex& index = *index_;
  graph->summary.push_back(
      {"index", absl::StrCat(index.buckets(), " buckets (", index.bucket_bits(),
                             " bits), ", index.MemoryBytes(), " bytes, ",
                             index.TrieBitsOnly(), " trie bits")});

  // The bucket: from_key's, or the first that holds keys.
  uint64_t bucket = 0;
  if (options.has_from_key) {
    std::string ignored;
    const bool stored =
        puts_->Get(options.from_key, nullptr) ||
        (!tombs_->Get(options.from_key, nullptr) &&
         FileGet(options.from_key, &ignored, false).value_or(false));
    if (!stored) {
      return absl::NotFoundError(absl::StrCat("ect: no key ",
                                              QuotedKey(options.from_key),
                                              " to draw the bucket of"));
    }
    bucket = BucketOf(HashKey64(options.from_key), index.bucket_bits());
  } else {
    while (bucket + 1 < index.buckets() && BucketKeys(index, bucket) == 0) {
      ++bucket;
    }
  }
  const uint64_t start = index.TrieStart(bucket);
  const uint64_t end = bucket + 1 < index.buckets()
                           ? index.TrieStart(bucket + 1)
                           : index.trie_bits();
  BitReader in(index.trie_words().data(), index.trie_bits(), start);
  absl::StatusOr<std::vector<TrieNode>> nodes =
      DecodeBucket(index.tables(), index.bucket_bits(), &in);
  if (!nodes.ok()) return nodes.status();
  const uint64_t count_end =
      nodes->empty() ? end : (*nodes)[0].first_bit_offset;
  graph->summary.push_back(
      {"bucket", absl::StrCat(bucket, " of ", index.buckets(), ": ",
                              BucketKeys(index, bucket), " keys in ",
                              end - start, " bits")});
  graph->summary.push_back(
      {"bits", absl::StrCat(BitText(index, start, count_end),
                            " (key count, "
                            "Elias-gamma) then the left counts in pre-order: ",
                            BitText(index, count_end, end))});

  // The slots' pairs, for the leaves: one read of the bucket.
  std::vector<std::vector<std::string>> slot_keys;
  const uint64_t data_start = index.DataStart(bucket);
  const uint64_t data_end = index.DataEnd(bucket);
  if (data_end > data_start) {
    std::string bytes;
    {
      std::lock_guard file_lock(file_mutex_);
      if (absl::Status s =
              data_->Read(data_start, data_end - data_start, &bytes);
          !s.ok()) {
        return s;
      }
    }
    uint32_t slot_bytes = 0, slots = 0;
    if (absl::Status s = ReadBucketHeader(bytes, &slot_bytes, &slots);
        !s.ok()) {
      return s;
    }
    for (uint32_t r = 0; r < slots; ++r) {
      std::vector<std::string> keys;
      const std::string_view slot = std::string_view(bytes).substr(
          kBucketHeaderBytes + uint64_t{r} * slot_bytes, slot_bytes);
      absl::Status s =
          ForEachInSlot(slot, [&](std::string_view key, std::string_view) {
            keys.push_back(QuotedKey(key));
          });
      if (!s.ok()) return s;
      slot_keys.push_back(std::move(keys));
    }
  }

  // Pre-order back into a tree: a node of n >= 2 keys has one child if
  // one-sided, else a left then a right subtree; ids are the path's
  // branches, so they stay put while the bucket's keys do.
  struct Open {
    std::string id;
    int depth;
    int children_left;
    bool one_sided;
  };
  std::vector<Open> stack;
  uint64_t rank = 0;
  for (const TrieNode& node : *nodes) {
    std::string id = absl::StrCat("b", bucket, ":");
    std::string parent_id, label;
    int depth = 0;
    if (!stack.empty()) {
      Open& parent = stack.back();
      label = parent.one_sided            ? "either"
              : parent.children_left == 2 ? "0"
                                          : "1";
      parent_id = parent.id;
      id = absl::StrCat(parent.id, parent.one_sided ? "*" : label);
      depth = parent.depth + 1;
      if (--parent.children_left == 0) stack.pop_back();
    }
    StructureNode out;
    out.id = id;
    if (node.keys >= 2) {
      out.title = node.left == 0
                      ? absl::StrCat(node.keys, " keys, one-sided")
                      : absl::StrCat(node.keys, " keys, ", node.left, " left");
      out.fields.push_back(
          {"branches on", absl::StrCat("hashkey bit ", node.bit)});
      out.fields.push_back(
          {"code", BitText(index, node.first_bit_offset,
                           node.first_bit_offset + node.code_bits)});
      stack.push_back({id, depth, node.left == 0 ? 1 : 2, node.left == 0});
    } else {
      out.title = node.keys == 0 ? "empty" : absl::StrCat("slot ", rank);
      if (node.keys == 1) {
        if (rank < slot_keys.size()) {
          for (const std::string& key : slot_keys[rank]) {
            out.fields.push_back({"key", key});
          }
        }
        ++rank;
      }
    }
    // Pre-order: a node's parent comes before it, so a cut keeps a tree.
    const bool shown =
        graph->nodes.size() < std::max<size_t>(options.max_nodes, 1) &&
        (options.max_depth < 0 || depth <= options.max_depth);
    if (!shown) {
      ++graph->nodes_omitted;
      continue;
    }
    if (!parent_id.empty()) graph->edges.push_back({parent_id, id, label});
    graph->nodes.push_back(std::move(out));
  }
  return absl::OkStatus();
}

}  // namespace kvlab::ect
