// kvbench and the ect store (stage3_trie/ect, docs/stage3_ect.md): what a run
// measures beyond the common metrics.
//
// An ect store takes writes into a buffer and merges it into its data file
// every merge_pairs writes. After the load phase kvbench merges what is left
// (timed apart from the load), so the memory reading and the Gets see the
// store as built: pairs in the file, the index in RAM. It then records the
// index's RAM in bits per key, the file's bytes, and the data-file reads per
// Get counted by the store's file layer (1 for a present key).

#ifndef KVBENCH_ECT_RUN_H_
#define KVBENCH_ECT_RUN_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "kvbench/run_record.h"
#include "kvlab/kv_store.h"

namespace kvbench {

// The store's Get counters at one moment.
struct EctGetCounters {
  uint64_t gets = 0;
  uint64_t get_reads = 0;
};

// For an ect store: merges its buffer into the data file and records the
// merge's seconds; any other store: nothing. A failed merge is the error.
absl::Status FinishEctLoad(kvlab::KVStore& store, RunRecord* record);

// The Get counters of an ect store; nullopt for any other store.
std::optional<EctGetCounters> ReadEctGetCounters(const kvlab::KVStore& store);

// For an ect store: records the index and file figures, and the reads per
// Get since `before_get` (when the get phase ran), with a note summing them
// up; any other store: nothing.
void RecordEctMetrics(const kvlab::KVStore& store,
                      const std::optional<EctGetCounters>& before_get,
                      RunRecord* record);

}  // namespace kvbench

#endif  // KVBENCH_ECT_RUN_H_
