// The data sets kvbench loads into every store.
//
// A data set is n unique keys, each with a value, held in one contiguous
// buffer plus an offsets array, in the order the load phase Puts them. It is
// generated from the seed alone, so every store (and every repeat) sees the
// same bytes, and it is built before the baseline memory reading so that it is
// never charged to a store.
//
//   course    keys of 1-64 random letters [a-zA-Z] (length uniform), values of
//             1-255 printable ASCII bytes (32..126); random load order.
//   seq_int   8-byte big-endian 0..n-1, loaded ascending (sorted order);
//             8-byte random values.
//   rand_int  8-byte big-endian random unique uint64; 8-byte random values.
//   words     every word list under /usr/share/dict merged, deduplicated and
//             shuffled; 8-byte random values. If n exceeds the words there
//             are, all are used and DataSetInfo::note says so.
//   gcide3    word trigrams of the GCIDE dictionary (Debian's dict-gcide):
//             three consecutive runs of ASCII letters of its text joined by
//             spaces, deduplicated, shuffled; 8-byte random values. The
//             closest offline stand-in for the Hyperion paper's n-grams.
//   urls      "https://" + a host named in a package's copyright file + a
//             path an installed package lists (/var/lib/dpkg/info), drawn
//             at random, deduplicated: long shared prefixes; 8-byte values.
//   course_v3 the course benchmark's last variant: course keys (1-63
//             letters) and values (1-254 printable) each ending in '\n'.
//
// Generation is prefix-stable: the first m pairs for n > m are the pairs for
// n == m.

#ifndef KVBENCH_DATASETS_H_
#define KVBENCH_DATASETS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kvbench {

enum class LoadOrder { kRandom, kSorted };

// What the table header and the JSON record say about a data set.
struct DataSetInfo {
  std::string name;
  uint64_t requested_n = 0;
  uint64_t n = 0;  // pairs actually generated (< requested_n only for words)
  uint64_t seed = 0;
  double avg_key_bytes = 0;
  double avg_value_bytes = 0;
  LoadOrder order = LoadOrder::kRandom;
  std::string note;  // e.g. "all 123,456 words of /usr/share/dict"
};

class DataSet {
 public:
  DataSet() = default;
  DataSet(DataSet&&) = default;
  DataSet& operator=(DataSet&&) = default;

  uint64_t size() const { return info_.n; }
  // The i-th pair in load order, i < size().
  std::string_view key(uint64_t i) const { return Slice(2 * i); }
  std::string_view value(uint64_t i) const { return Slice(2 * i + 1); }
  const DataSetInfo& info() const { return info_; }
  // Bytes held by the buffer and offsets (what generation costs).
  uint64_t FootprintBytes() const {
    return bytes_.capacity() + offsets_.capacity() * sizeof(uint64_t);
  }

 private:
  friend class DataSetBuilder;
  std::string_view Slice(uint64_t j) const {
    return std::string_view(bytes_.data() + offsets_[j],
                            offsets_[j + 1] - offsets_[j]);
  }

  DataSetInfo info_;
  std::string bytes_;  // key 0, value 0, key 1, value 1, ...
  // 2n+1 entries: key i is [offsets_[2i], offsets_[2i+1]), its value is
  // [offsets_[2i+1], offsets_[2i+2]).
  std::vector<uint64_t> offsets_;
};

// Builds a DataSet pair by pair, dropping keys already present.
class DataSetBuilder {
 public:
  // `dedupe` false skips the uniqueness check (for keys unique by
  // construction). `expected_pairs` only reserves space.
  DataSetBuilder(bool dedupe, uint64_t expected_pairs);
  ~DataSetBuilder();

  // Appends the pair unless `key` is already present; returns whether it was
  // appended.
  bool Add(std::string_view key, std::string_view value);
  uint64_t size() const { return (data_.offsets_.size() - 1) / 2; }

  // The data set, with `info` completed by the counts and averages.
  DataSet Finish(DataSetInfo info);

 private:
  struct KeySet;  // hash set of pair indexes, compared by key bytes

  DataSet data_;
  KeySet* keys_ = nullptr;  // null when not deduplicating
};

// The data set names kvbench knows, in the default order.
const std::vector<std::string>& DataSetNames();
bool IsDataSetName(std::string_view name);

// The order the load phase Puts keys in, known without generating.
LoadOrder LoadOrderOf(std::string_view name);

// Where the words data set looks for word lists.
inline constexpr std::string_view kDictDir = "/usr/share/dict";

// Where gcide3 and urls read their text.
inline constexpr std::string_view kGcidePath = "/usr/share/dictd/gcide.dict.dz";
inline constexpr std::string_view kDocDir = "/usr/share/doc";
inline constexpr std::string_view kDpkgInfoDir = "/var/lib/dpkg/info";

// The distinct word trigrams of a gzip'd dictionary text, sorted.
absl::StatusOr<std::vector<std::string>> ReadGcideTrigrams(
    std::string_view path);

// The real host and path names the urls data set combines, each sorted.
struct UrlParts {
  std::vector<std::string> hosts;  // "www.gnu.org"
  std::vector<std::string> paths;  // "/usr/share/doc/bash/copyright"
};
absl::StatusOr<UrlParts> ReadUrlParts(std::string_view doc_dir,
                                      std::string_view dpkg_info_dir);

// Generates data set `name` with `n` pairs (n >= 1) from `seed`. Fails for an
// unknown name, or for words when `dict_dir` holds no word list (the message
// says to run `make deps`).
absl::StatusOr<DataSet> GenerateDataSet(std::string_view name, uint64_t n,
                                        uint64_t seed,
                                        std::string_view dict_dir = kDictDir);

// The distinct words of every word list in `dict_dir`, sorted. Skips README
// files, backups and anything that is not a text file of lines.
absl::StatusOr<std::vector<std::string>> ReadWordLists(
    std::string_view dict_dir);

// Indexes 0..n-1 of `data` sorted by key in unsigned byte order: the order a
// full Scan must return.
std::vector<uint32_t> SortedKeyOrder(const DataSet& data);

}  // namespace kvbench

#endif  // KVBENCH_DATASETS_H_
