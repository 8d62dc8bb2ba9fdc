#include "kvbench/phases.h"

#include <chrono>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// How often loops look at the clock for the progress line.
constexpr uint64_t kProgressMask = (1 << 14) - 1;

std::string Quote(std::string_view bytes) {
  return absl::StrCat("\"", absl::CHexEscape(kvlab::ToAbsl(bytes)), "\"");
}

// Folds a scanned pair into a checksum, reading its first and last bytes as
// any consumer of a scan would read some of them.
uint64_t Consume(std::string_view key, std::string_view value) {
  uint64_t sum = key.size() + value.size();
  if (!key.empty()) sum += uint8_t(key.front()) + uint8_t(key.back());
  if (!value.empty()) sum += uint8_t(value.back());
  return sum;
}

// Compares a full scan of `store` with the data set in sorted order; "" if
// equal, else the first difference.
std::string CompareScan(const kvlab::KVStore& store, const DataSet& data,
                        std::span<const uint32_t> sorted) {
  const uint64_t n = data.size();
  uint64_t seen = 0;
  std::string error;
  store.Scan("", [&](std::string_view key, std::string_view value) {
    // Equal to the sorted data set means strictly ascending too, since the
    // data set's keys are unique.
    if (seen >= n) {
      error = absl::StrCat("scan: pair #", seen, " with key ", Quote(key),
                           " beyond the ", n, " keys loaded");
      return false;
    }
    const uint32_t i = sorted[seen];
    if (key != data.key(i) || value != data.value(i)) {
      error =
          absl::StrCat("scan: position ", seen, ": store returned key ",
                       Quote(key), " value ", Quote(value), ", expected key ",
                       Quote(data.key(i)), " value ", Quote(data.value(i)));
      return false;
    }
    ++seen;
    return true;
  });
  if (error.empty() && seen != n) {
    error = absl::StrCat("scan: returned ", seen, " pairs, expected ", n);
  }
  return error;
}

}  // namespace

absl::StatusOr<PhaseTiming> RunLoad(kvlab::KVStore& store, const DataSet& data,
                                    bool verify, Progress* progress) {
  const uint64_t n = data.size();
  if (progress != nullptr) progress->Start("load", n);
  PhaseTiming timing;
  const Clock::time_point start = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    absl::StatusOr<bool> replaced = store.Put(data.key(i), data.value(i));
    if (verify && (!replaced.ok() || *replaced)) {
      return absl::InternalError(absl::StrCat(
          "load: Put #", i, " of new key ", Quote(data.key(i)), " returned ",
          replaced.ok() ? "true (replaced)" : replaced.status().ToString(),
          ", expected false (new key)"));
    }
    timing.checksum += replaced.ok() && *replaced;
    if (progress != nullptr && (i & kProgressMask) == 0) progress->Update(i);
  }
  timing.seconds = SecondsSince(start);
  timing.operations = n;
  if (progress != nullptr) progress->Finish();
  return timing;
}

absl::StatusOr<PhaseTiming> RunGet(const kvlab::KVStore& store,
                                   const DataSet& data,
                                   std::span<const uint32_t> order, bool verify,
                                   Progress* progress) {
  if (progress != nullptr) progress->Start("get", order.size());
  PhaseTiming timing;
  std::string value;  // reused, so the phase measures the store, not malloc
  const Clock::time_point start = Clock::now();
  for (uint64_t j = 0; j < order.size(); ++j) {
    const uint32_t i = order[j];
    const bool found = store.Get(data.key(i), &value);
    if (verify && (!found || value != data.value(i))) {
      return absl::InternalError(
          absl::StrCat("get: key ", Quote(data.key(i)), ": store returned ",
                       found ? Quote(value) : "absent", ", expected ",
                       Quote(data.value(i))));
    }
    timing.checksum += found ? value.size() : 1;
    if (progress != nullptr && (j & kProgressMask) == 0) progress->Update(j);
  }
  timing.seconds = SecondsSince(start);
  timing.operations = order.size();
  if (progress != nullptr) progress->Finish();
  return timing;
}

absl::StatusOr<PhaseTiming> RunScan(const kvlab::KVStore& store,
                                    const DataSet& data,
                                    std::span<const uint32_t> sorted,
                                    bool verify, Progress* progress) {
  const uint64_t n = data.size();
  if (progress != nullptr) progress->Start("scan", n);
  PhaseTiming timing;
  uint64_t seen = 0;
  const Clock::time_point start = Clock::now();
  const uint64_t visited =
      store.Scan("", [&](std::string_view key, std::string_view value) {
        timing.checksum += Consume(key, value);
        ++seen;
        if (progress != nullptr && (seen & kProgressMask) == 0) {
          progress->Update(seen);
        }
        return true;
      });
  timing.seconds = SecondsSince(start);
  timing.operations = seen;
  if (progress != nullptr) progress->Finish();
  // Checked in a second, untimed pass: the comparison reads the data set in
  // sorted order, a cache miss per key that would cost more than most
  // stores' own step to the next key.
  if (verify) {
    const std::string error = CompareScan(store, data, sorted);
    if (!error.empty()) return absl::InternalError(error);
  }
  if (visited != n || seen != n) {
    return absl::InternalError(absl::StrCat("scan: visited ", visited,
                                            " pairs (counted ", seen,
                                            "), expected ", n));
  }
  return timing;
}

}  // namespace kvbench
