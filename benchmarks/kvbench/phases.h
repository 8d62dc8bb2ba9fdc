// The load, get and scan phases: each times one pass over a data set with
// std::chrono::steady_clock and checks every answer (the scan's in a pass
// of its own, untimed).
//
// With `verify` true every answer is compared with the data set and the
// first mismatch fails the phase with a message naming the operation, the
// key and both answers. With `verify` false answers are only consumed
// (summed into `checksum`: sizes, and a few bytes of each scanned pair),
// which keeps the work observable without the comparison's cost.

#ifndef KVBENCH_PHASES_H_
#define KVBENCH_PHASES_H_

#include <cstdint>
#include <span>

#include "absl/status/statusor.h"
#include "kvbench/datasets.h"
#include "kvbench/progress.h"
#include "kvlab/kv_store.h"

namespace kvbench {

struct PhaseTiming {
  uint64_t operations = 0;  // Puts, Gets or pairs scanned
  double seconds = 0;
  uint64_t checksum = 0;  // consumed answers; meaningless, never zero-cost
  double PerSecond() const { return seconds > 0 ? operations / seconds : 0; }
};

// Puts every pair of `data` in data set order into the empty `store`. Checks
// that each Put succeeds and reports a new key.
absl::StatusOr<PhaseTiming> RunLoad(kvlab::KVStore& store, const DataSet& data,
                                    bool verify, Progress* progress);

// Gets every key of `data` in the order `order` (a permutation of 0..n-1),
// checking each is present with its value.
absl::StatusOr<PhaseTiming> RunGet(const kvlab::KVStore& store,
                                   const DataSet& data,
                                   std::span<const uint32_t> order, bool verify,
                                   Progress* progress);

// One full Scan from "", timed, its visitor reading a few bytes of each
// pair; the count must be n. With `verify`, `sorted` must be
// SortedKeyOrder(data), and a second, untimed Scan must return exactly
// those keys, in that (strictly ascending) order, with their values.
absl::StatusOr<PhaseTiming> RunScan(const kvlab::KVStore& store,
                                    const DataSet& data,
                                    std::span<const uint32_t> sorted,
                                    bool verify, Progress* progress);

}  // namespace kvbench

#endif  // KVBENCH_PHASES_H_
