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
//
// The write buffer here is common's std_map (this tool links no stage).

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvlab/ect/ect_index.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/std_map_store.h"

namespace {

using Clock = std::chrono::steady_clock;

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
    std::printf("%-12llu", static_cast<unsigned long long>(g));
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

int Store(int argc, char** argv) {
  const uint64_t n = Flag(argc, argv, "n", 1000000);
  const uint64_t value_bytes = Flag(argc, argv, "value", 100);
  const std::string dir =
      StringFlag(argc, argv, "dir", "/tmp/kvlab-ect-measure");
  std::filesystem::remove_all(dir);
  kvlab::ect::EctOptions o;
  o.dir = dir;
  o.bucket_size = Flag(argc, argv, "bucket_size", 256);
  o.hmax = static_cast<int>(Flag(argc, argv, "hmax", 64));
  o.merge_pairs = uint64_t{1} << 40;  // merges only when asked
  o.sync = kvlab::SyncPolicy::kNone;
  auto store = kvlab::ect::EctStore::Open(
      o, []() -> absl::StatusOr<std::unique_ptr<kvlab::KVStore>> {
        return std::make_unique<kvlab::StdMapStore>();
      });
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().ToString().c_str());
    return 1;
  }
  auto key = [](uint64_t i) { return absl::StrCat("key", i * 2654435761u); };
  const std::string value(value_bytes, 'v');
  auto start = Clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    if (!(*store)->Put(key(i), value).ok()) return 1;
  }
  const double put_s = Seconds(start);
  start = Clock::now();
  if (absl::Status s = (*store)->Merge(); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const double merge_s = Seconds(start);
  kvlab::ect::EctStats st = (*store)->stats();
  std::printf("pairs %llu, %llu-byte values, bucket_size %llu, hmax %d\n",
              static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(value_bytes),
              static_cast<unsigned long long>(o.bucket_size), o.hmax);
  std::printf(
      "index RAM: %.3f bits/key (tries alone %.3f), Huffman tables "
      "%llu bytes, %d bucket bits\n",
      8.0 * double(st.index_bytes) / double(n),
      double(st.trie_bits) / double(n),
      static_cast<unsigned long long>(st.tables_bytes), st.bucket_bits);
  std::printf("data file: %llu bytes (%.1f bytes/pair)\n",
              static_cast<unsigned long long>(st.file_bytes),
              double(st.file_bytes) / double(n));
  std::printf(
      "construction: %.2f s of Puts into the buffer + %.2f s merge "
      "(sort + write + index) = %.0f pairs/s\n",
      put_s, merge_s, double(n) / (put_s + merge_s));

  // Gets of present keys in random order, then absent keys.
  const uint64_t samples = std::min<uint64_t>(n, 1000000);
  std::mt19937_64 rng(7);
  std::vector<double> ns;
  ns.reserve(samples);
  const uint64_t reads0 = st.get_reads;
  std::string got;
  for (uint64_t s = 0; s < samples; ++s) {
    const std::string k = key(rng() % n);
    const auto t0 = Clock::now();
    const bool found = (*store)->Get(k, &got);
    ns.push_back(
        std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
    if (!found || got != value) {
      std::fprintf(stderr, "missing %s\n", k.c_str());
      return 1;
    }
  }
  st = (*store)->stats();
  std::sort(ns.begin(), ns.end());
  std::printf(
      "Get (present, page cache): p50 %.2f us, p99 %.2f us, %.4f "
      "reads/Get over %llu keys, every one found\n",
      ns[ns.size() / 2] / 1000, ns[ns.size() * 99 / 100] / 1000,
      double(st.get_reads - reads0) / double(samples),
      static_cast<unsigned long long>(samples));
  // The same Gets with the data file evicted from the page cache before
  // each one (posix_fadvise DONTNEED, outside the timing), so each pays a
  // read from the device.
  if (Has(argc, argv, "--evict")) {
    const std::string data = absl::StrCat(dir, "/data-", st.generation);
    const int fd = ::open(data.c_str(), O_RDONLY);
    if (fd < 0) {
      std::fprintf(stderr, "cannot open %s\n", data.c_str());
      return 1;
    }
    const uint64_t cold = std::min<uint64_t>(samples, 2000);
    std::vector<double> cold_ns;
    for (uint64_t s = 0; s < cold; ++s) {
      const std::string k = key(rng() % n);
      ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
      const auto t0 = Clock::now();
      const bool found = (*store)->Get(k, &got);
      cold_ns.push_back(
          std::chrono::duration<double, std::nano>(Clock::now() - t0).count());
      if (!found || got != value) return 1;
    }
    ::close(fd);
    std::sort(cold_ns.begin(), cold_ns.end());
    std::printf(
        "Get (present, file evicted before each): p50 %.2f us, p99 %.2f us "
        "over %llu keys\n",
        cold_ns[cold_ns.size() / 2] / 1000,
        cold_ns[cold_ns.size() * 99 / 100] / 1000,
        static_cast<unsigned long long>(cold));
    st = (*store)->stats();
  }
  const uint64_t reads1 = st.get_reads;
  for (uint64_t s = 0; s < samples; ++s) {
    if ((*store)->Get(absl::StrCat("absent", s), nullptr)) return 1;
  }
  st = (*store)->stats();
  std::printf("Get (absent): %.4f reads/Get\n",
              double(st.get_reads - reads1) / double(samples));

  // 10% new pairs merged in, against the first merge.
  for (uint64_t i = n; i < n + n / 10; ++i) {
    if (!(*store)->Put(key(i), value).ok()) return 1;
  }
  start = Clock::now();
  if (!(*store)->Merge().ok()) return 1;
  const double merge10_s = Seconds(start);
  std::printf(
      "merge of 10%% new pairs: %.2f s (first merge of all %llu: "
      "%.2f s; ratio %.2f)\n",
      merge10_s, static_cast<unsigned long long>(n), merge_s,
      merge10_s / merge_s);
  store->reset();
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (Has(argc, argv, "--table")) return Table(Flag(argc, argv, "n", 1000000));
  if (Has(argc, argv, "--store")) return Store(argc, argv);
  std::fprintf(stderr,
               "usage: %s --table [--n=N] | --store [--n=N] "
               "[--value=B] [--dir=D] [--bucket_size=G] [--hmax=H] [--evict]\n",
               argv[0]);
  return 2;
}
