// ect_measure: the figures of docs/stage3_ect.md.
//
//   ect_measure --table --n=10000000
//       index bits/key against bucket size and hmax, from random hashkeys
//       (the index alone, no files)
//   ect_measure --store --n=1000000 --value=100 --dir=/tmp/x
//       an ect store built through Put and one merge: index RAM bits/key,
//       file bytes, reads per Get, Get latency p50/p99 (file in the page
//       cache), construction rate, and a merge of 10% new pairs against the
//       first merge's time; with --evict also Get p50/p99 with the data
//       file evicted from the page cache before each Get
//   ect_measure --bulk --n=100000000 --value=16 --dir=/tmp/x
//           [--sort_memory=BYTES] [--sample=1000000]
//       an ect store built by EctStore::Load from a generator of the n pairs
//       (streamed, never all in memory; sorted in --sort_memory bytes,
//       default the store's 256 MiB): the same index and file figures,
//       construction time split into input (generate, hash, sort into runs)
//       and output (merge the runs, write the file, build the index), the
//       process's RAM (peak RSS and RSS after the build), and Gets of a
//       sample of distinct keys, each checked for its value
//
// The directory given must be new or empty; it is removed at the end. The
// write buffer here is common's std_map (this tool links no stage).

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/ect_index.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/std_map_store.h"

namespace {

using Clock = std::chrono::steady_clock;
using kvlab::ect::EctStats;
using kvlab::ect::EctStore;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

uint64_t Flag(int argc, char** argv, const char* name, uint64_t fallback) {
  const std::string prefix = absl::StrCat("--", name, "=");
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) {
      return std::strtoull(argv[i] + prefix.size(), nullptr, 10);
    }
  }
  return fallback;
}

std::string StringFlag(int argc, char** argv, const char* name,
                       const std::string& fallback) {
  const std::string prefix = absl::StrCat("--", name, "=");
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) {
      return argv[i] + prefix.size();
    }
  }
  return fallback;
}

bool Has(int argc, char** argv, const char* name) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return true;
  }
  return false;
}

unsigned long long U(uint64_t v) { return static_cast<unsigned long long>(v); }

// The i-th key of --store and --bulk: distinct for every i below 2^32.
std::string KeyOf(uint64_t i) { return absl::StrCat("key", i * 2654435761u); }

// The i-th value of --bulk: `bytes` long and different for every i (while
// `bytes` holds i's digits), so a Get that found another key's pair fails.
std::string BulkValueOf(uint64_t i, size_t bytes) {
  const std::string stamp = absl::StrCat("v", i, ".");
  std::string value;
  value.reserve(bytes);
  while (value.size() < bytes) value.append(stamp);
  value.resize(bytes);
  return value;
}

// The p-th percentile (0 to 100) of sorted nanoseconds, in microseconds.
double PercentileMicros(const std::vector<double>& sorted_ns, int p) {
  return sorted_ns[sorted_ns.size() * p / 100] / 1000;
}

int Table(uint64_t n) {
  std::mt19937_64 rng(256);
  std::vector<uint64_t> keys(n);
  for (auto& k : keys) k = rng();
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::printf(
      "# index bits/key (tries + two-level offsets), %zu random "
      "hashkeys\n",
      keys.size());
  std::printf("%-12s", "bucket\\hmax");
  const int hmaxes[] = {1, 8, 16, 32, 64};
  for (int h : hmaxes) std::printf(" %8d", h);
  std::printf("   build s (hmax 64)\n");
  for (uint64_t g : {64, 128, 256, 512, 1024}) {
    std::printf("%-12llu", U(g));
    double seconds = 0;
    for (int h : hmaxes) {
      auto tables = kvlab::ect::HuffmanTables::Build(h);
      auto shared =
          std::make_shared<const kvlab::ect::HuffmanTables>(*std::move(tables));
      const int bits = kvlab::ect::BucketBitsFor(keys.size(), g);
      const auto start = Clock::now();
      auto builder = kvlab::ect::EctIndexBuilder::Create(bits, shared);
      for (size_t i = 0; i < keys.size();) {
        const uint64_t b = kvlab::ect::BucketOf(keys[i], bits);
        size_t j = i;
        while (j < keys.size() && kvlab::ect::BucketOf(keys[j], bits) == b) ++j;
        builder->AddBucket(b, {keys.data() + i, j - i}, 0);
        i = j;
      }
      auto index = std::move(*builder).Finish(0);
      seconds = Seconds(start);
      std::printf(" %8.3f",
                  8.0 * double(index->MemoryBytes()) / double(keys.size()));
    }
    std::printf("   %.2f\n", seconds);
  }
  return 0;
}

// The store's directory for one run: refused if it exists and is not empty
// (it is removed at the end, so it must hold nothing else), removed with
// everything in it when this goes out of scope.
class RunDirectory {
 public:
  explicit RunDirectory(std::string path) : path_(std::move(path)) {}
  ~RunDirectory() {
    if (!owned_) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }

  bool Claim() {
    std::error_code ec;
    if (std::filesystem::exists(path_, ec) &&
        !std::filesystem::is_empty(path_, ec)) {
      std::fprintf(stderr, "%s exists and is not empty: remove it first\n",
                   path_.c_str());
      return false;
    }
    owned_ = true;
    return true;
  }

  const std::string& path() const { return path_; }

 private:
  const std::string path_;
  bool owned_ = false;
};

kvlab::ect::EctOptions StoreOptions(int argc, char** argv,
                                    const std::string& dir) {
  kvlab::ect::EctOptions o;
  o.dir = dir;
  o.bucket_size = Flag(argc, argv, "bucket_size", 256);
  o.hmax = static_cast<int>(Flag(argc, argv, "hmax", 64));
  o.merge_pairs = uint64_t{1} << 40;  // merges only when asked
  o.sort_memory_bytes = Flag(argc, argv, "sort_memory",
                             kvlab::ect::EctOptions().sort_memory_bytes);
  o.sync = kvlab::SyncPolicy::kNone;
  return o;
}

std::unique_ptr<EctStore> OpenStore(const kvlab::ect::EctOptions& o) {
  auto store = EctStore::Open(
      o, []() -> absl::StatusOr<std::unique_ptr<kvlab::KVStore>> {
        return std::make_unique<kvlab::StdMapStore>();
      });
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    return nullptr;
  }
  return *std::move(store);
}

void PrintIndexAndFile(const EctStats& st, uint64_t n) {
  std::printf(
      "index RAM: %.3f bits/key (tries alone %.3f), Huffman tables "
      "%llu bytes, %d bucket bits\n",
      8.0 * double(st.index_bytes) / double(n),
      double(st.trie_bits) / double(n), U(st.tables_bytes), st.bucket_bits);
  std::printf("data file: %llu bytes (%.1f bytes/pair)\n", U(st.file_bytes),
              double(st.file_bytes) / double(n));
}

// Gets the keys KeyOf(i) for i in `sample`, in that order, timing each into
// `*ns` (sorted at the end); false, after naming it, at the first key that
// is missing or has another value than `value_of(i)`.
bool TimedGets(const EctStore& store, const std::vector<uint64_t>& sample,
               const std::function<std::string(uint64_t)>& value_of,
               std::vector<double>* ns) {
  ns->clear();
  ns->reserve(sample.size());
  std::string got;
  for (uint64_t i : sample) {
    const std::string k = KeyOf(i);
    const auto t0 = Clock::now();
    const bool found = store.Get(k, &got);
    ns->push_back(
        std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    if (!found || got != value_of(i)) {
      std::fprintf(stderr, "%s %s\n", found ? "wrong value for" : "missing",
                   k.c_str());
      return false;
    }
  }
  std::sort(ns->begin(), ns->end());
  return true;
}

// Gets `count` keys the store does not hold; false if one is found. Prints
// the data-file reads per Get.
bool AbsentGets(const EctStore& store, uint64_t count) {
  const uint64_t reads0 = store.stats().get_reads;
  for (uint64_t s = 0; s < count; ++s) {
    if (store.Get(absl::StrCat("absent", s), nullptr)) {
      std::fprintf(stderr, "absent%llu found\n", U(s));
      return false;
    }
  }
  std::printf("Get (absent): %.4f reads/Get\n",
              double(store.stats().get_reads - reads0) / double(count));
  return true;
}

// The same Gets with the data file evicted from the page cache before each
// one (posix_fadvise DONTNEED, outside the timing), so each pays a read from
// the device.
bool EvictedGets(const EctStore& store, const std::string& dir,
                 const std::vector<uint64_t>& sample,
                 const std::string& value) {
  const std::string data =
      absl::StrCat(dir, "/data-", store.stats().generation);
  const int fd = ::open(data.c_str(), O_RDONLY);
  if (fd < 0) {
    std::fprintf(stderr, "cannot open %s\n", data.c_str());
    return false;
  }
  std::vector<double> ns;
  std::string got;
  for (uint64_t i : sample) {
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    const auto t0 = Clock::now();
    const bool found = store.Get(KeyOf(i), &got);
    ns.push_back(
        std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    if (!found || got != value) break;
  }
  ::close(fd);
  if (ns.size() != sample.size()) return false;
  std::sort(ns.begin(), ns.end());
  std::printf(
      "Get (present, file evicted before each): p50 %.2f us, p99 %.2f us "
      "over %llu keys\n",
      PercentileMicros(ns, 50), PercentileMicros(ns, 99), U(sample.size()));
  return true;
}

int Store(int argc, char** argv) {
  const uint64_t n = Flag(argc, argv, "n", 1000000);
  const uint64_t value_bytes = Flag(argc, argv, "value", 100);
  RunDirectory dir(StringFlag(argc, argv, "dir", "/tmp/kvlab-ect-measure"));
  if (!dir.Claim()) return 1;
  const kvlab::ect::EctOptions o = StoreOptions(argc, argv, dir.path());
  std::unique_ptr<EctStore> store = OpenStore(o);
  if (store == nullptr) return 1;
  const std::string value(value_bytes, 'v');
  auto start = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    if (!store->Put(KeyOf(i), value).ok()) return 1;
  }
  const double put_s = Seconds(start);
  start = Clock::now();
  if (absl::Status s = store->Merge(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const double merge_s = Seconds(start);
  EctStats st = store->stats();
  std::printf("pairs %llu, %llu-byte values, bucket_size %llu, hmax %d\n", U(n),
              U(value_bytes), U(o.bucket_size), o.hmax);
  PrintIndexAndFile(st, n);
  std::printf(
      "construction: %.2f s of Puts into the buffer + %.2f s merge "
      "(sort + write + index) = %.0f pairs/s\n",
      put_s, merge_s, double(n) / (put_s + merge_s));

  // Gets of present keys in random order, then absent keys.
  const uint64_t samples = std::min<uint64_t>(n, 1000000);
  std::mt19937_64 rng(7);
  std::vector<uint64_t> sample(samples);
  for (uint64_t& i : sample) i = rng() % n;
  std::vector<double> ns;
  const uint64_t reads0 = st.get_reads;
  auto same_value = [&value](uint64_t) { return value; };
  if (!TimedGets(*store, sample, same_value, &ns)) return 1;
  std::printf(
      "Get (present, page cache): p50 %.2f us, p99 %.2f us, %.4f "
      "reads/Get over %llu keys, every one found\n",
      PercentileMicros(ns, 50), PercentileMicros(ns, 99),
      double(store->stats().get_reads - reads0) / double(samples), U(samples));
  if (Has(argc, argv, "--evict")) {
    std::vector<uint64_t> cold(std::min<uint64_t>(samples, 2000));
    for (uint64_t& i : cold) i = rng() % n;
    if (!EvictedGets(*store, dir.path(), cold, value)) return 1;
  }
  if (!AbsentGets(*store, samples)) return 1;

  // 10% new pairs merged in, against the first merge.
  for (uint64_t i = n; i < n + n / 10; ++i) {
    if (!store->Put(KeyOf(i), value).ok()) return 1;
  }
  start = Clock::now();
  if (!store->Merge().ok()) return 1;
  const double merge10_s = Seconds(start);
  std::printf(
      "merge of 10%% new pairs: %.2f s (first merge of all %llu: "
      "%.2f s; ratio %.2f)\n",
      merge10_s, U(n), merge_s, merge10_s / merge_s);
  return 0;
}

// The process's resident memory from /proc/self/status, in bytes: VmRSS now
// and VmHWM, its peak since the process started. (kvbench's memory probe
// reads the same fields but lives in benchmarks/, which no stage links.)
struct ProcessMemory {
  uint64_t rss = 0;
  uint64_t peak_rss = 0;
};

ProcessMemory ReadProcessMemory() {
  ProcessMemory m;
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    unsigned long long kib = 0;
    if (std::sscanf(line.c_str(), "VmRSS: %llu kB", &kib) == 1)
      m.rss = kib << 10;
    if (std::sscanf(line.c_str(), "VmHWM: %llu kB", &kib) == 1) {
      m.peak_rss = kib << 10;
    }
  }
  return m;
}

double MiB(uint64_t bytes) { return double(bytes) / double(1 << 20); }

// Seconds spent in the two halves of EctStore::Load.
struct LoadTimes {
  double input_s = 0;   // generate, hash, hold and spill sorted runs
  double output_s = 0;  // merge the runs, write the file, build the index
};

// Loads KeyOf(i) -> BulkValueOf(i) for i < n through EctStore::Load, one
// pair at a time from a generator (nothing but the sort's budget held).
// Reports progress on stderr every 10 million pairs.
absl::Status BulkLoad(EctStore& store, uint64_t n, size_t value_bytes,
                      LoadTimes* times) {
  const auto start = Clock::now();
  Clock::time_point input_end;
  uint64_t i = 0;
  auto next = [&](std::string* key, std::string* value) {
    if (i == n) {
      input_end = Clock::now();
      return false;
    }
    *key = KeyOf(i);
    *value = BulkValueOf(i, value_bytes);
    if (++i % 10000000 == 0) {
      std::fprintf(stderr, "  %llu pairs in, %.0f s\n", U(i), Seconds(start));
    }
    return true;
  };
  absl::Status s = store.Load(next);
  times->input_s = std::chrono::duration<double>(input_end - start).count();
  times->output_s = Seconds(input_end);
  return s;
}

void PrintConstruction(const LoadTimes& t, const EctStats& st, uint64_t n) {
  std::printf(
      "construction: %.2f s input (generate, hash, sort into %llu runs) + "
      "%.2f s output (merge the runs, write the file, build the index) = "
      "%.0f pairs/s\n",
      t.input_s, U(st.sort_runs), t.output_s,
      double(n) / (t.input_s + t.output_s));
}

// RAM before the store was opened, right after the build, and after the
// build with the heap trimmed (malloc_trim: the sort's freed memory that
// glibc kept is not the store's).
struct BuildMemory {
  ProcessMemory before, built, trimmed;
};

void PrintMemory(const BuildMemory& m, const EctStore& store, uint64_t n) {
  const double bits_per_byte_per_key = 8.0 / double(n);
  std::printf(
      "process RAM: peak RSS (VmHWM) %.1f MiB during the build; RSS %.1f "
      "MiB before the store was opened, %.1f MiB after the build, %.1f MiB "
      "(%.2f bits/key) with the heap trimmed; the store's own count (index, "
      "tables, buffer) %.1f MiB\n",
      MiB(m.built.peak_rss), MiB(m.before.rss), MiB(m.built.rss),
      MiB(m.trimmed.rss), bits_per_byte_per_key * double(m.trimmed.rss),
      MiB(store.MemoryUsage().value_or(0)));
}

// `count` distinct indices below n, evenly spread, in random order.
std::vector<uint64_t> DistinctSample(uint64_t n, uint64_t count) {
  std::vector<uint64_t> sample(count);
  for (uint64_t s = 0; s < count; ++s) sample[s] = s * n / count;
  std::shuffle(sample.begin(), sample.end(), std::mt19937_64(7));
  return sample;
}

int Bulk(int argc, char** argv) {
  const uint64_t n = Flag(argc, argv, "n", 1000000);
  const uint64_t value_bytes = Flag(argc, argv, "value", 16);
  const uint64_t samples =
      std::min<uint64_t>(n, Flag(argc, argv, "sample", 1000000));
  if (n == 0 || n > (uint64_t{1} << 32) || value_bytes > kvlab::kMaxValueSize) {
    std::fprintf(stderr, "--n must be 1 to 2^32, --value at most %zu\n",
                 kvlab::kMaxValueSize);
    return 2;
  }
  RunDirectory dir(StringFlag(argc, argv, "dir", "/tmp/kvlab-ect-measure"));
  if (!dir.Claim()) return 1;
  const kvlab::ect::EctOptions o = StoreOptions(argc, argv, dir.path());
  BuildMemory memory;
  memory.before = ReadProcessMemory();
  std::unique_ptr<EctStore> store = OpenStore(o);
  if (store == nullptr) return 1;
  LoadTimes times;
  if (absl::Status s = BulkLoad(*store, n, value_bytes, &times); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  memory.built = ReadProcessMemory();
  ::malloc_trim(0);
  memory.trimmed = ReadProcessMemory();
  const EctStats st = store->stats();
  std::printf(
      "pairs %llu (keys of %zu to %zu bytes), %llu-byte values, bucket_size "
      "%llu, hmax %d, sort memory %llu bytes, loaded with EctStore::Load\n",
      U(n), KeyOf(0).size(), KeyOf(n - 1).size(), U(value_bytes),
      U(o.bucket_size), o.hmax, U(o.sort_memory_bytes));
  if (st.file_pairs != n) {
    std::fprintf(stderr, "the file holds %llu pairs, not %llu\n",
                 U(st.file_pairs), U(n));
    return 1;
  }
  PrintIndexAndFile(st, n);
  PrintConstruction(times, st, n);
  PrintMemory(memory, *store, n);

  const std::vector<uint64_t> sample = DistinctSample(n, samples);
  auto value_of = [value_bytes](uint64_t i) {
    return BulkValueOf(i, value_bytes);
  };
  std::vector<double> ns;
  if (!TimedGets(*store, sample, value_of, &ns)) return 1;
  std::printf(
      "Get (present, page cache): p50 %.2f us, p99 %.2f us, %.4f reads/Get; "
      "every key in a sample of %llu distinct keys found with its value\n",
      PercentileMicros(ns, 50), PercentileMicros(ns, 99),
      double(store->stats().get_reads - st.get_reads) / double(samples),
      U(samples));
  if (!AbsentGets(*store, samples)) return 1;
  std::printf("process RAM at the end: peak RSS (VmHWM) %.1f MiB\n",
              MiB(ReadProcessMemory().peak_rss));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (Has(argc, argv, "--table")) return Table(Flag(argc, argv, "n", 1000000));
  if (Has(argc, argv, "--store")) return Store(argc, argv);
  if (Has(argc, argv, "--bulk")) return Bulk(argc, argv);
  std::fprintf(stderr,
               "usage: %s --table [--n=N]\n"
               "       %s --store [--n=N] [--value=B] [--dir=D] "
               "[--bucket_size=G] [--hmax=H] [--evict]\n"
               "       %s --bulk [--n=N] [--value=B] [--dir=D] "
               "[--bucket_size=G] [--hmax=H] [--sort_memory=BYTES] "
               "[--sample=S]\n",
               argv[0], argv[0], argv[0]);
  return 2;
}
