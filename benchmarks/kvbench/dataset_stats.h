// Statistics of a data set, for its documentation (kvbench --dataset_stats):
// the count, the key length distribution and how much neighbouring keys
// share (the longest common prefix with the previous key in sorted order,
// which is what a trie saves and a comparison tree re-reads).

#ifndef KVBENCH_DATASET_STATS_H_
#define KVBENCH_DATASET_STATS_H_

#include <cstdint>
#include <string>

#include "kvbench/datasets.h"

namespace kvbench {

struct DataSetStats {
  uint64_t count = 0;
  double avg_key = 0, avg_value = 0;
  uint64_t key_min = 0, key_p10 = 0, key_p50 = 0, key_p90 = 0, key_max = 0;
  double avg_shared_prefix = 0;  // mean LCP with the sorted predecessor
  uint64_t shared_p50 = 0, shared_p90 = 0, shared_max = 0;
};

DataSetStats ComputeStats(const DataSet& data);

// One line: "count 1,000 | key B min 1 p10 .. | shared prefix avg .. ".
std::string FormatStats(const DataSetStats& stats);

}  // namespace kvbench

#endif  // KVBENCH_DATASET_STATS_H_
