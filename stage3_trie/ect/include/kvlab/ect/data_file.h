// Writing and scanning the data file of an entropy-coded trie store: pairs
// in hashkey order, bucket by bucket (slot_format.h), after a 32-byte header:
//
//   "kvlabECT"  magic (8 bytes)
//   version     1 (4 bytes)
//   bucket_bits (4 bytes)
//   hmax        (4 bytes)
//   reserved    0 (4 bytes)
//   pairs       (8 bytes), all little-endian
//
// A file is written once, start to end, and synced before anything refers
// to it; it is never changed afterwards. Its index (ect_index.h) is built
// while writing, and rebuilt from the file by a scan when a store opens.

#ifndef KVLAB_ECT_DATA_FILE_H_
#define KVLAB_ECT_DATA_FILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/durable/file.h"
#include "kvlab/ect/ect_index.h"
#include "kvlab/ect/slot_format.h"

namespace kvlab::ect {

inline constexpr size_t kDataHeaderBytes = 32;

struct DataFileHeader {
  int bucket_bits = 0;
  int hmax = 0;
  uint64_t pairs = 0;
};

// Writes a new data file. Not thread-safe.
class DataFileWriter {
 public:
  // Creates (or truncates) `path` for a file of 2^bucket_bits buckets coded
  // with `tables`.
  static absl::StatusOr<std::unique_ptr<DataFileWriter>> Create(
      durable::Env* env, std::string path, int bucket_bits,
      std::shared_ptr<const HuffmanTables> tables);

  // Adds a pair. Pairs come in ascending (HashKey64(key), key) order, each
  // key once. An I/O error is returned as it is (out of disk space:
  // ResourceExhausted) and leaves the writer unusable.
  absl::Status Add(uint64_t hashkey, std::string_view key,
                   std::string_view value);

  // Writes what is buffered and the header, syncs the file, and returns its
  // index.
  absl::StatusOr<EctIndex> Finish();

  uint64_t pairs() const { return pairs_; }
  uint64_t bytes_written() const { return offset_ + out_.size(); }

 private:
  DataFileWriter() = default;
  absl::Status FlushBucket();
  absl::Status FlushOut();

  std::unique_ptr<durable::File> file_;
  std::string path_;
  int bucket_bits_ = 0;
  int hmax_ = 0;
  std::unique_ptr<EctIndexBuilder> index_;
  // The bucket being gathered: its slots' hashkeys and pairs.
  uint64_t bucket_ = 0;
  std::vector<uint64_t> hashkeys_;
  std::vector<std::vector<Pair>> slots_;
  std::string out_;      // bytes not yet written, from offset_
  uint64_t offset_ = 0;  // where out_ goes
  uint64_t pairs_ = 0;
};

// One bucket as a scan reads it.
struct ScannedBucket {
  uint64_t offset = 0;             // of its header in the file
  std::vector<uint64_t> hashkeys;  // one per slot, ascending
  std::vector<std::vector<Pair>> slots;
};

// Reads a data file from start to end with large sequential reads. Not
// thread-safe.
class DataFileScanner {
 public:
  // Opens `path` and reads its header. DataLoss if it is not a data file.
  static absl::StatusOr<std::unique_ptr<DataFileScanner>> Open(
      durable::Env* env, const std::string& path);

  const DataFileHeader& header() const { return header_; }
  uint64_t file_bytes() const { return size_; }

  // The next bucket into `*bucket`; false at the end of the file. DataLoss
  // if the bytes are damaged.
  absl::StatusOr<bool> NextBucket(ScannedBucket* bucket);

 private:
  DataFileScanner() = default;
  // Makes `n` bytes from pos_ available in buffer_; DataLoss if the file
  // ends first.
  absl::Status Need(size_t n);

  std::unique_ptr<durable::File> file_;
  std::string path_;
  DataFileHeader header_;
  uint64_t size_ = 0;
  std::string buffer_;  // file bytes from buffer_offset_
  uint64_t buffer_offset_ = 0;
  uint64_t pos_ = 0;  // next file byte to parse
};

// Scans `path` and builds its index.
absl::StatusOr<EctIndex> RebuildIndex(
    durable::Env* env, const std::string& path,
    std::shared_ptr<const HuffmanTables> tables);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_DATA_FILE_H_
