#include "kvbench/memory_guard.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kvbench/datasets.h"
#include "kvbench/memory_probe.h"
#include "kvbench/run_in_child.h"
#include "kvlab/kvlab.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

std::string GiB(double bytes) {
  return absl::StrFormat("%.1f GiB", bytes / kGiB);
}

}  // namespace

uint64_t SamplePairs(uint64_t n) {
  return n <= kMaxSamplePairs ? 0 : kMaxSamplePairs;
}

MemoryEstimate Extrapolate(MemoryEstimate sample) {
  const double pairs =
      static_cast<double>(sample.sample_pairs - sample.half_pairs);
  sample.bytes_per_pair =
      pairs > 0 ? (sample.sample_growth - sample.half_growth) / pairs : 0;
  // A slope below zero (the allocator returned memory) predicts nothing
  // useful; the full-sample average is the fallback.
  if (sample.bytes_per_pair <= 0 && sample.sample_pairs > 0) {
    sample.bytes_per_pair = sample.sample_growth / sample.sample_pairs;
  }
  const double scale = sample.sample_pairs > 0
                           ? static_cast<double>(sample.n) / sample.sample_pairs
                           : 0;
  sample.predicted_bytes =
      sample.sample_growth +
      sample.bytes_per_pair *
          (static_cast<double>(sample.n) - sample.sample_pairs) +
      sample.data_bytes * scale;
  return sample;
}

absl::StatusOr<MemoryEstimate> MeasureSample(std::string_view spec,
                                             std::string_view dataset,
                                             uint64_t n, uint64_t seed) {
  MemoryEstimate estimate;
  estimate.n = n;
  estimate.sample_pairs = SamplePairs(n);
  estimate.half_pairs = estimate.sample_pairs / 2;
  if (estimate.sample_pairs == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("no sample for ", n, " pairs: the run is small"));
  }
  absl::StatusOr<DataSet> data =
      GenerateDataSet(dataset, estimate.sample_pairs, seed);
  if (!data.ok()) return data.status();
  // words may hold fewer pairs than asked.
  estimate.sample_pairs = data->size();
  estimate.half_pairs = estimate.sample_pairs / 2;
  estimate.data_bytes = static_cast<double>(data->FootprintBytes());

  TrimHeap();
  absl::StatusOr<ProcStatus> baseline = ReadProcStatus();
  if (!baseline.ok()) return baseline.status();
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore(spec);
  if (!store.ok()) return store.status();
  for (uint64_t i = 0; i < estimate.sample_pairs; ++i) {
    absl::StatusOr<bool> put = (*store)->Put(data->key(i), data->value(i));
    if (!put.ok()) return put.status();
    if (i + 1 == estimate.half_pairs || i + 1 == estimate.sample_pairs) {
      TrimHeap();
      absl::StatusOr<ProcStatus> now = ReadProcStatus();
      if (!now.ok()) return now.status();
      const double growth = static_cast<double>(now->rss_anon) -
                            static_cast<double>(baseline->rss_anon);
      (i + 1 == estimate.half_pairs ? estimate.half_growth
                                    : estimate.sample_growth) = growth;
    }
  }
  return Extrapolate(estimate);
}

std::string SerializeEstimate(const MemoryEstimate& e) {
  return absl::StrCat(e.half_pairs, " ", e.sample_pairs, " ", e.half_growth,
                      " ", e.sample_growth, " ", e.data_bytes, " ", e.n);
}

absl::StatusOr<MemoryEstimate> ParseEstimate(std::string_view text) {
  std::vector<absl::string_view> fields =
      absl::StrSplit(kvlab::ToAbsl(text), ' ', absl::SkipEmpty());
  MemoryEstimate e;
  if (fields.size() != 6 || !absl::SimpleAtoi(fields[0], &e.half_pairs) ||
      !absl::SimpleAtoi(fields[1], &e.sample_pairs) ||
      !absl::SimpleAtod(fields[2], &e.half_growth) ||
      !absl::SimpleAtod(fields[3], &e.sample_growth) ||
      !absl::SimpleAtod(fields[4], &e.data_bytes) ||
      !absl::SimpleAtoi(fields[5], &e.n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad memory estimate record '", kvlab::ToAbsl(text), "'"));
  }
  return Extrapolate(e);
}

absl::StatusOr<uint64_t> ParseMemAvailable(std::string_view meminfo) {
  for (absl::string_view line : absl::StrSplit(kvlab::ToAbsl(meminfo), '\n')) {
    if (!absl::ConsumePrefix(&line, "MemAvailable:")) continue;
    line = absl::StripAsciiWhitespace(line);
    uint64_t kib = 0;
    if (!absl::ConsumeSuffix(&line, "kB") ||
        !absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &kib)) {
      break;
    }
    return kib * 1024;
  }
  return absl::NotFoundError("no MemAvailable line in /proc/meminfo");
}

absl::StatusOr<uint64_t> ReadMemAvailable() {
  std::ifstream in("/proc/meminfo");
  if (!in) return absl::UnavailableError("cannot read /proc/meminfo");
  std::stringstream text;
  text << in.rdbuf();
  return ParseMemAvailable(text.str());
}

std::optional<std::string> MemoryRefusal(const MemoryEstimate& e,
                                         uint64_t available_bytes) {
  const double limit = kMemoryFraction * static_cast<double>(available_bytes);
  if (e.predicted_bytes <= limit) return std::nullopt;
  return absl::StrFormat(
      "refused: needs about %s, more than %.0f%% of the %s available "
      "(a %d-pair sample grew %.0f B/pair); --allow_memory_overcommit runs "
      "it",
      GiB(e.predicted_bytes), kMemoryFraction * 100,
      GiB(static_cast<double>(available_bytes)), e.sample_pairs,
      e.bytes_per_pair);
}

std::optional<std::string> CheckRunMemory(std::string_view spec,
                                          std::string_view dataset, uint64_t n,
                                          uint64_t seed,
                                          double timeout_seconds) {
  if (SamplePairs(n) == 0) return std::nullopt;
  const std::string spec_copy(spec), dataset_copy(dataset);
  const ChildOutcome outcome = RunInChild(
      [&]() -> std::string {
        absl::StatusOr<MemoryEstimate> estimate =
            MeasureSample(spec_copy, dataset_copy, n, seed);
        return estimate.ok() ? SerializeEstimate(*estimate) : "";
      },
      timeout_seconds);
  if (outcome.kind != ChildOutcome::Kind::kExited || outcome.payload.empty()) {
    return std::nullopt;
  }
  absl::StatusOr<MemoryEstimate> estimate = ParseEstimate(outcome.payload);
  absl::StatusOr<uint64_t> available = ReadMemAvailable();
  if (!estimate.ok() || !available.ok()) return std::nullopt;
  return MemoryRefusal(*estimate, *available);
}

}  // namespace kvbench
