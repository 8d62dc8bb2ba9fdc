// Checkpoints: the whole store, in key order, in one file.
//
// A checkpoint file uses the log's block format (log_format.h) with file
// number 0: a kCheckpointBegin record (the last sequence number it covers
// and the log position the log goes on from), one kPair record per pair in
// key order, and a kCheckpointEnd record with the number of pairs. It is
// written to a temporary name, synced, renamed to checkpoint-<seq> and the
// directory synced, so a crash leaves either the old checkpoint or the new
// one, never half of one under a checkpoint name.

#ifndef KVLAB_DURABLE_CHECKPOINT_H_
#define KVLAB_DURABLE_CHECKPOINT_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/durable/file.h"
#include "kvlab/kv_store.h"

namespace kvlab::durable {

// Where a checkpoint leaves off: the log record after `seq` starts at byte
// `log_offset` of log file number `log_file`.
struct CheckpointPosition {
  uint64_t seq = 0;
  uint32_t log_file = 0;
  uint64_t log_offset = 0;
};

// The name of the checkpoint covering up to `seq`: "checkpoint-<seq>" with
// seq in 20 decimal digits, so names sort by seq.
std::string CheckpointName(uint64_t seq);
inline constexpr char kCheckpointTempName[] = "checkpoint.tmp";

// The checkpoint names in `names`, newest first.
std::vector<std::string> CheckpointNames(const std::vector<std::string>& names);

// Where a checkpoint's pairs come from while the store keeps changing, and
// what must be true before it may replace the last one.
struct CheckpointSource {
  // Visits the pairs with key >= `start` in ascending order until `visitor`
  // returns false, as KVStore::Scan. Called once per batch of pairs; each
  // call may see the store as it is at that moment.
  std::function<void(std::string_view start, KVStore::ScanVisitor visitor)>
      scan;
  // Called after the last pair is written and synced, before the checkpoint
  // gets its name: makes durable every log record whose effect a batch may
  // have seen. May be empty.
  std::function<absl::Status()> before_publish;
  // Read between batches: once true, the checkpoint is abandoned
  // (Cancelled) and its temporary file removed. May be null.
  const std::atomic<bool>* cancel = nullptr;
};

// Writes the store `source` reads as the checkpoint for `position` in
// directory `dir`, durably (see above), and returns the bytes written. The
// pairs are read in batches of at most a few hundred, so the store may
// change between batches: each key's value is then the one it had at some
// moment after `position`, and since replaying the log from `position`
// redoes every later write of that key in order, with whole values, the
// checkpoint plus that log is still exactly the store (a fuzzy checkpoint).
// Every pair a batch sees must already be in the log past `position`.
absl::StatusOr<uint64_t> WriteCheckpoint(Env* env, const std::string& dir,
                                         const CheckpointSource& source,
                                         const CheckpointPosition& position);

// Reads checkpoint `name` of `dir` into `store` (empty). With
// `balanced_order`, the pairs are inserted middle first (the middle pair,
// then the middles of each half, and so on), which keeps an unbalanced
// search tree at logarithmic depth; otherwise in key order. A damaged file
// is DataLoss naming the file, the offset and what is wrong.
absl::StatusOr<CheckpointPosition> LoadCheckpoint(
    Env* env, const std::string& dir, const std::string& name,
    bool balanced_order, KVStore* store, uint64_t* pairs);

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_CHECKPOINT_H_
