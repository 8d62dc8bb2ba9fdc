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

#include <cstdint>
#include <optional>
#include <string>
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

// Writes every pair of `store` (which nobody may modify meanwhile) as the
// checkpoint for `position` in directory `dir`, durably (see above). Returns
// the bytes written.
absl::StatusOr<uint64_t> WriteCheckpoint(Env* env, const std::string& dir,
                                         const KVStore& store,
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
