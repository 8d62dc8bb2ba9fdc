// thread_scaling: the load and get phases of kvbench, split over threads.
//
// kvbench times its load and get phases on one thread and only the course
// phase on several. This tool runs, for every (data set, store, threads),
// in a fresh forked child: a load of the --n pairs of the data set
// (kvbench's generator and seed) with pair i put by thread i mod T, then a
// Get of every key, split the same way and each value checked. Every store
// is used through MakeThreadSafe: a store that is not thread-safe itself is
// behind LockedStore's one lock. Per phase it reports Mops/s of wall time
// and "cores" (the process's CPU time per second of wall time: on a shared
// machine T threads may get far less than T cores), then the growth of
// RssAnon over the load per pair and P/M as kvbench computes it ((load
// ops/s + get ops/s) / RssAnon growth, MOPS per GiB), and for a store in
// parts (an arena store) the share of the pairs its fullest part holds, from
// its export's "arena<i> keys" fields. With --writer, a third phase gets
// every key again on the T threads while one more thread puts new keys
// (each data key with a suffix, so the store splits and grows under the
// readers) until the readers finish: the readers' Mops/s beside a writer,
// and the writer's, show what a writer costs the readers. Runs are interleaved
// (repeat, data set, store, threads), so a spell of machine load hits every
// configuration alike; the table gives medians of --repeat runs.
//
// Usage: thread_scaling --store=hyperion,hyperion:arenas=16
//          [--dataset=gcide3,words] [--n=1000000] [--threads=1,2]
//          [--repeat=3] [--seed=42] [--writer]

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kvbench/datasets.h"
#include "kvbench/machine_info.h"
#include "kvbench/memory_probe.h"
#include "kvbench/run_in_child.h"
#include "kvlab/kvlab.h"
#include "kvlab/locked_store.h"

ABSL_FLAG(std::string, store, "hyperion", "Stores, a comma list of specs");
ABSL_FLAG(std::string, dataset, "gcide3,words", "kvbench data sets");
ABSL_FLAG(uint64_t, n, 1'000'000, "Pairs per data set");
ABSL_FLAG(std::string, threads, "1,2", "Thread counts, a comma list");
ABSL_FLAG(int, repeat, 3, "Runs per configuration; the table shows medians");
ABSL_FLAG(uint64_t, seed, 42, "Seed of the data sets");
ABSL_FLAG(bool, writer, false,
          "Also time the gets beside one thread putting new keys");

namespace {

using Clock = std::chrono::steady_clock;

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

// One run's figures; in the child's payload as text, one number per field.
struct Figures {
  double load_mops = 0, load_cores = 0, get_mops = 0, get_cores = 0;
  double bytes_per_pair = 0, pm = 0, fullest = 0;
  double get_beside_writer_mops = 0, writer_mops = 0;
};
constexpr size_t kFields = 9;

// The share of the store's pairs in its fullest arena (the largest
// "arena<i> keys" summary field of its export); 0 for a store without
// arenas.
double FullestArena(const kvlab::KVStore& store) {
  kvlab::StructureOptions options;
  options.max_nodes = 1;
  kvlab::StructureGraph graph;
  if (!store.ExportStructure(options, &graph).ok()) return 0;
  uint64_t fullest = 0;
  for (const kvlab::StructureField& f : graph.summary) {
    uint64_t keys;
    if (absl::StartsWith(f.name, "arena") && absl::EndsWith(f.name, " keys") &&
        absl::SimpleAtoi(f.value, &keys)) {
      fullest = std::max(fullest, keys);
    }
  }
  return double(fullest) / double(std::max<uint64_t>(store.Size(), 1));
}

// Runs `body(t)` on T threads at once; returns wall seconds and sets
// `*cores` to CPU seconds per wall second.
template <typename Body>
double OnThreads(int threads, double* cores, const Body& body) {
  const double cpu0 = CpuSeconds();
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { body(t); });
  for (std::thread& th : pool) th.join();
  const double wall =
      std::chrono::duration<double>(Clock::now() - start).count();
  *cores = (CpuSeconds() - cpu0) / wall;
  return wall;
}

// The --writer phase: every key got again on `threads` threads while one
// more thread puts new keys until they finish. Counts wrong answers in
// `errors`; sets the readers' and the writer's Mops/s in `f`.
void GetsBesideAWriter(kvlab::KVStore& store, const kvbench::DataSet& data,
                       int threads, std::atomic<uint64_t>* errors, Figures* f) {
  const uint64_t n = data.size();
  std::atomic<bool> readers_done{false};
  uint64_t written = 0;
  double write_seconds = 0;
  std::thread writer([&] {
    const Clock::time_point start = Clock::now();
    std::string key;
    // New keys, never a data key's: a data key with a suffix byte past
    // every letter and digit the data sets use.
    while (!readers_done.load(std::memory_order_relaxed)) {
      const uint64_t i = written % n;
      key.assign(data.key(i).data(), data.key(i).size());
      key.append("\x7f~w");
      if (!store.Put(key, data.value(i)).ok()) ++*errors;
      ++written;
    }
    write_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  });
  double cores = 0;
  const double get = OnThreads(threads, &cores, [&](int t) {
    std::string value;
    for (uint64_t i = t; i < n; i += threads) {
      if (!store.Get(data.key(i), &value) || value != data.value(i)) {
        ++*errors;
      }
    }
  });
  readers_done = true;
  writer.join();
  f->get_beside_writer_mops = double(n) / get / 1e6;
  f->writer_mops = double(written) / write_seconds / 1e6;
}

// In the child: the phases on a fresh store. Throws on a wrong answer.
std::string Run(const std::string& spec, const kvbench::DataSet& data,
                int threads) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> made = kvlab::MakeStore(spec);
  if (!made.ok())
    throw std::runtime_error(std::string(made.status().message()));
  kvbench::TrimHeap();
  const uint64_t rss0 = kvbench::ReadProcStatus()->rss_anon;
  std::unique_ptr<kvlab::KVStore> store =
      kvlab::MakeThreadSafe(*std::move(made));
  const uint64_t n = data.size();
  std::atomic<uint64_t> errors{0};
  Figures f;
  const double load = OnThreads(threads, &f.load_cores, [&](int t) {
    for (uint64_t i = t; i < n; i += threads) {
      if (!store->Put(data.key(i), data.value(i)).ok()) ++errors;
    }
  });
  kvbench::TrimHeap();
  const uint64_t rss1 = kvbench::ReadProcStatus()->rss_anon;
  const double get = OnThreads(threads, &f.get_cores, [&](int t) {
    std::string value;
    for (uint64_t i = t; i < n; i += threads) {
      if (!store->Get(data.key(i), &value) || value != data.value(i)) {
        ++errors;
      }
    }
  });
  if (absl::GetFlag(FLAGS_writer)) {
    GetsBesideAWriter(*store, data, threads, &errors, &f);
  }
  if (errors.load() != 0 || store->Size() < n) {
    throw std::runtime_error(
        absl::StrFormat("%s: %d wrong answers", spec.c_str(), errors.load()));
  }
  f.load_mops = double(n) / load / 1e6;
  f.get_mops = double(n) / get / 1e6;
  f.bytes_per_pair = double(rss1 - rss0) / double(n);
  f.pm = (f.load_mops + f.get_mops) / (double(rss1 - rss0) / (1 << 30));
  f.fullest = FullestArena(*store);
  return absl::StrFormat("%.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f",
                         f.load_mops, f.load_cores, f.get_mops, f.get_cores,
                         f.bytes_per_pair, f.pm, f.fullest,
                         f.get_beside_writer_mops, f.writer_mops);
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 == 1 ? v[v.size() / 2]
                           : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const kvbench::BuildInfo build = kvbench::CurrentBuild();
  std::vector<std::string> specs =
      absl::StrSplit(absl::GetFlag(FLAGS_store), ',', absl::SkipEmpty());
  std::vector<std::string> sets =
      absl::StrSplit(absl::GetFlag(FLAGS_dataset), ',', absl::SkipEmpty());
  std::vector<int> thread_counts;
  for (absl::string_view t :
       absl::StrSplit(absl::GetFlag(FLAGS_threads), ',', absl::SkipEmpty())) {
    int count = 0;
    if (!absl::SimpleAtoi(t, &count) || count < 1 || count > 256) {
      std::fprintf(stderr, "thread_scaling: bad thread count\n");
      return 2;
    }
    thread_counts.push_back(count);
  }
  std::printf("thread_scaling %s\nmachine: %s\nbuild: %s%s\n",
              kvbench::UtcTimestamp().c_str(),
              kvbench::MachineDescription(kvbench::ReadMachineInfo()).c_str(),
              kvbench::BuildDescription(build).c_str(),
              kvbench::IsReliableBuild(build)
                  ? ""
                  : ("  " + std::string(kvbench::kUnreliableMark)).c_str());
  std::vector<kvbench::DataSet> data;
  for (const std::string& name : sets) {
    absl::StatusOr<kvbench::DataSet> d = kvbench::GenerateDataSet(
        name, absl::GetFlag(FLAGS_n), absl::GetFlag(FLAGS_seed));
    if (!d.ok()) {
      std::fprintf(stderr, "thread_scaling: %s\n",
                   std::string(d.status().message()).c_str());
      return 2;
    }
    std::printf("data set %s: n=%lu, avg key %.1f B, avg value %.1f B\n",
                name.c_str(), (unsigned long)d->size(), d->info().avg_key_bytes,
                d->info().avg_value_bytes);
    data.push_back(*std::move(d));
  }
  std::fflush(stdout);
  // (data set, spec, threads) -> the runs' figures, one vector per field.
  std::map<std::tuple<size_t, size_t, int>, std::vector<std::vector<double>>>
      runs;
  int status = 0;
  for (int r = 0; r < absl::GetFlag(FLAGS_repeat); ++r) {
    for (size_t d = 0; d < data.size(); ++d) {
      for (size_t s = 0; s < specs.size(); ++s) {
        for (int threads : thread_counts) {
          const kvbench::ChildOutcome outcome = kvbench::RunInChild(
              [&] { return Run(specs[s], data[d], threads); }, 1800);
          std::vector<double> fields;
          for (absl::string_view x : absl::StrSplit(outcome.payload, ' ')) {
            double v;
            if (absl::SimpleAtod(x, &v)) fields.push_back(v);
          }
          if (outcome.kind != kvbench::ChildOutcome::Kind::kExited ||
              outcome.exit_code != 0 || fields.size() != kFields) {
            std::fprintf(stderr, "thread_scaling: %s on %s: %s\n",
                         specs[s].c_str(), sets[d].c_str(),
                         kvbench::DescribeOutcome(outcome).c_str());
            status = 1;
            continue;
          }
          auto& runs_here = runs[{d, s, threads}];
          runs_here.resize(kFields);
          for (size_t i = 0; i < kFields; ++i) {
            runs_here[i].push_back(fields[i]);
          }
        }
      }
    }
  }
  const bool writer = absl::GetFlag(FLAGS_writer);
  std::printf("%-8s %-40s %3s %11s %6s %11s %6s %7s %11s %8s%s\n", "data",
              "store", "T", "load Mops/s", "cores", "get Mops/s", "cores",
              "B/pair", "P/M MOPS/GiB", "fullest",
              writer ? "  get beside W  W Mops/s" : "");
  for (const auto& [where, fields] : runs) {
    const auto& [d, s, threads] = where;
    const double fullest = Median(fields[6]);
    std::printf(
        "%-8s %-40s %3d %11.3f %6.2f %11.3f %6.2f %7.1f %11.1f %8s%s\n",
        sets[d].c_str(), specs[s].c_str(), threads, Median(fields[0]),
        Median(fields[1]), Median(fields[2]), Median(fields[3]),
        Median(fields[4]), Median(fields[5]),
        fullest == 0 ? "-" : absl::StrFormat("%.1f%%", 100 * fullest).c_str(),
        writer ? absl::StrFormat("  %13.3f %9.3f", Median(fields[7]),
                                 Median(fields[8]))
                     .c_str()
               : "");
  }
  return status;
}
