// nth_latency: how long one GetNth call takes on a large store.
//
// kvbench measures throughput; a rank query's latency at large n is a
// separate question (stage 5's target is a median under 20 us at 10M
// pairs). For each --store, one after the other in this process, the
// tool loads --n pairs of --dataset (kvbench's generator and seed) into a
// fresh store, then times --calls single GetNth(N) calls, N uniform in
// [0, n), each with its own steady_clock reading, checks that each answers,
// and prints the median, 90th and 99th percentile and maximum in
// microseconds, with the load time and kvbench's machine and build lines.
//
// Usage: nth_latency --store=hyperion,ctrie --dataset=course --n=10000000
//                    [--calls=100000] [--seed=42]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_split.h"
#include "kvbench/datasets.h"
#include "kvbench/machine_info.h"
#include "kvlab/kvlab.h"

ABSL_FLAG(std::string, store, "hyperion", "Stores, a comma list of specs");
ABSL_FLAG(std::string, dataset, "course", "One kvbench data set");
ABSL_FLAG(uint64_t, n, 1'000'000, "Pairs loaded");
ABSL_FLAG(uint64_t, calls, 100'000, "GetNth calls timed");
ABSL_FLAG(uint64_t, seed, 42, "Seed of the data set and of the ranks");

namespace {

using Clock = std::chrono::steady_clock;

double Micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// The q-quantile of sorted `v`.
double Quantile(const std::vector<double>& v, double q) {
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

// Loads `data` into a fresh `spec` and times the calls; false on an error.
bool Measure(const std::string& spec, const kvbench::DataSet& data,
             uint64_t calls, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> made = kvlab::MakeStore(spec);
  if (!made.ok()) {
    std::fprintf(stderr, "nth_latency: %s\n",
                 std::string(made.status().message()).c_str());
    return false;
  }
  kvlab::KVStore& store = **made;
  const Clock::time_point load_start = Clock::now();
  for (uint64_t i = 0; i < data.size(); ++i) {
    if (!store.Put(data.key(i), data.value(i)).ok()) {
      std::fprintf(stderr, "nth_latency: %s: Put %lu failed\n", spec.c_str(),
                   (unsigned long)i);
      return false;
    }
  }
  const double load_seconds = Micros(Clock::now() - load_start) / 1e6;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> rank(0, store.Size() - 1);
  std::vector<double> micros;
  micros.reserve(calls);
  std::string key, value;
  for (uint64_t c = 0; c < calls; ++c) {
    const uint64_t n = rank(rng);
    const Clock::time_point start = Clock::now();
    const bool found = store.GetNth(n, &key, &value);
    micros.push_back(Micros(Clock::now() - start));
    if (!found) {
      std::fprintf(stderr, "nth_latency: %s: GetNth(%lu) found nothing\n",
                   spec.c_str(), (unsigned long)n);
      return false;
    }
  }
  std::sort(micros.begin(), micros.end());
  std::printf("%-28s %9.1f %10.2f %10.2f %10.2f %10.2f\n", spec.c_str(),
              load_seconds, Quantile(micros, 0.5), Quantile(micros, 0.9),
              Quantile(micros, 0.99), micros.back());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const kvbench::BuildInfo build = kvbench::CurrentBuild();
  if (!kvbench::IsReliableBuild(build)) {
    std::fputs(kvbench::UnreliableBuildWarning(
                   build, "nth_latency",
                   "anyway: every result line is marked UNRELIABLE.")
                   .c_str(),
               stderr);
  }
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  absl::StatusOr<kvbench::DataSet> data = kvbench::GenerateDataSet(
      absl::GetFlag(FLAGS_dataset), absl::GetFlag(FLAGS_n), seed);
  if (!data.ok()) {
    std::fprintf(stderr, "nth_latency: %s\n",
                 std::string(data.status().message()).c_str());
    return 2;
  }
  const uint64_t calls = absl::GetFlag(FLAGS_calls);
  std::printf(
      "nth_latency: %s n=%lu (avg key %.1f B, avg value %.1f B), "
      "%lu GetNth calls at uniform ranks, seed %lu, %s\n",
      data->info().name.c_str(), (unsigned long)data->size(),
      data->info().avg_key_bytes, data->info().avg_value_bytes,
      (unsigned long)calls, (unsigned long)seed,
      kvbench::UtcTimestamp().c_str());
  std::printf("machine: %s\nbuild: %s\n",
              kvbench::MachineDescription(kvbench::ReadMachineInfo()).c_str(),
              (kvbench::BuildDescription(build) +
               (kvbench::IsReliableBuild(build)
                    ? ""
                    : "  " + std::string(kvbench::kUnreliableMark)))
                  .c_str());
  std::printf("%-28s %9s %10s %10s %10s %10s\n", "store", "load s", "median us",
              "p90 us", "p99 us", "max us");
  int status = 0;
  for (absl::string_view spec :
       absl::StrSplit(absl::GetFlag(FLAGS_store), ',', absl::SkipEmpty())) {
    if (!Measure(std::string(spec), *data, calls, seed)) status = 1;
  }
  return status;
}
