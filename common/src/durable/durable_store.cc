#include "kvlab/durable_store.h"

#include <algorithm>
#include <map>
#include <new>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "durable/checkpoint.h"
#include "durable/log_format.h"
#include "durable/log_reader.h"
#include "durable/log_ring.h"
#include "durable/log_writer.h"
#include "durable/record.h"
#include "kvlab/durable/directory_lock.h"
#include "kvlab/durable/file.h"

namespace kvlab {

using durable::CheckpointPosition;
using durable::LogReader;
using durable::LogWriter;
using durable::Op;
using durable::Record;

// One caller's write, waiting in the queue.
struct DurableStore::Writer {
  enum class Kind { kPut, kDelete, kDeleteNth, kCheckpoint };
  Kind kind = Kind::kPut;
  std::string_view key;
  std::string_view value;
  uint64_t n = 0;
  uint64_t ticket = 0;  // of the checkpoint a kCheckpoint started
  std::string nth_key;  // the key a DeleteNth removes, found by the leader
  bool done = false;
  absl::StatusOr<bool> result = false;
  std::condition_variable cv;
};

namespace {

// The most payload one group carries, so that a group always fits in a log
// file with room to spare.
uint64_t MaxGroupBytes(uint64_t file_bytes) {
  return std::min<uint64_t>(uint64_t{1} << 20, file_bytes / 4);
}

// Room kept at the end of every log file for the record naming the next.
constexpr uint64_t kNextFileReserve = 2 * durable::kHeaderSize + 8;

// The largest record undoing a write: a put of the longest key and value
// (op byte, 8-byte seq, two varint32 lengths of at most 5 bytes each).
constexpr uint64_t kMaxUndoPayload =
    1 + 8 + 5 + kMaxKeySize + 5 + kMaxValueSize;
// The most bytes such a record takes framed, wherever in a block it starts:
// a trailer shorter than a header, then a header per fragment.
constexpr uint64_t kUndoReserve =
    durable::kHeaderSize +
    (kMaxUndoPayload / (durable::kBlockSize - durable::kHeaderSize) + 2) *
        durable::kHeaderSize +
    kMaxUndoPayload;

std::string Encode(const Record& record) {
  std::string payload;
  EncodeRecord(record, &payload);
  return payload;
}

}  // namespace

std::string RecoveryReport::ToString() const {
  return absl::StrCat(
      "checkpoint ", checkpoint.empty() ? std::string("(none)") : checkpoint,
      " with ", checkpoint_pairs, " pairs, ", replayed,
      " log records replayed (last seq ", last_seq, "); log cut at ", stop_file,
      " offset ", stop_offset, ": ", stop_reason);
}

DurableStore::DurableStore(std::unique_ptr<KVStore> inner, std::string dir,
                           const DurabilityOptions& options)
    : dir_(std::move(dir)),
      options_(options),
      env_(options.env != nullptr ? options.env : durable::DefaultEnv()),
      inner_(std::move(inner)),
      out_of_memory_deleting_(
          absl::ResourceExhaustedError("out of memory deleting a key")),
      cannot_undo_(absl::FailedPreconditionError(
          "the log holds a write the store could not apply, and the record "
          "undoing it could not be written; reopen the store to recover")) {}

DurableStore::~DurableStore() {
  if (!checkpoint_thread_.joinable()) return;
  {
    std::lock_guard lock(checkpoint_mutex_);
    closing_ = true;
  }
  // A checkpoint still being written is abandoned: the one before it and the
  // log, all still in place, hold everything.
  cancel_checkpoint_.store(true);
  checkpoint_cv_.notify_all();
  checkpoint_thread_.join();
}

absl::StatusOr<std::unique_ptr<DurableStore>> DurableStore::Open(
    std::unique_ptr<KVStore> inner, std::string dir,
    const DurabilityOptions& options) {
  if (inner == nullptr || inner->Size() != 0) {
    return absl::InvalidArgumentError(
        "a durable store needs an empty inner store");
  }
  if (options.log_files < 2 || options.log_files > 1000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "log_files=", options.log_files, ": expected 2 to 1000 log files"));
  }
  if (options.log_file_bytes % durable::kBlockSize != 0 ||
      options.log_file_bytes < 2 * durable::kBlockSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "log_file_bytes=", options.log_file_bytes, ": expected a multiple of ",
        durable::kBlockSize, " of at least ", 2 * durable::kBlockSize));
  }
  std::unique_ptr<DurableStore> store(
      new DurableStore(std::move(inner), std::move(dir), options));
  absl::Status status = store->Recover();
  store->stats_ = store->leader_stats_;
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat("opening durable store in ", store->dir_,
                                     ": ", status.message()));
  }
  return store;
}

absl::Status DurableStore::Recover() {
  absl::Status status = env_->CreateDir(dir_);
  if (!status.ok()) return status;
  if (env_ == durable::DefaultEnv()) {
    absl::StatusOr<std::unique_ptr<durable::DirectoryLock>> lock =
        durable::DirectoryLock::Acquire(dir_);
    if (!lock.ok()) return lock.status();
    lock_ = *std::move(lock);
  }
  absl::StatusOr<std::vector<std::string>> names = env_->List(dir_);
  if (!names.ok()) return names.status();
  if (std::find(names->begin(), names->end(), durable::kCheckpointTempName) !=
      names->end()) {
    // A checkpoint interrupted by a crash; its predecessor is still whole.
    (void)env_->Remove(absl::StrCat(dir_, "/", durable::kCheckpointTempName));
  }
  absl::StatusOr<std::unique_ptr<durable::LogRing>> ring =
      durable::LogRing::Open(
          env_, dir_, options_.log_files, options_.log_file_bytes,
          options_.sync == SyncPolicy::kNone
              ? durable::LogRing::Preallocation::kSparse
              : durable::LogRing::Preallocation::kWriteZeros);
  if (!ring.ok()) return ring.status();
  ring_ = *std::move(ring);
  for (uint32_t slot = 0; slot < ring_->size(); ++slot) {
    log_paths_.push_back(absl::StrCat(dir_, "/", ring_->NameFor(slot)));
  }
  checkpoint_thread_ = std::thread([this] { CheckpointLoop(); });

  // With no checkpoint the log starts at the beginning of file number 1.
  CheckpointPosition position{0, 1, 0};
  const std::vector<std::string> checkpoints = durable::CheckpointNames(*names);
  if (!checkpoints.empty()) {
    absl::StatusOr<CheckpointPosition> loaded = durable::LoadCheckpoint(
        env_, dir_, checkpoints.front(), options_.balanced_load, inner_.get(),
        &recovery_.checkpoint_pairs);
    if (!loaded.ok()) return loaded.status();
    position = *loaded;
    recovery_.checkpoint = checkpoints.front();
  }
  absl::StatusOr<uint32_t> stamped = ring_->LargestStampedNumber();
  if (!stamped.ok()) return stamped.status();
  largest_number_ = std::max(*stamped, position.log_file);
  next_seq_ = position.seq + 1;

  // Replay the chain of log files from the checkpoint's position.
  uint32_t number = position.log_file;
  uint64_t offset = position.log_offset;
  live_files_ = {number};
  std::string payload;
  Record record;
  bool stopped = false;
  while (!stopped) {
    LogReader reader(ring_->FileFor(number), number, offset);
    for (;;) {
      const LogReader::Result result = reader.Read(&payload);
      std::string why;
      if (result == LogReader::Result::kIoError) {
        return absl::UnavailableError(reader.reason());
      }
      if (result == LogReader::Result::kRecord) {
        if (!DecodeRecord(payload, &record)) {
          why = "undecodable record";
        } else if (record.op == Op::kPut || record.op == Op::kDelete) {
          if (record.seq != next_seq_) {
            why = absl::StrCat("sequence number ", record.seq, " where ",
                               next_seq_, " was due");
          } else {
            if (record.op == Op::kPut) {
              absl::StatusOr<bool> put = inner_->Put(record.key, record.value);
              if (!put.ok()) return put.status();
            } else {
              inner_->Delete(record.key);
            }
            ++next_seq_;
            ++recovery_.replayed;
            continue;
          }
        } else if (record.op == Op::kNextFile) {
          const bool slot_taken = std::any_of(
              live_files_.begin(), live_files_.end(), [&](uint32_t live) {
                return ring_->SlotOf(live) == ring_->SlotOf(record.file);
              });
          if (record.file <= number || slot_taken) {
            why = absl::StrCat("next-file record names file ", record.file);
          } else {
            number = record.file;
            offset = 0;
            live_files_.push_back(number);
            largest_number_ = std::max(largest_number_, number);
            break;
          }
        } else {
          why = "a checkpoint record in the log";
        }
      }
      // Replay ends here: at the end of what was written, or at damage.
      recovery_.clean = result == LogReader::Result::kEnd;
      recovery_.stop_reason = why.empty() ? reader.reason() : why;
      if (!why.empty()) recovery_.clean = false;
      recovery_.stop_file = ring_->NameFor(number);
      recovery_.stop_offset = reader.record_offset();
      offset = reader.record_offset();
      stopped = true;
      break;
    }
  }
  recovery_.last_seq = next_seq_ - 1;
  log_bytes_since_checkpoint_ =
      (live_files_.size() - 1) * ring_->file_bytes() + offset;

  // Whatever follows the cut is never read again: the log goes on in a fresh
  // file, named by a record written at the cut.
  log_ = std::make_unique<LogWriter>(ring_->FileFor(number), number, offset);
  return SwitchFile();
}

// ---- The write queue ----

absl::StatusOr<bool> DurableStore::Submit(Writer* writer) {
  std::unique_lock lock(queue_mutex_);
  queue_.push_back(writer);
  while (!writer->done && queue_.front() != writer) writer->cv.wait(lock);
  if (writer->done) return std::move(writer->result);

  // This writer leads: it takes the Puts and Deletes queued behind it. A
  // DeleteNth may lead a group but not join one (its key is found in the
  // store, which does not yet show the group's earlier writes); a checkpoint
  // goes alone, and so does every write under kEvery.
  std::vector<Writer*> group;
  try {
    group.push_back(writer);
    const bool groupable = writer->kind != Writer::Kind::kCheckpoint;
    if (groupable && options_.sync != SyncPolicy::kEvery) {
      // Each write also holds room in the log file for the record that
      // would undo it (see Commit).
      uint64_t bytes = writer->key.size() + writer->value.size() + kUndoReserve;
      const uint64_t limit = MaxGroupBytes(ring_->file_bytes());
      for (size_t i = 1; i < queue_.size(); ++i) {
        Writer* next = queue_[i];
        if (next->kind != Writer::Kind::kPut &&
            next->kind != Writer::Kind::kDelete) {
          break;
        }
        bytes += next->key.size() + next->value.size() + 32 + kUndoReserve;
        if (bytes > limit) break;
        group.push_back(next);
      }
    }
  } catch (const std::bad_alloc&) {
    // Out of memory before anything was written: this writer leaves the
    // queue (a stale front would keep every later writer waiting) and its
    // write fails, the store unchanged.
    queue_.pop_front();
    if (!queue_.empty()) queue_.front()->cv.notify_one();
    throw;
  }
  lock.unlock();
  const uint64_t first_seq = next_seq_;
  try {
    Commit(group);
  } catch (const std::bad_alloc&) {
    // Memory ran out where Commit does not catch it (its buffers, a
    // status's message). Before the log was written nothing changed: every
    // write of the group fails (a status without a message allocates
    // nothing). After, Apply has set each write's answer.
    if (next_seq_ == first_seq) {
      log_->DropPending();
      for (Writer* member : group) {
        member->result = absl::Status(absl::StatusCode::kResourceExhausted, "");
      }
    }
  }
  lock.lock();
  stats_ = leader_stats_;
  for (Writer* member : group) {
    queue_.pop_front();
    member->done = true;
    if (member != writer) member->cv.notify_one();
  }
  if (!queue_.empty()) queue_.front()->cv.notify_one();
  return std::move(writer->result);
}

void DurableStore::Commit(const std::vector<Writer*>& group) {
  auto fail_all = [&group](const absl::Status& status) {
    for (Writer* member : group) member->result = status;
  };
  if (!stop_error_.ok()) return fail_all(stop_error_);
  // Frees the log files of a checkpoint that finished since the last group.
  (void)FinishCheckpoint(/*wait=*/false);
  if (group.front()->kind == Writer::Kind::kCheckpoint) {
    // Checkpoint() waited for the thread to be idle before queueing, so this
    // waits only if an automatic checkpoint started in between.
    (void)FinishCheckpoint(/*wait=*/true);
    absl::StatusOr<uint64_t> ticket = StartCheckpoint(/*requested=*/true);
    if (ticket.ok()) {
      group.front()->ticket = *ticket;
      group.front()->result = true;
    } else {
      group.front()->result = ticket.status();
    }
    return;
  }
  if (file_broken_) {
    absl::Status status = SwitchFile();
    if (!status.ok()) return fail_all(status);
  }

  // Decide what to log. Only the leader changes the store, so what it reads
  // now is what the group's writes will meet, once the group's own earlier
  // writes are taken into account.
  std::vector<std::string> payloads(group.size());
  std::vector<bool> logged(group.size(), false);
  std::vector<std::string_view> failed;
  uint64_t seq = next_seq_;
  try {
    // What Apply needs to undo the writes it could not apply: it runs once
    // the records are written, when running out of memory is too late.
    failed.reserve(group.size());
    undo_value_.reserve(kMaxValueSize);
    undo_payload_.reserve(kMaxUndoPayload);
    std::shared_lock read(store_mutex_);
    // A node map: an insertion that runs out of memory leaves it intact,
    // where absl's flat_hash_map is left unsafe to destroy.
    std::map<std::string_view, bool> present;
    for (size_t i = 0; i < group.size(); ++i) {
      Writer* member = group[i];
      Record record;
      record.key = member->key;
      if (member->kind == Writer::Kind::kPut) {
        record.op = Op::kPut;
        record.value = member->value;
        present[member->key] = true;
      } else if (member->kind == Writer::Kind::kDelete) {
        auto it = present.find(member->key);
        const bool has = it != present.end()
                             ? it->second
                             : inner_->Get(member->key, nullptr);
        if (!has) {
          member->result = false;
          continue;
        }
        present[member->key] = false;
        record.op = Op::kDelete;
      } else {  // kDeleteNth, always first in its group
        if (!inner_->GetNth(member->n, &member->nth_key, nullptr)) {
          member->result = false;
          continue;
        }
        record.op = Op::kDelete;
        record.key = member->nth_key;
        present[member->nth_key] = false;
      }
      record.seq = seq++;
      EncodeRecord(record, &payloads[i]);
      logged[i] = true;
    }
  } catch (const std::bad_alloc&) {
    return fail_all(
        absl::ResourceExhaustedError("out of memory encoding a log record"));
  }
  if (seq == next_seq_) return;  // nothing to log: deletes of absent keys

  // The group goes in the current file only if the records undoing each of
  // its writes would fit after it, so an undo never needs a file switch.
  uint64_t end = log_->end_offset();
  for (size_t i = 0; i < group.size(); ++i) {
    if (logged[i]) {
      end +=
          durable::FramedSize(end % durable::kBlockSize, payloads[i].size()) +
          kUndoReserve;
    }
  }
  if (end + kNextFileReserve > ring_->file_bytes()) {
    absl::Status status = SwitchFile();
    if (!status.ok()) return fail_all(status);
  }
  log_->Reserve(kUndoReserve);  // for an undo record, framed
  const uint64_t start = log_->end_offset();
  for (size_t i = 0; i < group.size(); ++i) {
    if (logged[i]) log_->Add(payloads[i]);
  }
  absl::Status status =
      options_.sync == SyncPolicy::kNone ? log_->Write() : log_->WriteAndSync();
  if (!status.ok()) {
    // Nothing after `start` may be trusted: the next group ends this file
    // there and goes on in a fresh one.
    file_broken_ = true;
    file_good_end_ = start;
    return fail_all(status);
  }
  leader_stats_.writes += seq - next_seq_;
  leader_stats_.log_bytes += log_->written_offset() - start;
  if (options_.sync != SyncPolicy::kNone) ++leader_stats_.syncs;
  log_bytes_since_checkpoint_ += log_->written_offset() - start;
  log_bytes_total_ += log_->written_offset() - start;
  next_seq_ = seq;

  status = Apply(group, logged, &failed);
  if (!status.ok()) stop_error_ = status;
  if (!checkpoint_in_flight_ &&
      log_bytes_since_checkpoint_ >= options_.checkpoint_bytes) {
    // A failed checkpoint costs nothing but log space; the writes stand.
    (void)StartCheckpoint(/*requested=*/false);
  }
}

absl::Status DurableStore::Apply(const std::vector<Writer*>& group,
                                 const std::vector<bool>& logged,
                                 std::vector<std::string_view>* failed) {
  {
    std::unique_lock write(store_mutex_);
    for (size_t i = 0; i < group.size(); ++i) {
      if (!logged[i]) continue;
      Writer* member = group[i];
      if (member->kind == Writer::Kind::kPut) {
        member->result = inner_->Put(member->key, member->value);
        if (!member->result.ok()) failed->push_back(member->key);
        continue;
      }
      const std::string_view key = member->kind == Writer::Kind::kDelete
                                       ? member->key
                                       : std::string_view(member->nth_key);
      try {
        member->result = inner_->Delete(key);
      } catch (const std::bad_alloc&) {
        // A status made now could itself run out of memory, and the write
        // would keep its default answer: "absent", though the key stays.
        member->result = out_of_memory_deleting_;
        failed->push_back(key);
      }
    }
  }
  if (failed->empty()) return absl::OkStatus();

  // The log holds writes the store could not apply (it ran out of memory and
  // is unchanged by them). Log each such key's value as the store has it, so
  // that replay ends where the store is. Commit made room for this in the
  // buffers and in the file, so memory that stays gone does not stop it:
  // one record at a time, each fits what was reserved.
  absl::Status status;
  try {
    std::shared_lock read(store_mutex_);
    const uint64_t start = log_->end_offset();
    for (std::string_view key : *failed) {
      Record record;
      record.key = key;
      record.seq = next_seq_++;
      record.op = inner_->Get(key, &undo_value_) ? Op::kPut : Op::kDelete;
      record.value = undo_value_;
      EncodeRecord(record, &undo_payload_);
      log_->Add(undo_payload_);
      status = log_->Write();
      if (!status.ok()) break;
    }
    if (status.ok() && options_.sync != SyncPolicy::kNone) {
      status = log_->WriteAndSync();  // nothing pending: syncs the file
    }
    if (status.ok()) {
      leader_stats_.log_bytes += log_->written_offset() - start;
      return absl::OkStatus();
    }
  } catch (const std::bad_alloc&) {
    log_->DropPending();
    status = absl::Status(absl::StatusCode::kResourceExhausted, "");
  }
  try {
    return absl::FailedPreconditionError(absl::StrCat(
        "the log holds a write the store could not apply, and the record "
        "undoing it could not be written (",
        status.message().empty() ? absl::string_view("out of memory")
                                 : status.message(),
        "); reopen the store to recover"));
  } catch (const std::bad_alloc&) {
    return cannot_undo_;
  }
}

// ---- Log files and checkpoints (leader only) ----

absl::Status DurableStore::SwitchFile() {
  if (live_files_.size() + 1 >= ring_->size() && checkpoint_in_flight_) {
    // The writers outran the running checkpoint: the log may not take the
    // ring's last free file, so they wait for it to free the older ones.
    (void)FinishCheckpoint(/*wait=*/true);
  }
  if (live_files_.size() + 1 >= ring_->size()) {
    // Taking the last free file would leave none for the checkpoint that
    // must come next: checkpoint now instead, and wait for it. It moves the
    // log to a fresh file when it can.
    const uint32_t before = log_->number();
    absl::StatusOr<uint64_t> started = StartCheckpoint(/*requested=*/false);
    const absl::Status status =
        started.ok() ? FinishCheckpoint(/*wait=*/true) : started.status();
    if (log_->number() != before) return absl::OkStatus();
    if (!status.ok() && live_files_.size() >= ring_->size()) return status;
  }
  return SealFile();
}

absl::Status DurableStore::SealFile() {
  uint32_t next = largest_number_ + 1;
  auto taken = [&](uint32_t candidate) {
    return std::any_of(live_files_.begin(), live_files_.end(),
                       [&](uint32_t live) {
                         return ring_->SlotOf(live) == ring_->SlotOf(candidate);
                       });
  };
  while (taken(next)) ++next;
  const uint32_t current = log_->number();
  if (file_broken_) {
    log_ = std::make_unique<LogWriter>(ring_->FileFor(current), current,
                                       file_good_end_);
  }
  const uint64_t start = log_->end_offset();
  Record record;
  record.op = Op::kNextFile;
  record.file = next;
  log_->Add(Encode(record));
  absl::Status status = log_->WriteAndSync();
  if (!status.ok()) {
    file_broken_ = true;
    file_good_end_ = start;
    return status;
  }
  leader_stats_.log_bytes += log_->written_offset() - start;
  ++leader_stats_.syncs;
  file_broken_ = false;
  log_ = std::make_unique<LogWriter>(ring_->FileFor(next), next, 0);
  live_files_.push_back(next);
  largest_number_ = next;
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> DurableStore::StartCheckpoint(bool requested) {
  CheckpointJob job;
  // Every write up to here is applied: the leader starts a checkpoint only
  // between groups.
  job.seq = next_seq_ - 1;
  job.requested = requested;
  if (live_files_.size() < ring_->size()) {
    // The usual case: end the current file with a pointer to a fresh one and
    // let the checkpoint start there. Recovery from the old checkpoint
    // follows the pointer, so both checkpoints lead to the same log.
    absl::Status status = SealFile();
    if (!status.ok()) return status;
    job.log_file = log_->number();
    job.log_offset = 0;
  } else if (!file_broken_) {
    // No free file to point to: the checkpoint starts where the log is.
    job.log_file = log_->number();
    job.log_offset = log_->end_offset();
  } else {
    return absl::FailedPreconditionError(
        "every log file is in use and the current one failed a write; "
        "reopen the store to recover");
  }
  {
    std::lock_guard lock(checkpoint_mutex_);
    job.ticket = ++last_ticket_;
    checkpoint_job_ = job;
    checkpoint_busy_ = true;
  }
  checkpoint_cv_.notify_all();
  checkpoint_in_flight_ = true;
  checkpoint_start_bytes_ = log_bytes_total_;
  return job.ticket;
}

absl::Status DurableStore::FinishCheckpoint(bool wait) {
  if (!checkpoint_in_flight_) return absl::OkStatus();
  CheckpointResult result;
  {
    std::unique_lock lock(checkpoint_mutex_);
    if (wait) {
      checkpoint_cv_.wait(lock,
                          [this] { return checkpoint_result_.has_value(); });
    }
    if (!checkpoint_result_.has_value()) return absl::OkStatus();
    result = *std::move(checkpoint_result_);
    checkpoint_result_.reset();
  }
  checkpoint_in_flight_ = false;
  if (!result.status.ok()) return result.status;
  // The log before the checkpoint's start is no longer needed. Its file is
  // in live_files_: files are only appended there since it started.
  live_files_.erase(
      live_files_.begin(),
      std::find(live_files_.begin(), live_files_.end(), result.job.log_file));
  log_bytes_since_checkpoint_ = log_bytes_total_ - checkpoint_start_bytes_;
  return absl::OkStatus();
}

absl::Status DurableStore::SyncLogFiles() {
  for (const std::string& path : log_paths_) {
    absl::StatusOr<std::unique_ptr<durable::File>> file =
        env_->Open(path, false);
    if (!file.ok()) return file.status();
    absl::Status status = (*file)->Sync();
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

void DurableStore::CheckpointLoop() {
  std::unique_lock lock(checkpoint_mutex_);
  for (;;) {
    checkpoint_cv_.wait(
        lock, [this] { return closing_ || checkpoint_job_.has_value(); });
    if (!checkpoint_job_.has_value()) return;  // closing, nothing to write
    const CheckpointJob job = *checkpoint_job_;
    checkpoint_job_.reset();
    lock.unlock();

    durable::CheckpointSource source;
    source.scan = [this](std::string_view start, ScanVisitor visitor) {
      std::shared_lock read(store_mutex_);
      inner_->Scan(start, visitor);
    };
    if (options_.sync == SyncPolicy::kNone) {
      // The batches saw writes whose records may be only in the page cache;
      // a checkpoint holding such a write must not outlive its record.
      source.before_publish = [this] { return SyncLogFiles(); };
    }
    source.cancel = &cancel_checkpoint_;
    const CheckpointPosition position{job.seq, job.log_file, job.log_offset};
    absl::StatusOr<uint64_t> bytes;
    try {
      bytes = durable::WriteCheckpoint(env_, dir_, source, position);
    } catch (const std::bad_alloc&) {
      // Nothing is lost: the last checkpoint and the log still hold it all.
      (void)env_->Remove(absl::StrCat(dir_, "/", durable::kCheckpointTempName));
      bytes =
          absl::ResourceExhaustedError("out of memory writing a checkpoint");
    }
    if (bytes.ok()) {
      // Older checkpoints are no longer needed; one left behind by a failed
      // removal is harmless, as recovery reads only the newest.
      absl::StatusOr<std::vector<std::string>> names = env_->List(dir_);
      if (names.ok()) {
        const std::string newest = durable::CheckpointName(position.seq);
        for (const std::string& name : durable::CheckpointNames(*names)) {
          if (name < newest) (void)env_->Remove(absl::StrCat(dir_, "/", name));
        }
      }
    }

    lock.lock();
    if (bytes.ok()) {
      ++checkpoints_done_;
      checkpoint_bytes_done_ += *bytes;
    }
    checkpoint_result_ = CheckpointResult{job, bytes.status()};
    if (job.requested) requested_results_[job.ticket] = bytes.status();
    checkpoint_busy_ = false;
    checkpoint_cv_.notify_all();
  }
}

// ---- KVStore ----

bool DurableStore::PutImpl(std::string_view key, std::string_view value) {
  Writer writer;
  writer.kind = Writer::Kind::kPut;
  writer.key = key;
  writer.value = value;
  absl::StatusOr<bool> result = Submit(&writer);
  if (result.ok()) return *result;
  // Put returns the status as it is: ResourceExhausted when the inner store
  // ran out of memory or the disk is full, another code for other failures.
  throw WriteError(result.status());
}

absl::StatusOr<bool> DurableStore::Remove(std::string_view key) {
  if (key.size() > kMaxKeySize) return false;
  Writer writer;
  writer.kind = Writer::Kind::kDelete;
  writer.key = key;
  return Submit(&writer);
}

absl::StatusOr<bool> DurableStore::RemoveNth(uint64_t n) {
  Writer writer;
  writer.kind = Writer::Kind::kDeleteNth;
  writer.n = n;
  return Submit(&writer);
}

absl::Status DurableStore::Checkpoint() {
  {
    // Wait for a running checkpoint here, outside the write queue, so that
    // writers are not held behind this request.
    std::unique_lock lock(checkpoint_mutex_);
    checkpoint_cv_.wait(lock, [this] { return !checkpoint_busy_; });
  }
  Writer writer;
  writer.kind = Writer::Kind::kCheckpoint;
  const absl::StatusOr<bool> started = Submit(&writer);
  if (!started.ok()) return started.status();
  std::unique_lock lock(checkpoint_mutex_);
  checkpoint_cv_.wait(
      lock, [&] { return requested_results_.count(writer.ticket) != 0; });
  const absl::Status status = requested_results_[writer.ticket];
  requested_results_.erase(writer.ticket);
  return status;
}

bool DurableStore::DeleteImpl(std::string_view key) {
  absl::StatusOr<bool> result = Remove(key);
  return result.ok() && *result;
}

bool DurableStore::DeleteNth(uint64_t n) {
  absl::StatusOr<bool> result = RemoveNth(n);
  return result.ok() && *result;
}

bool DurableStore::GetImpl(std::string_view key, std::string* value) const {
  std::shared_lock read(store_mutex_);
  return inner_->Get(key, value);
}

bool DurableStore::GetNth(uint64_t n, std::string* key,
                          std::string* value) const {
  std::shared_lock read(store_mutex_);
  return inner_->GetNth(n, key, value);
}

uint64_t DurableStore::Scan(std::string_view start, ScanVisitor visitor) const {
  std::shared_lock read(store_mutex_);
  return inner_->Scan(start, visitor);
}

uint64_t DurableStore::Size() const {
  std::shared_lock read(store_mutex_);
  return inner_->Size();
}

std::optional<size_t> DurableStore::MemoryUsage() const {
  std::shared_lock read(store_mutex_);
  return inner_->MemoryUsage();
}

absl::Status DurableStore::CheckInvariants() const {
  std::shared_lock read(store_mutex_);
  return inner_->CheckInvariants();
}

absl::Status DurableStore::ExportStructure(const StructureOptions& options,
                                           StructureGraph* graph) const {
  std::shared_lock read(store_mutex_);
  return inner_->ExportStructure(options, graph);
}

DurabilityStats DurableStore::stats() const {
  DurabilityStats stats;
  {
    std::lock_guard lock(queue_mutex_);
    stats = stats_;
  }
  std::lock_guard lock(checkpoint_mutex_);
  stats.checkpoints = checkpoints_done_;
  stats.checkpoint_bytes = checkpoint_bytes_done_;
  return stats;
}

absl::StatusOr<std::unique_ptr<KVStore>> MakeDurable(
    std::unique_ptr<KVStore> inner, const std::string& dir,
    const DurabilityOptions& options) {
  absl::StatusOr<std::unique_ptr<DurableStore>> store =
      DurableStore::Open(std::move(inner), dir, options);
  if (!store.ok()) return store.status();
  return std::unique_ptr<KVStore>(*std::move(store));
}

}  // namespace kvlab
