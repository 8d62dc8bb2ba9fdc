// Durability for any store: a write-ahead log, checkpoints and recovery.
//
//   absl::StatusOr<std::unique_ptr<kvlab::DurableStore>> store =
//       kvlab::DurableStore::Open(*kvlab::MakeStore("btree"), "/var/kv", {});
//   (*store)->Put("key", "value");   // logged before it is applied
//   // ... crash, restart: Open on the same directory gives the pairs back.
//
// Every write is appended to a log before the store applies it; a write
// returns once its record is as durable as the sync policy promises. Now and
// then the whole store is written to a checkpoint file, after which the log
// it covers is no longer needed and its files are reused. Opening a
// directory recovers the store: the newest checkpoint, then the log after
// it, up to the first record that is torn or damaged, where the log is cut.
// docs/durability.md explains the design; the formats are in
// common/src/durable/log_format.h and record.h.
//
// Errors: a write whose log record could not be written or synced (full
// disk, I/O error) fails, and the store is unchanged; Put returns the
// status, Delete and DeleteNth return false (Remove and RemoveNth return the
// status). Nothing acknowledged is lost: a write succeeds only once its
// record is durable under the policy. A write the inner store cannot apply
// for want of memory fails the same way (ResourceExhausted) and is undone
// in the log, so a reopen recovers the store as it is; undoing it needs no
// memory, so memory that stays gone does not stop later writes.
//
// A directory has one owner: Open takes its lock (kvlab/durable/
// directory_lock.h) and holds it until the store is destroyed, so a second
// Open of the directory -- in this process or another -- fails with
// FailedPrecondition naming the directory and the holder's pid, instead of
// two logs overwriting each other.

#ifndef KVLAB_DURABLE_STORE_H_
#define KVLAB_DURABLE_STORE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/registry.h"

namespace kvlab {

namespace durable {
class DirectoryLock;
class Env;
class LogRing;
class LogWriter;
}  // namespace durable

// When a write's log record must be on disk before the write returns.
enum class SyncPolicy {
  // Never synced by the store: the record is in the operating system's page
  // cache when the write returns. Survives the process being killed; a
  // power failure may lose the last writes (never more than a suffix).
  kNone,
  // One fdatasync per write, before it returns.
  kEvery,
  // Group commit: writers that arrive while a sync is in progress wait and
  // share the next one. Each returns only once its own record is synced.
  kGroup,
};

struct DurabilityOptions {
  SyncPolicy sync = SyncPolicy::kGroup;
  // A checkpoint is taken when the log has grown by this many bytes since
  // the last one.
  uint64_t checkpoint_bytes = uint64_t{64} << 20;
  // The log ring's geometry, used only when the directory is new: the
  // number of log files and the size of each (a multiple of 32 KiB).
  uint32_t log_files = 4;
  uint64_t log_file_bytes = uint64_t{32} << 20;
  // Recovery inserts the checkpoint's pairs middle first instead of in key
  // order (for stores that degrade on sorted input, such as a plain BST).
  bool balanced_load = false;
  // The file system; null means the real one. Tests put one underneath that
  // fails or forgets on command. Must outlive the store. The directory lock
  // is taken on the real file system only (another Env's directories need
  // not exist on disk).
  durable::Env* env = nullptr;
};

// What recovery found when the store was opened.
struct RecoveryReport {
  std::string checkpoint;  // the checkpoint file loaded, empty if none
  uint64_t checkpoint_pairs = 0;
  uint64_t replayed = 0;  // log records applied after the checkpoint
  uint64_t last_seq = 0;  // sequence number of the last write recovered
  // Where the log was cut: the file, the byte offset of the first record
  // not replayed, and why replay stopped there.
  std::string stop_file;
  uint64_t stop_offset = 0;
  std::string stop_reason;
  // True if replay stopped at the end of what was written; false if at a
  // torn or damaged record (expected after a crash mid-write).
  bool clean = true;

  std::string ToString() const;
};

// Counters since the store was opened.
struct DurabilityStats {
  uint64_t writes = 0;            // log records of writes
  uint64_t log_bytes = 0;         // bytes written to log files
  uint64_t checkpoint_bytes = 0;  // bytes written to checkpoint files
  uint64_t syncs = 0;             // fdatasync calls on log files
  uint64_t checkpoints = 0;
};

// Thread-safe: reads share a lock with each other; writes go through a queue
// whose head (the leader) logs and applies a group of them while the others
// wait. A Scan visitor runs under the shared lock and must not write.
// Checkpoints are written by a thread of the store's own, which reads the
// store in small batches under the shared lock while writes go on; it is
// stopped (and a checkpoint in progress abandoned) by the destructor.
//
// Invariants: the inner store holds exactly the effect of the newest
// checkpoint followed by the log records after it; every record in the log
// has a sequence number one above the one before it.
class DurableStore final : public KVStore {
 public:
  // Recovers the store kept in directory `dir` (created if missing) into
  // `inner`, which must be empty, and returns it ready for writes. Fails if
  // the directory cannot be read or created, another store holds it
  // (FailedPrecondition), a checkpoint is damaged (DataLoss), or the log
  // cannot be read.
  static absl::StatusOr<std::unique_ptr<DurableStore>> Open(
      std::unique_ptr<KVStore> inner, std::string dir,
      const DurabilityOptions& options);
  ~DurableStore() override;

  // Put, Delete and DeleteNth with the log's status: the bool answers of
  // KVStore, or why the write failed (the store then is unchanged).
  absl::StatusOr<bool> Remove(std::string_view key);
  absl::StatusOr<bool> RemoveNth(uint64_t n);

  // Writes a checkpoint holding every write acknowledged before the call and
  // returns once it is durable. Writes go on meanwhile (a checkpoint already
  // running is finished first). The log files it makes unnecessary are
  // reused from the next write on.
  absl::Status Checkpoint();

  const RecoveryReport& recovery() const { return recovery_; }
  DurabilityStats stats() const;
  const KVStore& inner() const { return *inner_; }

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "durable"; }
  std::optional<size_t> MemoryUsage() const override;
  bool IsThreadSafe() const override { return true; }
  absl::Status CheckInvariants() const override;
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;
  absl::Status ValidateKey(std::string_view key) const override {
    return inner_->ValidateKey(key);
  }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  struct Writer;

  DurableStore(std::unique_ptr<KVStore> inner, std::string dir,
               const DurabilityOptions& options);
  absl::Status Recover();
  absl::StatusOr<bool> Submit(Writer* writer);
  // The leader's work: log a group, sync it, apply it, answer each writer.
  void Commit(const std::vector<Writer*>& group);
  // Applies the logged writes of a group to the inner store and sets each
  // one's answer; a write the store could not apply (out of memory) is
  // answered ResourceExhausted and undone in the log. Throws nothing, even
  // out of memory: its log records are already written, so every write must
  // get its true answer. `failed` is empty and has room for one entry per
  // write of the group, reserved before the group was logged.
  absl::Status Apply(const std::vector<Writer*>& group,
                     const std::vector<bool>& logged,
                     std::vector<std::string_view>* failed);
  // Moves the log to a fresh file. If that would take the last free file of
  // the ring, first waits for the running checkpoint, or takes one and waits
  // for it (the writers then wait: they outran the checkpoints).
  absl::Status SwitchFile();
  // Ends the current log file (at its last good record) with a pointer to a
  // fresh file in a free slot of the ring, syncs it, and moves there.
  absl::Status SealFile();
  // Starts a checkpoint in the background thread: ends the current log file
  // so the checkpoint starts at a file boundary (or, with every file of the
  // ring live, where the log is) and hands the position over. Returns the
  // job's ticket. Only with no checkpoint in flight. A `requested` job's
  // status is kept for the Checkpoint() call waiting for it.
  absl::StatusOr<uint64_t> StartCheckpoint(bool requested);
  // Takes the result of the checkpoint in flight, if it has finished (or,
  // with `wait`, once it has): on success the log files before its start
  // are free again. OK if none is in flight.
  absl::Status FinishCheckpoint(bool wait);
  // The background thread: writes each checkpoint it is handed.
  void CheckpointLoop();
  // Makes every log file durable (fdatasync through a second descriptor).
  absl::Status SyncLogFiles();

  const std::string dir_;
  const DurabilityOptions options_;
  durable::Env* const env_;
  // Held from Open until everything else is destroyed (members go in
  // reverse order), so no other opener can touch a file still in use here.
  std::unique_ptr<durable::DirectoryLock> lock_;

  // Guards inner_ against concurrent change: the leader holds it exclusively
  // only while applying, readers hold it shared.
  mutable std::shared_mutex store_mutex_;
  std::unique_ptr<KVStore> inner_;

  // Guards queue_ and stats_.
  mutable std::mutex queue_mutex_;
  std::deque<Writer*> queue_;
  DurabilityStats stats_;

  // Owned by whichever thread is the leader (the head of queue_); no lock.
  std::unique_ptr<durable::LogRing> ring_;
  std::unique_ptr<durable::LogWriter> log_;
  std::vector<uint32_t> live_files_;  // log file numbers since the checkpoint
  uint32_t largest_number_ = 0;       // of any file ever written
  uint64_t next_seq_ = 1;
  uint64_t log_bytes_since_checkpoint_ = 0;
  // Set when a write or sync of the current file failed: the next group
  // first ends that file at its last good record.
  bool file_broken_ = false;
  uint64_t file_good_end_ = 0;
  // Set when the log holds a write the inner store could not apply and the
  // record undoing it could not be written: every later write fails.
  absl::Status stop_error_;
  // Made at construction, so that answering a write that ran out of memory
  // allocates nothing (copying a status does not).
  const absl::Status out_of_memory_deleting_;
  const absl::Status cannot_undo_;  // stop_error_ when no memory is left
  // Apply's buffers for a record undoing a write, reserved by Commit for the
  // largest such record before a group is logged.
  std::string undo_value_;
  std::string undo_payload_;
  DurabilityStats leader_stats_;  // copied to stats_ under queue_mutex_
  uint64_t log_bytes_total_ = 0;  // ever written to log files
  // A checkpoint was started and its result not yet taken, which it began
  // when log_bytes_total_ was checkpoint_start_bytes_.
  bool checkpoint_in_flight_ = false;
  uint64_t checkpoint_start_bytes_ = 0;

  // The checkpoint thread's hand-over, guarded by checkpoint_mutex_: the
  // leader posts a job, the thread writes it (reading the store in batches
  // under store_mutex_, shared) and posts the result, which the leader takes.
  // At most one job at a time. Checkpoint() callers wait here for their
  // ticket's status.
  struct CheckpointJob {
    uint64_t ticket = 0;
    uint64_t seq = 0;
    uint32_t log_file = 0;
    uint64_t log_offset = 0;
    bool requested = false;  // by Checkpoint(), which waits for its status
  };
  struct CheckpointResult {
    CheckpointJob job;
    absl::Status status;
  };
  mutable std::mutex checkpoint_mutex_;
  std::condition_variable checkpoint_cv_;
  std::optional<CheckpointJob> checkpoint_job_;        // posted, not taken
  std::optional<CheckpointResult> checkpoint_result_;  // done, not taken
  bool checkpoint_busy_ = false;  // a job posted or being written
  uint64_t last_ticket_ = 0;
  std::map<uint64_t, absl::Status> requested_results_;  // by ticket
  bool closing_ = false;
  uint64_t checkpoints_done_ = 0;
  uint64_t checkpoint_bytes_done_ = 0;
  std::atomic<bool> cancel_checkpoint_{false};
  std::vector<std::string> log_paths_;  // every ring file, set before start
  std::thread checkpoint_thread_;

  RecoveryReport recovery_;
};

// Open() as a plain KVStore.
absl::StatusOr<std::unique_ptr<KVStore>> MakeDurable(
    std::unique_ptr<KVStore> inner, const std::string& dir,
    const DurabilityOptions& options);

// True if `spec` names the durable wrapper: "durable" or "durable:...".
bool IsDurableSpec(std::string_view spec);

// Builds a durable store from a spec, its inner store from `registry`:
//
//   durable:dir=PATH:store=NAME[:sync=none|every|group]
//          [:checkpoint_mb=N][:log_files=N][:log_file_mb=N][:inner.OPT=VAL]...
//
// Each inner.OPT=VAL becomes option OPT=VAL of the inner store, so
// "durable:dir=/tmp/kv:store=btree:inner.order=32" wraps "btree:order=32".
// sync defaults to group, checkpoint_mb to 64, log_files to 4, log_file_mb
// to 32. A store kind whose StoreInfo says sorted input is quadratic is
// reloaded middle first.
absl::StatusOr<std::unique_ptr<KVStore>> MakeDurableFromSpec(
    std::string_view spec, const StoreRegistry& registry);

}  // namespace kvlab

#endif  // KVLAB_DURABLE_STORE_H_
