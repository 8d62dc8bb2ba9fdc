#include "kvbench/dataset_stats.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_format.h"
#include "kvbench/format.h"

namespace kvbench {
namespace {

// The value at quantile q of sorted `values`.
uint64_t Quantile(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  return sorted[static_cast<size_t>(q * (sorted.size() - 1))];
}

}  // namespace

DataSetStats ComputeStats(const DataSet& data) {
  DataSetStats stats;
  stats.count = data.size();
  stats.avg_key = data.info().avg_key_bytes;
  stats.avg_value = data.info().avg_value_bytes;
  std::vector<uint64_t> lengths(data.size());
  for (uint64_t i = 0; i < data.size(); ++i) lengths[i] = data.key(i).size();
  std::sort(lengths.begin(), lengths.end());
  stats.key_min = lengths.empty() ? 0 : lengths.front();
  stats.key_p10 = Quantile(lengths, 0.1);
  stats.key_p50 = Quantile(lengths, 0.5);
  stats.key_p90 = Quantile(lengths, 0.9);
  stats.key_max = lengths.empty() ? 0 : lengths.back();

  const std::vector<uint32_t> sorted = SortedKeyOrder(data);
  std::vector<uint64_t> shared;
  shared.reserve(sorted.size());
  double total = 0;
  for (size_t i = 1; i < sorted.size(); ++i) {
    const std::string_view a = data.key(sorted[i - 1]), b = data.key(sorted[i]);
    const size_t limit = std::min(a.size(), b.size());
    size_t lcp = 0;
    while (lcp < limit && a[lcp] == b[lcp]) ++lcp;
    shared.push_back(lcp);
    total += lcp;
  }
  if (!shared.empty()) stats.avg_shared_prefix = total / shared.size();
  std::sort(shared.begin(), shared.end());
  stats.shared_p50 = Quantile(shared, 0.5);
  stats.shared_p90 = Quantile(shared, 0.9);
  stats.shared_max = shared.empty() ? 0 : shared.back();
  return stats;
}

std::string FormatStats(const DataSetStats& s) {
  return absl::StrFormat(
      "count %s | key bytes avg %.1f, min %d, p10 %d, median %d, p90 %d, max "
      "%d | value bytes avg %.1f | shared prefix with the sorted predecessor: "
      "avg %.1f, median %d, p90 %d, max %d",
      WithCommas(s.count), s.avg_key, s.key_min, s.key_p10, s.key_p50,
      s.key_p90, s.key_max, s.avg_value, s.avg_shared_prefix, s.shared_p50,
      s.shared_p90, s.shared_max);
}

}  // namespace kvbench
