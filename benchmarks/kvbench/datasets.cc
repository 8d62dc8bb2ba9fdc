#include "kvbench/datasets.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
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

absl::StatusOr<DataSet> GenerateWords(uint64_t n, Rng& rng,
                                      std::string_view dict_dir,
                                      DataSetInfo info) {
  absl::StatusOr<std::vector<std::string>> words = ReadWordLists(dict_dir);
  if (!words.ok()) return words.status();
  // Shuffle the sorted list, so the choice depends on the seed alone.
  Shuffle(*words, rng);
  if (n >= words->size()) {
    info.note = absl::StrCat("all ", WithCommas(words->size()), " words of ",
                             kvlab::ToAbsl(dict_dir), "; ", WithCommas(n),
                             " requested");
    n = words->size();
  }
  DataSetBuilder builder(/*dedupe=*/false, n);  // already distinct
  for (uint64_t i = 0; i < n; ++i) builder.Add((*words)[i], BigEndian(rng()));
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
  static const std::vector<std::string> kNames = {"course", "seq_int",
                                                  "rand_int", "words"};
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
  return absl::InvalidArgumentError(
      absl::StrCat("unknown data set '", kvlab::ToAbsl(name),
                   "'; data sets: course, seq_int, rand_int, words"));
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
