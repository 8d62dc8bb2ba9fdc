#include "kvbench/skip_rule.h"

#include "absl/strings/str_format.h"

namespace kvbench {

double PredictQuadraticSeconds(uint64_t n, int passes) {
  const double comparisons = static_cast<double>(n) * n / 2;
  return comparisons * passes * kSecondsPerComparison;
}

std::optional<std::string> SkipReason(const kvlab::StoreInfo& store,
                                      LoadOrder order, uint64_t n, int passes,
                                      double max_predicted_seconds) {
  if (store.sorted_input_cost != kvlab::SortedInputCost::kQuadratic ||
      order != LoadOrder::kSorted) {
    return std::nullopt;
  }
  const double predicted = PredictQuadraticSeconds(n, passes);
  if (predicted <= max_predicted_seconds) return std::nullopt;
  return absl::StrFormat(
      "skipped: sorted input makes %s a linked list; predicted ~%.0f s "
      "(n^2/2 comparisons, %s) > %g s limit",
      store.name, predicted, passes > 1 ? "load+get" : "load",
      max_predicted_seconds);
}

}  // namespace kvbench
