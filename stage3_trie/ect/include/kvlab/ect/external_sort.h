// ExternalSorter: sorts records by (hashkey, key) in bounded memory, for
// data files built from more pairs than fit in RAM.
//
// Records are added one at a time and held in memory until the next one
// would take the memory in use past the budget; then the ones held are
// sorted and written out as a *run*, a temporary file of the directory
// named `prefix` + a number, through the durable file layer (so a test's
// FaultEnv can fail its writes). When input ends, the records still held
// are either handed out directly (no run was written: an in-memory sort)
// or written as the last run, and the runs are merged k ways with a heap,
// at most `max_fan_in` at a time (more runs are first merged into longer
// ones, in passes, the oldest first).
//
// Records of one (hashkey, key) come out in the order they were added, so
// a caller that keeps the last of them gets "the last write wins".
//
// Memory: the records held (their key and value bytes in one arena plus
// 24 bytes each, counted by capacity, and while a buffer grows its old copy
// too) stay within `memory_bytes`, except that one record larger than the
// budget is held alone. The first run's buffers double up to a 64th of the
// budget, then grow once to the budget less their old copies; those of the
// runs after it are made at the whole budget. Both splits between key and
// value bytes and entries follow the records held. Writing a run adds
// one write block, and merging adds one read block per run merged; a block
// is memory_bytes / (max_fan_in + 1) bytes, at least 4 KiB and at most
// 1 MiB.
//
// Every run file is removed when the sorter is destroyed, whether it
// finished, failed or was abandoned; RemoveSortLeftovers removes what a
// crashed process left. Runs are never synced: they are useless after a
// crash.
//
// Thread-safety: not thread-safe.

#ifndef KVLAB_ECT_EXTERNAL_SORT_H_
#define KVLAB_ECT_EXTERNAL_SORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kvlab/durable/file.h"

namespace kvlab::ect {

struct ExternalSortOptions {
  // Where the runs go (an existing directory) and how their names begin.
  // Null env: the real file system.
  durable::Env* env = nullptr;
  std::string dir;
  std::string prefix = "sort-";
  // The budget for records held in memory (see above); at least 1.
  uint64_t memory_bytes = uint64_t{64} << 20;
  // Runs merged at once; at least 2.
  int max_fan_in = 64;
};

// One sorted record.
struct SortRecord {
  uint64_t hashkey = 0;
  std::string key;
  std::string value;
  bool tombstone = false;
};

class ExternalSorter {
 public:
  // InvalidArgument for a budget of 0, a fan-in below 2 or no directory.
  static absl::StatusOr<std::unique_ptr<ExternalSorter>> Create(
      ExternalSortOptions options);
  ~ExternalSorter();

  ExternalSorter(const ExternalSorter&) = delete;
  ExternalSorter& operator=(const ExternalSorter&) = delete;

  // Adds a record (keys up to 2^31 - 1 bytes, values up to 2^32 - 1). An
  // I/O error writing a run (out of disk space: ResourceExhausted) or a
  // failed allocation (ResourceExhausted) is returned and leaves the sorter
  // unusable. FailedPrecondition after Finish.
  absl::Status Add(uint64_t hashkey, std::string_view key,
                   std::string_view value, bool tombstone = false);

  // Ends the input and prepares the output (the merge passes beyond
  // max_fan_in runs happen here).
  absl::Status Finish();

  // The next record in (hashkey, key, order added) order into `*out`;
  // false after the last one. DataLoss if a run reads back damaged.
  absl::StatusOr<bool> Next(SortRecord* out);

  uint64_t records() const { return records_; }
  // Run files written so far, merge passes included, and their bytes.
  uint64_t runs_written() const { return runs_written_; }
  uint64_t bytes_written() const { return bytes_written_; }
  // The most memory the held records took (arena and entry capacities, a
  // growing buffer's old copy included).
  uint64_t peak_memory_bytes() const { return peak_memory_; }

 private:
  struct Entry;
  class RunReader;
  struct Run {
    std::string path;
    uint64_t bytes = 0;
  };

  explicit ExternalSorter(ExternalSortOptions options);
  // Heap order over readers: true if a's record comes after b's.
  static bool After(const std::vector<std::unique_ptr<RunReader>>& readers,
                    size_t a, size_t b);
  uint64_t MemoryInUse() const;
  absl::Status Hold(uint64_t hashkey, std::string_view key,
                    std::string_view value, bool tombstone);
  void SortHeld();
  // Writes the held records as a run and lets them go.
  absl::Status SpillHeld();
  // Merges runs_[first, first + count) into one new run in their place.
  absl::Status MergeRuns(size_t first, size_t count);
  absl::Status OpenReaders(size_t first, size_t count,
                           std::vector<std::unique_ptr<RunReader>>* readers);
  // Names a new run file (in *path), notes it for removal and creates it.
  absl::StatusOr<std::unique_ptr<durable::File>> CreateRunFile(
      std::string* path);
  size_t BlockBytes() const;

  ExternalSortOptions options_;
  durable::Env* env_;
  bool failed_ = false;
  bool finished_ = false;

  // Records held: their bytes (key, then value) in arena_, entries_ in the
  // order added until sorted.
  std::vector<char> arena_;  // a vector: reserve() gives exactly what it asks
  std::vector<Entry> entries_;
  // The first run's buffers were grown to (nearly) the whole budget.
  bool sized_ = false;

  std::vector<Run> runs_;
  std::vector<std::string> paths_;  // every run file made, to remove
  uint64_t next_run_ = 0;

  // Output: the held entries in order (no runs), or a heap of run readers.
  size_t next_held_ = 0;
  std::vector<std::unique_ptr<RunReader>> readers_;
  std::vector<size_t> heap_;  // indices into readers_ with a record

  uint64_t records_ = 0;
  uint64_t runs_written_ = 0;
  uint64_t bytes_written_ = 0;
  uint64_t peak_memory_ = 0;
};

// Removes the run files (`prefix`*) that a process which crashed while
// sorting left in `dir`, and returns their names.
absl::StatusOr<std::vector<std::string>> RemoveSortLeftovers(
    durable::Env* env, const std::string& dir,
    const std::string& prefix = "sort-");

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_EXTERNAL_SORT_H_
