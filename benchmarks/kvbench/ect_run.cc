#include "kvbench/ect_run.h"

#include <chrono>

#include "absl/strings/str_format.h"
#include "kvlab/ect/ect_store.h"

namespace kvbench {
namespace {

// kvbench runs ect unwrapped (it refuses --durable for stores that keep
// files), so the store itself is the EctStore.
const kvlab::ect::EctStore* AsEct(const kvlab::KVStore& store) {
  return dynamic_cast<const kvlab::ect::EctStore*>(&store);
}

}  // namespace

absl::Status FinishEctLoad(kvlab::KVStore& store, RunRecord* record) {
  auto* ect = dynamic_cast<kvlab::ect::EctStore*>(&store);
  if (ect == nullptr) return absl::OkStatus();
  const auto start = std::chrono::steady_clock::now();
  absl::Status merged = ect->Merge();
  if (!merged.ok()) return merged;
  record->Set(
      metric::kEctMergeSeconds,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  return absl::OkStatus();
}

std::optional<EctGetCounters> ReadEctGetCounters(const kvlab::KVStore& store) {
  const kvlab::ect::EctStore* ect = AsEct(store);
  if (ect == nullptr) return std::nullopt;
  const kvlab::ect::EctStats stats = ect->stats();
  return EctGetCounters{stats.gets, stats.get_reads};
}

void RecordEctMetrics(const kvlab::KVStore& store,
                      const std::optional<EctGetCounters>& before_get,
                      RunRecord* record) {
  const kvlab::ect::EctStore* ect = AsEct(store);
  if (ect == nullptr) return;
  const kvlab::ect::EctStats stats = ect->stats();
  const double pairs = stats.file_pairs == 0 ? 1 : stats.file_pairs;
  const double index_bits = 8.0 * static_cast<double>(stats.index_bytes);
  record->Set(metric::kEctIndexBitsPerKey, index_bits / pairs);
  record->Set(metric::kEctTrieBitsPerKey,
              static_cast<double>(stats.trie_bits) / pairs);
  record->Set(metric::kEctTablesBytes, static_cast<double>(stats.tables_bytes));
  record->Set(metric::kEctFileBytes, static_cast<double>(stats.file_bytes));
  record->Set(metric::kEctMerges, static_cast<double>(stats.merges));
  std::string reads = "no get phase";
  if (before_get.has_value() && stats.gets > before_get->gets) {
    const double per_get =
        static_cast<double>(stats.get_reads - before_get->get_reads) /
        static_cast<double>(stats.gets - before_get->gets);
    record->Set(metric::kEctReadsPerGet, per_get);
    reads = absl::StrFormat("%.4f data-file reads per Get", per_get);
  }
  record->notes.push_back(absl::StrFormat(
      "ect: index %.3f bits/key in RAM (tries alone %.3f) + %d bytes of "
      "Huffman tables; data file %d bytes (%.1f B/pair); %s; %d merges, the "
      "last after the load taking %.3f s",
      index_bits / pairs, static_cast<double>(stats.trie_bits) / pairs,
      stats.tables_bytes, stats.file_bytes,
      static_cast<double>(stats.file_bytes) / pairs, reads, stats.merges,
      record->Get(metric::kEctMergeSeconds)));
}

}  // namespace kvbench
