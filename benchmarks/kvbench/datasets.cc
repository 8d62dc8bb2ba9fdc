#include "kvbench/datasets.h"

#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>

#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "kvbench/format.h"
#include "kvbench/random.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {

// The set stores pair indexes and hashes/compares the keys they name, so it
// costs 8 bytes per key and survives the buffer growing.
struct DataSetBuilder::KeySet {
  struct Hash {
    const DataSet* data;
    size_t operator()(uint64_t i) const {
      return absl::Hash<std::string_view>{}(data->key(i));
    }
  };
  struct Eq {
    const DataSet* data;
    bool operator()(uint64_t a, uint64_t b) const {
      return data->key(a) == data->key(b);
    }
  };
  explicit KeySet(const DataSet* data) : set(0, Hash{data}, Eq{data}) {}
  absl::flat_hash_set<uint64_t, Hash, Eq> set;
};

DataSetBuilder::DataSetBuilder(bool dedupe, uint64_t expected_pairs) {
  data_.offsets_.reserve(2 * expected_pairs + 1);
  data_.offsets_.push_back(0);
  if (dedupe) {
    keys_ = new KeySet(&data_);
    keys_->set.reserve(expected_pairs);
  }
}

DataSetBuilder::~DataSetBuilder() { delete keys_; }

bool DataSetBuilder::Add(std::string_view key, std::string_view value) {
  const uint64_t index = size();
  // Append the key first so the set can hash it like any stored key.
  data_.bytes_.append(key);
  data_.offsets_.push_back(data_.bytes_.size());
  if (keys_ != nullptr && !keys_->set.insert(index).second) {
    data_.offsets_.pop_back();
    data_.bytes_.resize(data_.offsets_.back());
    return false;
  }
  data_.bytes_.append(value);
  data_.offsets_.push_back(data_.bytes_.size());
  return true;
}

DataSet DataSetBuilder::Finish(DataSetInfo info) {
  delete keys_;
  keys_ = nullptr;
  const uint64_t n = size();
  uint64_t key_bytes = 0;
  for (uint64_t i = 0; i < n; ++i) key_bytes += data_.key(i).size();
  info.n = n;
  if (n > 0) {
    info.avg_key_bytes = static_cast<double>(key_bytes) / n;
    info.avg_value_bytes =
        static_cast<double>(data_.bytes_.size() - key_bytes) / n;
  }
  data_.info_ = std::move(info);
  DataSet result = std::move(data_);
  data_ = DataSet();
  data_.offsets_.push_back(0);
  return result;
}

namespace {

std::string BigEndian(uint64_t x) {
  std::string bytes(8, '\0');
  for (int i = 7; i >= 0; --i, x >>= 8) bytes[i] = static_cast<char>(x & 0xff);
  return bytes;
}

DataSet GenerateCourse(uint64_t n, Rng& rng, DataSetInfo info) {
  DataSetBuilder builder(/*dedupe=*/true, n);
  std::string key, value;
  while (builder.size() < n) {
    key.clear();
    value.clear();
    AppendRandomLetters(rng, 1 + Below(rng, 64), &key);
    AppendRandomPrintable(rng, 1 + Below(rng, 255), &value);
    builder.Add(key, value);  // a duplicate key is simply drawn again
  }
  return builder.Finish(std::move(info));
}

DataSet GenerateSequentialInts(uint64_t n, Rng& rng, DataSetInfo info) {
  DataSetBuilder builder(/*dedupe=*/false, n);
  for (uint64_t i = 0; i < n; ++i) builder.Add(BigEndian(i), BigEndian(rng()));
  return builder.Finish(std::move(info));
}

DataSet GenerateRandomInts(uint64_t n, Rng& rng, DataSetInfo info) {
  DataSetBuilder builder(/*dedupe=*/true, n);
  while (builder.size() < n) builder.Add(BigEndian(rng()), BigEndian(rng()));
  return builder.Finish(std::move(info));
}

// Strings in one buffer plus their end offsets. A cached list is kept in
// this form because it is two allocations: a vector of std::string would
// stay interleaved with the freed temporaries of its parsing, and a store
// loaded later would fill those holes in already-resident pages unseen by
// RssAnon (its growth then reads too low).
class PackedStrings {
 public:
  explicit PackedStrings(const std::vector<std::string>& items) {
    size_t total = 0;
    for (const std::string& item : items) total += item.size();
    bytes_.reserve(total);
    ends_.reserve(items.size());
    for (const std::string& item : items) {
      bytes_.append(item);
      ends_.push_back(bytes_.size());
    }
  }
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_).substr(begin, ends_[i] - begin);
  }

 private:
  std::string bytes_;
  std::vector<uint64_t> ends_;
};

struct PackedUrlParts {
  explicit PackedUrlParts(const UrlParts& parts)
      : hosts(parts.hosts), paths(parts.paths) {}
  PackedStrings hosts, paths;
};

// The texts behind words, gcide3 and urls are parsed once per process and
// kept, packed: kvbench generates every data set in its parent before
// forking, so each run's child (and the memory guard's sample child)
// inherits the parsed lists instead of parsing again (GCIDE alone takes
// some 10 s). The cache exists before every child's baseline reading, so it
// is never charged to a store. An entry is keyed by its paths and their
// modification times, so a source changed in between is read again;
// failures are not cached.
template <typename Packed, typename Parsed>
absl::StatusOr<std::shared_ptr<const Packed>> Cached(
    const std::string& key,
    absl::StatusOr<Parsed> (*read)(std::string_view, std::string_view),
    std::string_view a, std::string_view b) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Packed>>* cache =
      new std::map<std::string, std::shared_ptr<const Packed>>();
  std::string stamped = key;
  for (std::string_view path : {a, b}) {
    std::error_code error;
    const auto time = std::filesystem::last_write_time(path, error);
    absl::StrAppend(&stamped, "|", error ? 0 : time.time_since_epoch().count());
  }
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache->find(stamped);
  if (it != cache->end()) return it->second;
  std::shared_ptr<const Packed> packed;
  {
    absl::StatusOr<Parsed> parsed = read(a, b);
    if (!parsed.ok()) return parsed.status();
    packed = std::make_shared<const Packed>(*parsed);
  }  // the parsed form is freed here, before the caller trims the heap
  cache->emplace(stamped, packed);
  return packed;
}

absl::StatusOr<std::vector<std::string>> ReadWordListsOf(std::string_view dir,
                                                         std::string_view) {
  return ReadWordLists(dir);
}
absl::StatusOr<std::vector<std::string>> ReadGcideTrigramsOf(
    std::string_view path, std::string_view) {
  return ReadGcideTrigrams(path);
}

// The first n (at most all) of a seeded shuffle of `items` (distinct keys,
// sorted, so the choice depends on the seed alone), each with an 8-byte
// random value; notes when fewer than n exist. Shuffling indexes gives the
// permutation shuffling the items would, without copying them.
DataSet TakeShuffled(const PackedStrings& items, uint64_t n, Rng& rng,
                     std::string_view what, DataSetInfo info) {
  std::vector<uint32_t> order(items.size());
  std::iota(order.begin(), order.end(), 0u);
  Shuffle(order, rng);
  if (n >= items.size()) {
    info.note =
        absl::StrCat("all ", WithCommas(items.size()), " ", kvlab::ToAbsl(what),
                     "; ", WithCommas(n), " requested");
    n = items.size();
  }
  DataSetBuilder builder(/*dedupe=*/false, n);  // already distinct
  for (uint64_t i = 0; i < n; ++i) {
    builder.Add(items[order[i]], BigEndian(rng()));
  }
  return builder.Finish(std::move(info));
}

absl::StatusOr<DataSet> GenerateWords(uint64_t n, Rng& rng,
                                      std::string_view dict_dir,
                                      DataSetInfo info) {
  absl::StatusOr<std::shared_ptr<const PackedStrings>> words =
      Cached<PackedStrings>(absl::StrCat("words:", kvlab::ToAbsl(dict_dir)),
                            ReadWordListsOf, dict_dir, "");
  if (!words.ok()) return words.status();
  return TakeShuffled(**words, n, rng,
                      absl::StrCat("words of ", kvlab::ToAbsl(dict_dir)),
                      std::move(info));
}

// Course v3, the course benchmark's last variant: every key and value ends
// in '\n' (letters 1-63 + '\n', printable 1-254 + '\n', so both still fit
// the course API's 255-byte Slice).
DataSet GenerateCourseV3(uint64_t n, Rng& rng, DataSetInfo info) {
  DataSetBuilder builder(/*dedupe=*/true, n);
  std::string key, value;
  while (builder.size() < n) {
    key.clear();
    value.clear();
    AppendRandomLetters(rng, 1 + Below(rng, 63), &key);
    key.push_back('\n');
    AppendRandomPrintable(rng, 1 + Below(rng, 254), &value);
    value.push_back('\n');
    builder.Add(key, value);
  }
  return builder.Finish(std::move(info));
}

absl::StatusOr<DataSet> GenerateGcide3(uint64_t n, Rng& rng,
                                       std::string_view path,
                                       DataSetInfo info) {
  absl::StatusOr<std::shared_ptr<const PackedStrings>> trigrams =
      Cached<PackedStrings>(absl::StrCat("gcide3:", kvlab::ToAbsl(path)),
                            ReadGcideTrigramsOf, path, "");
  if (!trigrams.ok()) return trigrams.status();
  return TakeShuffled(**trigrams, n, rng, "GCIDE word trigrams",
                      std::move(info));
}

absl::StatusOr<DataSet> GenerateUrls(uint64_t n, Rng& rng, DataSetInfo info) {
  absl::StatusOr<std::shared_ptr<const PackedUrlParts>> cached =
      Cached<PackedUrlParts>(absl::StrCat("urls:", kvlab::ToAbsl(kDocDir), ":",
                                          kvlab::ToAbsl(kDpkgInfoDir)),
                             ReadUrlParts, kDocDir, kDpkgInfoDir);
  if (!cached.ok()) return cached.status();
  const PackedUrlParts* parts = cached->get();
  const uint64_t possible =
      static_cast<uint64_t>(parts->hosts.size()) * parts->paths.size();
  if (n > possible / 2) {
    info.note =
        absl::StrCat("at most half of the ", WithCommas(possible),
                     " host x path pairs; ", WithCommas(n), " requested");
    n = possible / 2;
  }
  DataSetBuilder builder(/*dedupe=*/true, n);
  std::string url;
  while (builder.size() < n) {
    url.assign("https://");
    url.append(parts->hosts[Below(rng, parts->hosts.size())]);
    url.append(parts->paths[Below(rng, parts->paths.size())]);
    builder.Add(url, BigEndian(rng()));
  }
  return builder.Finish(std::move(info));
}

// A word list is a text file of lines; a NUL byte means it is not one.
bool LooksLikeWordList(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (absl::StartsWithIgnoreCase(name, "README") ||
      absl::StartsWith(name, ".") || absl::EndsWith(name, "~") ||
      absl::StrContains(name, ".dpkg-")) {
    return false;
  }
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  char buffer[4096];
  in.read(buffer, sizeof(buffer));
  return std::find(buffer, buffer + in.gcount(), '\0') == buffer + in.gcount();
}

}  // namespace

const std::vector<std::string>& DataSetNames() {
  static const std::vector<std::string> kNames = {
      "course", "seq_int", "rand_int", "words", "gcide3", "urls", "course_v3"};
  return kNames;
}

bool IsDataSetName(std::string_view name) {
  const auto& names = DataSetNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

LoadOrder LoadOrderOf(std::string_view name) {
  return name == "seq_int" ? LoadOrder::kSorted : LoadOrder::kRandom;
}

absl::StatusOr<std::vector<std::string>> ReadWordLists(
    std::string_view dict_dir) {
  std::error_code error;
  std::filesystem::directory_iterator it(dict_dir, error), end;
  std::vector<std::string> words;
  int lists = 0;
  for (; !error && it != end; it.increment(error)) {
    if (!LooksLikeWordList(it->path())) continue;
    std::ifstream in(it->path(), std::ios::binary);
    ++lists;
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) words.push_back(std::move(line));
    }
  }
  if (lists == 0 || words.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "data set 'words': no word list found under ", kvlab::ToAbsl(dict_dir),
        " (Debian's wamerican/wbritish); run `make deps` to install them"));
  }
  // Lists overlap (american-english, british-english, words -> one of them).
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  return words;
}

absl::StatusOr<std::vector<std::string>> ReadGcideTrigrams(
    std::string_view path) {
  gzFile in = gzopen(std::string(path).c_str(), "rb");
  if (in == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("data set 'gcide3': cannot read ", kvlab::ToAbsl(path),
                     " (Debian's dict-gcide); run `make deps` to install it"));
  }
  // Words are runs of ASCII letters over the whole text; a trigram is three
  // consecutive words joined by single spaces.
  std::vector<std::string> trigrams;
  absl::flat_hash_set<std::string> seen;
  std::string words[3];
  int have = 0;
  std::string current;
  auto end_word = [&] {
    if (current.empty()) return;
    words[0] = std::move(words[1]);
    words[1] = std::move(words[2]);
    words[2] = std::move(current);
    current.clear();
    if (++have < 3) return;
    std::string trigram = absl::StrCat(words[0], " ", words[1], " ", words[2]);
    if (seen.insert(trigram).second) trigrams.push_back(std::move(trigram));
  };
  char buffer[1 << 16];
  int got;
  while ((got = gzread(in, buffer, sizeof(buffer))) > 0) {
    for (int i = 0; i < got; ++i) {
      const char c = buffer[i];
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        current.push_back(c);
      } else {
        end_word();
      }
    }
  }
  end_word();
  const bool failed = got < 0;
  gzclose(in);
  if (failed || trigrams.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "data set 'gcide3': ", kvlab::ToAbsl(path),
        " is not a readable gzip'd dictionary; reinstall dict-gcide"));
  }
  // First-occurrence order depends on the file; sorting makes the later
  // shuffle depend on the seed and the word set alone.
  std::sort(trigrams.begin(), trigrams.end());
  return trigrams;
}

absl::StatusOr<UrlParts> ReadUrlParts(std::string_view doc_dir,
                                      std::string_view dpkg_info_dir) {
  UrlParts parts;
  std::error_code error;
  // Hosts: every http(s) URL's host named in a package's copyright file.
  absl::flat_hash_set<std::string> hosts;
  for (std::filesystem::directory_iterator it(doc_dir, error), end;
       !error && it != end; it.increment(error)) {
    std::ifstream in(it->path() / "copyright", std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      for (size_t at = line.find("://"); at != std::string::npos;
           at = line.find("://", at + 3)) {
        const bool http = at >= 4 && line.compare(at - 4, 4, "http") == 0;
        const bool https = at >= 5 && line.compare(at - 5, 5, "https") == 0;
        if (!http && !https) continue;
        size_t end = at + 3;
        while (end < line.size() &&
               (std::isalnum(static_cast<unsigned char>(line[end])) ||
                line[end] == '.' || line[end] == '-')) {
          ++end;
        }
        std::string host = line.substr(at + 3, end - at - 3);
        if (host.find('.') != std::string::npos) hosts.insert(std::move(host));
      }
    }
  }
  // Paths: every file and directory an installed package lists.
  absl::flat_hash_set<std::string> paths;
  for (std::filesystem::directory_iterator it(dpkg_info_dir, error), end;
       !error && it != end; it.increment(error)) {
    if (it->path().extension() != ".list") continue;
    std::ifstream in(it->path(), std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (line.size() > 1 && line[0] == '/' && line.size() < 512) {
        paths.insert(std::move(line));
      }
    }
  }
  if (hosts.empty() || paths.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "data set 'urls': found ", hosts.size(), " host names under ",
        kvlab::ToAbsl(doc_dir), "/*/copyright and ", paths.size(),
        " paths under ", kvlab::ToAbsl(dpkg_info_dir),
        "/*.list; both must be non-empty (a Debian system with its docs)"));
  }
  parts.hosts.assign(hosts.begin(), hosts.end());
  parts.paths.assign(paths.begin(), paths.end());
  // Hash-set order is arbitrary: sort, so the draws depend on the seed.
  std::sort(parts.hosts.begin(), parts.hosts.end());
  std::sort(parts.paths.begin(), parts.paths.end());
  return parts;
}

absl::StatusOr<DataSet> GenerateDataSet(std::string_view name, uint64_t n,
                                        uint64_t seed,
                                        std::string_view dict_dir) {
  if (n == 0) return absl::InvalidArgumentError("a data set needs n >= 1");
  DataSetInfo info;
  info.name = std::string(name);
  info.requested_n = n;
  info.seed = seed;
  info.order = LoadOrderOf(name);
  Rng rng(DeriveSeed(seed, Stream::kDataSet));
  if (name == "course") return GenerateCourse(n, rng, std::move(info));
  if (name == "seq_int") return GenerateSequentialInts(n, rng, std::move(info));
  if (name == "rand_int") return GenerateRandomInts(n, rng, std::move(info));
  if (name == "words") return GenerateWords(n, rng, dict_dir, std::move(info));
  if (name == "gcide3") {
    return GenerateGcide3(n, rng, kGcidePath, std::move(info));
  }
  if (name == "urls") return GenerateUrls(n, rng, std::move(info));
  if (name == "course_v3") return GenerateCourseV3(n, rng, std::move(info));
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown data set '", kvlab::ToAbsl(name),
      "'; data sets: course, seq_int, rand_int, words, gcide3, urls, "
      "course_v3"));
}

std::vector<uint32_t> SortedKeyOrder(const DataSet& data) {
  std::vector<uint32_t> order(data.size());
  std::iota(order.begin(), order.end(), 0u);
  if (data.info().order == LoadOrder::kSorted) return order;
  // string_view compares with memcmp: unsigned byte order, shorter first.
  std::sort(order.begin(), order.end(), [&data](uint32_t a, uint32_t b) {
    return data.key(a) < data.key(b);
  });
  return order;
}

}  // namespace kvbench
