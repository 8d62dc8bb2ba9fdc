// ctrie_scaling: how ctrie's locking designs scale, one operation kind at a
// time. kvbench reports the course mix as one total; this tool splits it.
//
// For every (mix, threads, spec) it loads --n course pairs into a fresh
// store, then runs the mix on T threads for --seconds and reports, per
// operation kind, the calls completed per second of wall time and the mean
// time a call took. Reads are Get and GetNth; writes are Put, Delete and
// DeleteNth. Runs are interleaved (repeat, mix, threads, spec), so a spell of
// machine load hits every spec alike; the table gives the median of
// --repeat runs of each reads/s, writes/s and total, of "cores" (the CPU
// time the threads got, summed, per second of wall time: on a shared
// machine 2 threads may get far less than 2 cores) and of reads per second
// of that CPU time. A thread blocked in a lock uses no CPU time.
//
// Mixes (N is uniform in [0, Size()); Size() is racy, so an N past the end
// is a valid call that answers false):
//   course  the course workload's timed phase: one of five, equally likely:
//           Get of a fresh random course key (almost always absent); Put of
//           a fresh random key; GetNth(N) then Delete of that key; GetNth(N);
//           DeleteNth(N). 3 reads : 3 writes per 5 operations.
//   read90  Get of a loaded key (45%), GetNth(N) (45%), Put of a fresh key
//           (5%), DeleteNth(N) (5%).
//   read    Get of a loaded key (50%), GetNth(N) (50%).
//
// --mode=load instead times only the load of --n pairs into each spec,
// --repeat times, and reports wall and CPU seconds (CPU time is what a busy
// shared machine distorts least) and the growth of RssAnon per key;
// --pool_stats also prints the pool's statistics after the last load.
//
// --mode=empty instead measures what a store gives back: for each spec, one
// store loads the --n pairs and deletes them all, then takes the same keys
// again in rounds, each with values of one length from --round_values and
// each followed by deleting everything. After every fill and every emptying
// it prints the store's MemoryUsage() and the growth of RssAnon since just
// before the store was made.
//
// Course pairs: keys of 1 to 64 letters [a-zA-Z], values of 1 to 255
// printable bytes, lengths uniform, keys distinct; the same definition as
// kvbench's course data set, drawn here from this tool's own generator.
//
// Usage: ctrie_scaling [--mode=mix|load|empty] [--store=ctrie:lock=rcu,...]
//          [--mixes=course,read90,read] [--threads=1,2,4] [--n=1000000]
//          [--seconds=2] [--repeat=3] [--seed=42] [--json=FILE] [--pool_stats]
//          [--round_values=16,64,...]

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kvlab/kv_store.h"
#include "kvlab/locked_store.h"
#include "kvlab/registry.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/stores.h"

ABSL_FLAG(std::string, mode, "mix",
          "mix (per-kind throughput), load, or empty (memory given back)");
ABSL_FLAG(std::string, store,
          "ctrie:lock=rcu,ctrie:lock=global,ctrie:lock=node",
          "Comma list of ctrie specs");
ABSL_FLAG(std::string, mixes, "course,read90,read", "Comma list of mixes");
ABSL_FLAG(std::string, threads, "1,2,4", "Comma list of thread counts");
ABSL_FLAG(uint64_t, n, 1'000'000, "Course pairs loaded before each run");
ABSL_FLAG(double, seconds, 2, "Seconds of each timed run");
ABSL_FLAG(int, repeat, 3, "Runs of each (mix, threads, spec); medians shown");
ABSL_FLAG(uint64_t, seed, 42, "Seed of the pairs and of the threads");
ABSL_FLAG(std::string, json, "", "Append one JSON line per run to this file");
ABSL_FLAG(
    bool, pool_stats, false,
    "--mode=load: print each ctrie's pool statistics after its last load");
ABSL_FLAG(std::string, round_values, "16,64,255,1024,40,512,8,128,2048,100",
          "--mode=empty: the value length of each round");

namespace {

using Clock = std::chrono::steady_clock;
using Rng = std::mt19937_64;

uint64_t Below(Rng& rng, uint64_t bound) {
  return static_cast<uint64_t>(
      (static_cast<unsigned __int128>(rng()) * bound) >> 64);
}

std::string RandomKey(Rng& rng) {
  static constexpr char kLetters[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string key(1 + Below(rng, 64), ' ');
  for (char& c : key) c = kLetters[Below(rng, 52)];
  return key;
}

std::string RandomValue(Rng& rng) {
  std::string value(1 + Below(rng, 255), ' ');
  for (char& c : value) c = static_cast<char>(32 + Below(rng, 95));
  return value;
}

struct Pairs {
  std::vector<std::string> keys, values;
};

Pairs MakePairs(uint64_t n, uint64_t seed) {
  Rng rng(seed);
  Pairs pairs;
  std::unordered_set<std::string> seen;
  seen.reserve(n);
  while (pairs.keys.size() < n) {
    std::string key = RandomKey(rng);
    if (!seen.insert(key).second) continue;
    pairs.keys.push_back(std::move(key));
    pairs.values.push_back(RandomValue(rng));
  }
  return pairs;
}

std::unique_ptr<kvlab::KVStore> MakeStore(const std::string& spec) {
  static const kvlab::StoreRegistry* registry = [] {
    auto* r = new kvlab::StoreRegistry;
    kvlab::RegisterStage4Stores(r);
    return r;
  }();
  auto store = registry->Make(spec);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    std::exit(2);
  }
  return kvlab::MakeThreadSafe(*std::move(store));
}

// The process's resident anonymous memory (RssAnon), in bytes.
double RssAnonBytes() {
  std::ifstream status("/proc/self/status");
  std::string word;
  while (status >> word) {
    if (word == "RssAnon:") {
      double kib = 0;
      status >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

template <typename T>
T Median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// ---- the operation mixes --------------------------------------------------

enum Kind { kGet, kGetNth, kPut, kDelete, kDeleteNth, kKinds };
constexpr const char* kKindNames[kKinds] = {"get", "getnth", "put", "delete",
                                            "deletenth"};

struct alignas(64) ThreadStats {
  uint64_t calls[kKinds] = {};
  double seconds[kKinds] = {};  // time inside the store, per kind
  double cpu_seconds = 0;       // CPU time the thread got while running
};

// Times one store call and books it under `kind`.
template <typename Call>
bool Timed(ThreadStats* s, Kind kind, Call call) {
  const Clock::time_point start = Clock::now();
  const bool result = call();
  s->seconds[kind] +=
      std::chrono::duration<double>(Clock::now() - start).count();
  ++s->calls[kind];
  return result;
}

void MixThread(kvlab::KVStore& store, const Pairs& pairs,
               const std::string& mix, uint64_t seed,
               const std::atomic<bool>& go, const std::atomic<bool>& stop,
               ThreadStats* stats) {
  Rng rng(seed);
  // Put values come from a pool drawn before the clock starts (as kvbench
  // does), so the run times the store, not the generator.
  std::vector<std::string> values(256);
  for (std::string& v : values) v = RandomValue(rng);
  std::string key, value;
  ThreadStats s;
  auto get = [&](const std::string& k) {
    Timed(&s, kGet, [&] { return store.Get(k, &value); });
  };
  auto put = [&] {
    const std::string k = RandomKey(rng);
    const std::string& v = values[Below(rng, values.size())];
    Timed(&s, kPut, [&] {
      absl::StatusOr<bool> replaced = store.Put(k, v);
      return replaced.ok() && *replaced;
    });
  };
  auto get_nth = [&](std::string* v) {
    const uint64_t n = Below(rng, store.Size());
    return Timed(&s, kGetNth, [&] { return store.GetNth(n, &key, v); });
  };
  auto delete_nth = [&] {
    const uint64_t n = Below(rng, store.Size());
    Timed(&s, kDeleteNth, [&] { return store.DeleteNth(n); });
  };
  while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
  const double cpu_start = ThreadCpuSeconds();
  while (!stop.load(std::memory_order_relaxed)) {
    if (mix == "course") {
      switch (Below(rng, 5)) {
        case 0:
          get(RandomKey(rng));
          break;
        case 1:
          put();
          break;
        case 2:
          if (get_nth(nullptr)) {
            Timed(&s, kDelete, [&] { return store.Delete(key); });
          }
          break;
        case 3:
          get_nth(&value);
          break;
        default:
          delete_nth();
          break;
      }
    } else {
      const uint64_t r = Below(rng, 100);
      if (mix == "read") {
        if (r < 50) {
          get(pairs.keys[Below(rng, pairs.keys.size())]);
        } else {
          get_nth(&value);
        }
      } else if (r < 45) {  // read90
        get(pairs.keys[Below(rng, pairs.keys.size())]);
      } else if (r < 90) {
        get_nth(&value);
      } else if (r < 95) {
        put();
      } else {
        delete_nth();
      }
    }
  }
  s.cpu_seconds = ThreadCpuSeconds() - cpu_start;
  *stats = s;
}

struct MixResult {
  double wall = 0;
  double cpu = 0;  // summed over the threads
  uint64_t calls[kKinds] = {};
  double seconds[kKinds] = {};
  uint64_t reads() const { return calls[kGet] + calls[kGetNth]; }
  uint64_t writes() const {
    return calls[kPut] + calls[kDelete] + calls[kDeleteNth];
  }
};

MixResult RunMix(kvlab::KVStore& store, const Pairs& pairs,
                 const std::string& mix, int threads, double seconds,
                 uint64_t seed) {
  std::vector<ThreadStats> stats(threads);
  std::atomic<bool> go{false}, stop{false};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back(MixThread, std::ref(store), std::cref(pairs),
                         std::cref(mix), seed * 1000 + t, std::cref(go),
                         std::cref(stop), &stats[t]);
  }
  const Clock::time_point start = Clock::now();
  go.store(true, std::memory_order_release);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop.store(true, std::memory_order_relaxed);
  for (std::thread& w : workers) w.join();
  MixResult result;
  result.wall = std::chrono::duration<double>(Clock::now() - start).count();
  for (const ThreadStats& s : stats) {
    result.cpu += s.cpu_seconds;
    for (int k = 0; k < kKinds; ++k) {
      result.calls[k] += s.calls[k];
      result.seconds[k] += s.seconds[k];
    }
  }
  return result;
}

// ---- output ---------------------------------------------------------------

std::string MachineLine() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  double load[3] = {0, 0, 0};
  std::ifstream loadavg("/proc/loadavg");
  loadavg >> load[0] >> load[1] >> load[2];
#ifdef NDEBUG
  const char* build = "asserts off (Release)";
#else
  const char* build = "asserts ON (not a Release build: numbers unreliable)";
#endif
  return absl::StrFormat(
      "machine: %s, %u cores; load average %.2f %.2f %.2f; g++ %s, %s", model,
      std::thread::hardware_concurrency(), load[0], load[1], load[2],
      __VERSION__, build);
}

void AppendJson(const std::string& json) {
  const std::string path = absl::GetFlag(FLAGS_json);
  if (path.empty()) return;
  std::ofstream(path, std::ios::app) << json << "\n";
}

std::vector<std::string> List(const std::string& flag) {
  return absl::StrSplit(flag, ',', absl::SkipEmpty());
}

// ---- the three modes ------------------------------------------------------

void RunLoadMode(const Pairs& pairs, const std::vector<std::string>& specs,
                 int repeat) {
  std::vector<std::vector<double>> wall(specs.size()), cpu(specs.size()),
      rss(specs.size());
  for (int r = 0; r < repeat; ++r) {
    for (size_t i = 0; i < specs.size(); ++i) {
      std::unique_ptr<kvlab::KVStore> store = MakeStore(specs[i]);
      const double rss_start = RssAnonBytes();
      const double cpu_start = ThreadCpuSeconds();
      const Clock::time_point start = Clock::now();
      for (size_t k = 0; k < pairs.keys.size(); ++k) {
        (void)store->Put(pairs.keys[k], pairs.values[k]);
      }
      wall[i].push_back(
          std::chrono::duration<double>(Clock::now() - start).count());
      cpu[i].push_back(ThreadCpuSeconds() - cpu_start);
      rss[i].push_back((RssAnonBytes() - rss_start) / pairs.keys.size());
      if (store->Size() != pairs.keys.size()) {
        std::fprintf(stderr, "%s: Size() %llu after loading %zu keys\n",
                     specs[i].c_str(),
                     static_cast<unsigned long long>(store->Size()),
                     pairs.keys.size());
        std::exit(1);
      }
      const auto* ctrie = dynamic_cast<const kvlab::CTrieStore*>(store.get());
      if (absl::GetFlag(FLAGS_pool_stats) && r == repeat - 1 &&
          ctrie != nullptr) {
        std::printf("%s after the load:\n%s", specs[i].c_str(),
                    ctrie->PoolDebugString().c_str());
      }
      AppendJson(absl::StrFormat(
          R"({"tool":"ctrie_scaling","mode":"load","store":"%s","n":%u,)"
          R"("repeat_index":%d,"wall_seconds":%.4f,"cpu_seconds":%.4f,)"
          R"("rss_bytes_per_key":%.2f})",
          specs[i], pairs.keys.size(), r, wall[i].back(), cpu[i].back(),
          rss[i].back()));
    }
  }
  std::printf("%-32s %12s %12s %12s %12s\n", "store", "load wall s",
              "load cpu s", "Mputs/s wall", "RssAnon B/key");
  for (size_t i = 0; i < specs.size(); ++i) {
    const double w = Median(wall[i]);
    std::printf("%-32s %12.3f %12.3f %12.3f %12.1f\n", specs[i].c_str(), w,
                Median(cpu[i]), pairs.keys.size() / w / 1e6, Median(rss[i]));
  }
}

void RunEmptyMode(const Pairs& pairs, const std::vector<std::string>& specs) {
  std::vector<size_t> lengths = {0};  // round 0: the pairs' own values
  for (const std::string& v : List(absl::GetFlag(FLAGS_round_values))) {
    size_t length = 0;
    if (!absl::SimpleAtoi(v, &length) || length > kvlab::kMaxValueSize) {
      std::fprintf(stderr, "bad --round_values entry '%s'\n", v.c_str());
      std::exit(2);
    }
    lengths.push_back(length);
  }
  constexpr double kMB = 1e6;
  for (const std::string& spec : specs) {
    const double rss_start = RssAnonBytes();
    std::unique_ptr<kvlab::KVStore> store = MakeStore(spec);
    std::printf("\n%s: a new store holds %.2f MB (MemoryUsage)\n", spec.c_str(),
                store->MemoryUsage().value_or(0) / kMB);
    std::printf("%5s %8s %14s %14s %14s %14s\n", "round", "values",
                "full: own MB", "RssAnon MB", "empty: own MB", "RssAnon MB");
    for (size_t round = 0; round < lengths.size(); ++round) {
      const std::string value(lengths[round], 'v');
      for (size_t k = 0; k < pairs.keys.size(); ++k) {
        (void)store->Put(pairs.keys[k], round == 0 ? pairs.values[k] : value);
      }
      const double full_own = store->MemoryUsage().value_or(0) / kMB;
      const double full_rss = (RssAnonBytes() - rss_start) / kMB;
      for (const std::string& key : pairs.keys) (void)store->Delete(key);
      if (store->Size() != 0) {
        std::fprintf(stderr, "%s: Size() %llu after deleting every key\n",
                     spec.c_str(),
                     static_cast<unsigned long long>(store->Size()));
        std::exit(1);
      }
      const double empty_own = store->MemoryUsage().value_or(0) / kMB;
      const double empty_rss = (RssAnonBytes() - rss_start) / kMB;
      const std::string values =
          round == 0 ? "course" : absl::StrCat(lengths[round], " B");
      std::printf("%5zu %8s %14.2f %14.2f %14.2f %14.2f\n", round,
                  values.c_str(), full_own, full_rss, empty_own, empty_rss);
      AppendJson(absl::StrFormat(
          R"({"tool":"ctrie_scaling","mode":"empty","store":"%s","n":%u,)"
          R"("round":%u,"value_length":%u,"full_own_mb":%.3f,)"
          R"("full_rss_mb":%.3f,"empty_own_mb":%.3f,"empty_rss_mb":%.3f})",
          spec, pairs.keys.size(), round, lengths[round], full_own, full_rss,
          empty_own, empty_rss));
    }
  }
}

void RunMixMode(const Pairs& pairs, const std::vector<std::string>& specs,
                int repeat) {
  const std::vector<std::string> mixes = List(absl::GetFlag(FLAGS_mixes));
  std::vector<int> thread_counts;
  for (const std::string& t : List(absl::GetFlag(FLAGS_threads))) {
    int v = 0;
    if (!absl::SimpleAtoi(t, &v) || v < 1) {
      std::fprintf(stderr, "bad --threads entry '%s'\n", t.c_str());
      std::exit(2);
    }
    thread_counts.push_back(v);
  }
  for (const std::string& mix : mixes) {
    if (mix != "course" && mix != "read90" && mix != "read") {
      std::fprintf(stderr, "unknown mix '%s' (course, read90, read)\n",
                   mix.c_str());
      std::exit(2);
    }
  }
  const double seconds = absl::GetFlag(FLAGS_seconds);
  // results[mix][threads][spec] = one MixResult per repeat
  std::vector<std::vector<std::vector<std::vector<MixResult>>>> results(
      mixes.size(), std::vector<std::vector<std::vector<MixResult>>>(
                        thread_counts.size(),
                        std::vector<std::vector<MixResult>>(specs.size())));
  for (int r = 0; r < repeat; ++r) {
    for (size_t m = 0; m < mixes.size(); ++m) {
      for (size_t t = 0; t < thread_counts.size(); ++t) {
        for (size_t i = 0; i < specs.size(); ++i) {
          std::unique_ptr<kvlab::KVStore> store = MakeStore(specs[i]);
          for (size_t k = 0; k < pairs.keys.size(); ++k) {
            (void)store->Put(pairs.keys[k], pairs.values[k]);
          }
          const MixResult res =
              RunMix(*store, pairs, mixes[m], thread_counts[t], seconds,
                     absl::GetFlag(FLAGS_seed) + r);
          results[m][t][i].push_back(res);
          std::string kinds;
          for (int k = 0; k < kKinds; ++k) {
            absl::StrAppendFormat(&kinds, R"(,"%s_calls":%u,"%s_seconds":%.4f)",
                                  kKindNames[k], res.calls[k], kKindNames[k],
                                  res.seconds[k]);
          }
          AppendJson(absl::StrFormat(
              R"({"tool":"ctrie_scaling","mode":"mix","mix":"%s",)"
              R"("threads":%d,"store":"%s","n":%u,"repeat_index":%d,)"
              R"("wall_seconds":%.4f,"cpu_seconds":%.4f,"reads_per_s":%.1f,)"
              R"("writes_per_s":%.1f%s})",
              mixes[m], thread_counts[t], specs[i], pairs.keys.size(), r,
              res.wall, res.cpu, res.reads() / res.wall,
              res.writes() / res.wall, kinds));
        }
      }
    }
  }
  for (size_t m = 0; m < mixes.size(); ++m) {
    std::printf("\nmix %s, %g s per run, medians of %d\n", mixes[m].c_str(),
                seconds, repeat);
    std::printf("%-7s %-24s %11s %11s %11s %6s %11s   %s\n", "threads", "store",
                "reads/s", "writes/s", "total/s", "cores", "reads/cpu-s",
                "mean us/call: get getnth put delete deletenth");
    for (size_t t = 0; t < thread_counts.size(); ++t) {
      for (size_t i = 0; i < specs.size(); ++i) {
        const std::vector<MixResult>& runs = results[m][t][i];
        std::vector<double> reads, writes, totals, cores, reads_per_cpu;
        for (const MixResult& x : runs) {
          reads.push_back(x.reads() / x.wall);
          writes.push_back(x.writes() / x.wall);
          totals.push_back((x.reads() + x.writes()) / x.wall);
          cores.push_back(x.cpu / x.wall);
          reads_per_cpu.push_back(x.reads() / x.cpu);
        }
        // Mean latency per kind over all runs' calls.
        std::string latency;
        for (int k = 0; k < kKinds; ++k) {
          uint64_t calls = 0;
          double secs = 0;
          for (const MixResult& x : runs) {
            calls += x.calls[k];
            secs += x.seconds[k];
          }
          if (calls == 0) {
            absl::StrAppend(&latency, "     -");
          } else {
            absl::StrAppendFormat(&latency, " %5.2f", secs / calls * 1e6);
          }
        }
        std::printf("%-7d %-24s %11.0f %11.0f %11.0f %6.2f %11.0f  %s\n",
                    thread_counts[t], specs[i].c_str(), Median(reads),
                    Median(writes), Median(totals), Median(cores),
                    Median(reads_per_cpu), latency.c_str());
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::vector<std::string> specs = List(absl::GetFlag(FLAGS_store));
  const int repeat = std::max(1, absl::GetFlag(FLAGS_repeat));
  const Pairs pairs =
      MakePairs(absl::GetFlag(FLAGS_n), absl::GetFlag(FLAGS_seed));
  std::printf("%s\n", MachineLine().c_str());
  std::printf("pairs: %zu course pairs, seed %llu\n", pairs.keys.size(),
              static_cast<unsigned long long>(absl::GetFlag(FLAGS_seed)));
  const std::string mode = absl::GetFlag(FLAGS_mode);
  if (mode == "load") {
    RunLoadMode(pairs, specs, repeat);
  } else if (mode == "mix") {
    RunMixMode(pairs, specs, repeat);
  } else if (mode == "empty") {
    RunEmptyMode(pairs, specs);
  } else {
    std::fprintf(stderr, "--mode must be mix, load or empty\n");
    return 2;
  }
  std::printf("%s\n", MachineLine().c_str());
  return 0;
}
