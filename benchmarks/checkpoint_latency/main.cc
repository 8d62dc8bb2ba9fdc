// checkpoint_latency: how long a durable store's puts take while it writes
// a checkpoint, against the same puts with no checkpoint running.
//
// For each --store (an inner store spec), one after the other in this
// process: loads --n pairs of --dataset (kvbench's generator and seed) into
// a durable store in a fresh directory under --dir (sync=none, one
// checkpoint at the end, so the load is quick), closes it and reopens it
// with --sync (the reopen recovers from that checkpoint). Then --threads
// writer threads put new values under the data set's keys (uniform ranks,
// values of the data set) and time each put with steady_clock, for
// --steady_seconds with no checkpoint, then while a checkpointer thread
// calls Checkpoint() back to back --checkpoints times, then another
// --steady_seconds. A put whose interval overlaps a Checkpoint() call counts
// as "during"; every other put as "steady". Prints, for each, the count and
// the median, 99th, 99.9th percentile and maximum latency in microseconds,
// the ratio of the two p99.9s, and each checkpoint's duration, with
// kvbench's machine and build lines.
//
// Usage: checkpoint_latency --store=btree --dataset=course --n=1000000
//          [--sync=group] [--threads=2] [--checkpoints=3]
//          [--steady_seconds=5] [--dir=/tmp] [--seed=42]

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kvbench/datasets.h"
#include "kvbench/machine_info.h"
#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"

ABSL_FLAG(std::string, store, "btree", "Inner stores, a comma list of specs");
ABSL_FLAG(std::string, dataset, "course", "One kvbench data set");
ABSL_FLAG(uint64_t, n, 1'000'000, "Pairs loaded before measuring");
ABSL_FLAG(std::string, sync, "group", "Sync policy: none, every or group");
ABSL_FLAG(int, threads, 2, "Writer threads");
ABSL_FLAG(int, checkpoints, 3, "Checkpoints taken back to back");
ABSL_FLAG(double, steady_seconds, 5, "Seconds of puts before and after");
ABSL_FLAG(std::string, dir, "", "Parent of the store's directory (tmp)");
ABSL_FLAG(uint64_t, seed, 42, "Seed of the data set and of the writers");

namespace {

using Clock = std::chrono::steady_clock;

struct Put {
  Clock::time_point start;
  Clock::time_point end;
};

double Micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// The q-quantile of sorted `v`.
double Quantile(const std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

void PrintRow(const char* what, std::vector<double> micros) {
  std::sort(micros.begin(), micros.end());
  std::printf("  %-8s %9zu %10.1f %10.1f %10.1f %10.1f\n", what, micros.size(),
              Quantile(micros, 0.5), Quantile(micros, 0.99),
              Quantile(micros, 0.999), micros.empty() ? 0.0 : micros.back());
}

kvlab::SyncPolicy ParseSync(const std::string& sync) {
  return sync == "none"    ? kvlab::SyncPolicy::kNone
         : sync == "every" ? kvlab::SyncPolicy::kEvery
                           : kvlab::SyncPolicy::kGroup;
}

absl::StatusOr<std::unique_ptr<kvlab::DurableStore>> OpenDurable(
    const std::string& spec, const std::string& dir,
    const kvlab::DurabilityOptions& options) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> inner =
      kvlab::MakeStore(spec);
  if (!inner.ok()) return inner.status();
  return kvlab::DurableStore::Open(*std::move(inner), dir, options);
}

bool Measure(const std::string& spec, const kvbench::DataSet& data,
             const std::string& parent) {
  std::string pattern =
      (std::filesystem::path(parent) / "checkpoint-latency-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    std::fprintf(stderr, "checkpoint_latency: cannot create a directory\n");
    return false;
  }
  const std::string dir = pattern;
  struct Cleanup {
    std::string dir;
    ~Cleanup() {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  } cleanup{dir};

  // The load: the ring sized to hold the whole load's log, no checkpoint
  // until the end.
  uint64_t data_bytes = 0;
  for (uint64_t i = 0; i < data.size(); ++i) {
    data_bytes += data.key(i).size() + data.value(i).size() + 32;
  }
  kvlab::DurabilityOptions options;
  options.sync = kvlab::SyncPolicy::kNone;
  options.log_file_bytes = uint64_t{64} << 20;
  options.log_files = static_cast<uint32_t>(
      std::max<uint64_t>(4, 2 * data_bytes / options.log_file_bytes + 4));
  options.checkpoint_bytes = ~uint64_t{0};
  const Clock::time_point load_start = Clock::now();
  {
    auto store = OpenDurable(spec, dir, options);
    if (!store.ok()) {
      std::fprintf(stderr, "checkpoint_latency: %s\n",
                   std::string(store.status().message()).c_str());
      return false;
    }
    for (uint64_t i = 0; i < data.size(); ++i) {
      if (!(*store)->Put(data.key(i), data.value(i)).ok()) {
        std::fprintf(stderr, "checkpoint_latency: load put %lu failed\n",
                     (unsigned long)i);
        return false;
      }
    }
    const absl::Status status = (*store)->Checkpoint();
    if (!status.ok()) {
      std::fprintf(stderr, "checkpoint_latency: %s\n",
                   std::string(status.message()).c_str());
      return false;
    }
  }
  const double load_seconds = Micros(Clock::now() - load_start) / 1e6;

  options.sync = ParseSync(absl::GetFlag(FLAGS_sync));
  const Clock::time_point open_start = Clock::now();
  auto opened = OpenDurable(spec, dir, options);
  if (!opened.ok()) {
    std::fprintf(stderr, "checkpoint_latency: %s\n",
                 std::string(opened.status().message()).c_str());
    return false;
  }
  kvlab::DurableStore& store = **opened;
  const double open_seconds = Micros(Clock::now() - open_start) / 1e6;

  const int threads = absl::GetFlag(FLAGS_threads);
  std::vector<std::vector<Put>> puts(threads);
  std::atomic<bool> stop{false};
  std::atomic<bool> failed{false};
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      std::mt19937_64 rng(absl::GetFlag(FLAGS_seed) * 1000 + t);
      std::vector<Put>& mine = puts[t];
      mine.reserve(1 << 20);
      while (!stop.load(std::memory_order_relaxed)) {
        const uint64_t i = rng() % data.size();
        const uint64_t j = rng() % data.size();
        Put put;
        put.start = Clock::now();
        if (!store.Put(data.key(i), data.value(j)).ok()) failed.store(true);
        put.end = Clock::now();
        mine.push_back(put);
      }
    });
  }
  const auto steady = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(absl::GetFlag(FLAGS_steady_seconds)));
  std::this_thread::sleep_for(steady);
  std::vector<std::pair<Clock::time_point, Clock::time_point>> windows;
  for (int c = 0; c < absl::GetFlag(FLAGS_checkpoints); ++c) {
    const Clock::time_point start = Clock::now();
    const absl::Status status = store.Checkpoint();
    windows.emplace_back(start, Clock::now());
    if (!status.ok()) {
      std::fprintf(stderr, "checkpoint_latency: %s\n",
                   std::string(status.message()).c_str());
      failed.store(true);
    }
  }
  std::this_thread::sleep_for(steady);
  stop.store(true);
  for (std::thread& writer : writers) writer.join();
  if (failed.load()) {
    std::fprintf(stderr, "checkpoint_latency: %s: a write failed\n",
                 spec.c_str());
    return false;
  }

  std::vector<double> during, steady_micros;
  for (const std::vector<Put>& mine : puts) {
    for (const Put& put : mine) {
      const bool overlaps =
          std::any_of(windows.begin(), windows.end(), [&](const auto& window) {
            return put.start < window.second && window.first < put.end;
          });
      (overlaps ? during : steady_micros)
          .push_back(Micros(put.end - put.start));
    }
  }
  std::string checkpoint_seconds;
  for (const auto& [start, end] : windows) {
    absl::StrAppend(&checkpoint_seconds, checkpoint_seconds.empty() ? "" : " ",
                    absl::StrFormat("%.2f", Micros(end - start) / 1e6));
  }
  std::printf(
      "%s: load %.1f s, reopen %.1f s, checkpoints took %s s, %lu "
      "checkpoints, %lu checkpoint bytes\n",
      spec.c_str(), load_seconds, open_seconds, checkpoint_seconds.c_str(),
      (unsigned long)store.stats().checkpoints,
      (unsigned long)store.stats().checkpoint_bytes);
  std::printf("  %-8s %9s %10s %10s %10s %10s\n", "puts", "count", "p50 us",
              "p99 us", "p99.9 us", "max us");
  std::vector<double> sorted_steady = steady_micros, sorted_during = during;
  std::sort(sorted_steady.begin(), sorted_steady.end());
  std::sort(sorted_during.begin(), sorted_during.end());
  PrintRow("steady", steady_micros);
  PrintRow("during", during);
  const double base = Quantile(sorted_steady, 0.999);
  std::printf("  p99.9 during / steady: %.1fx\n",
              base > 0 ? Quantile(sorted_during, 0.999) / base : 0.0);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const kvbench::BuildInfo build = kvbench::CurrentBuild();
  if (!kvbench::IsReliableBuild(build)) {
    std::fputs(kvbench::UnreliableBuildWarning(
                   build, "checkpoint_latency",
                   "anyway: every result line is marked UNRELIABLE.")
                   .c_str(),
               stderr);
  }
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  absl::StatusOr<kvbench::DataSet> data = kvbench::GenerateDataSet(
      absl::GetFlag(FLAGS_dataset), absl::GetFlag(FLAGS_n), seed);
  if (!data.ok()) {
    std::fprintf(stderr, "checkpoint_latency: %s\n",
                 std::string(data.status().message()).c_str());
    return 2;
  }
  std::string parent = absl::GetFlag(FLAGS_dir);
  if (parent.empty()) parent = std::filesystem::temp_directory_path().string();
  std::printf(
      "checkpoint_latency: %s n=%lu (avg key %.1f B, avg value %.1f B), "
      "sync=%s, %d writer threads, %d checkpoints, %.1f s steady before and "
      "after, directory under %s, seed %lu, %s\n",
      data->info().name.c_str(), (unsigned long)data->size(),
      data->info().avg_key_bytes, data->info().avg_value_bytes,
      absl::GetFlag(FLAGS_sync).c_str(), absl::GetFlag(FLAGS_threads),
      absl::GetFlag(FLAGS_checkpoints), absl::GetFlag(FLAGS_steady_seconds),
      parent.c_str(), (unsigned long)seed, kvbench::UtcTimestamp().c_str());
  std::printf("machine: %s\nbuild: %s\n",
              kvbench::MachineDescription(kvbench::ReadMachineInfo()).c_str(),
              (kvbench::BuildDescription(build) +
               (kvbench::IsReliableBuild(build)
                    ? ""
                    : "  " + std::string(kvbench::kUnreliableMark)))
                  .c_str());
  int status = 0;
  for (absl::string_view spec :
       absl::StrSplit(absl::GetFlag(FLAGS_store), ',', absl::SkipEmpty())) {
    if (!Measure(std::string(spec), *data, parent)) status = 1;
  }
  return status;
}
