// The skip rule: runs predicted to take far too long are not started.
//
// An unbalanced tree (StoreInfo::sorted_input_cost == kQuadratic, e.g. bst)
// fed keys in sorted order degrades to a linked list: the i-th Put walks i
// nodes, so loading n keys costs n^2/2 key comparisons, and getting them all
// back costs as much again. Such a run is skipped when its prediction
// exceeds the limit (--max_predicted_seconds), and the table row says why.
//
// A comparison on that list is not the ~1 ns of a cached compare: every step
// is a dependent load that misses the cache. Measured on the 2-core course
// machine (Release, bst, seq_int, n = 100,000): 32 ns per step during load,
// 15 ns during get. The prediction uses 25 ns, so n = 100,000 predicts 250 s
// (measured: 234 s) and n = 1M predicts ~25,000 s.

#ifndef KVBENCH_SKIP_RULE_H_
#define KVBENCH_SKIP_RULE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "kvbench/datasets.h"
#include "kvlab/registry.h"

namespace kvbench {

// Assumed cost of one comparison (one list step) when predicting, in seconds.
inline constexpr double kSecondsPerComparison = 25e-9;

// Predicted seconds of a degenerate (list-like) store over n sorted keys:
// n^2/2 comparisons per pass; `passes` is 1 for load alone, 2 with get.
double PredictQuadraticSeconds(uint64_t n, int passes);

// Why this run should be skipped, or nullopt to run it. `passes` as above.
std::optional<std::string> SkipReason(const kvlab::StoreInfo& store,
                                      LoadOrder order, uint64_t n, int passes,
                                      double max_predicted_seconds);

}  // namespace kvbench

#endif  // KVBENCH_SKIP_RULE_H_
