#include "durable/checkpoint.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "durable/log_reader.h"
#include "durable/log_writer.h"
#include "durable/record.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::durable {
namespace {

constexpr std::string_view kPrefix = "checkpoint-";
constexpr size_t kWriteChunk = 1 << 20;
// A batch of a fuzzy checkpoint: small enough that a writer waiting for the
// store's lock waits well under a millisecond.
constexpr size_t kBatchPairs = 256;
constexpr size_t kBatchBytes = 64 << 10;

absl::Status Damaged(const std::string& name, uint64_t offset,
                     std::string_view why) {
  return absl::DataLossError(absl::StrCat("checkpoint ", name,
                                          " is damaged at offset ", offset,
                                          ": ", ToAbsl(why)));
}

// Inserts pairs[lo, hi) middle first, iteratively (no deep recursion).
absl::Status InsertMiddleFirst(
    const std::vector<std::pair<std::string, std::string>>& pairs,
    KVStore* store) {
  std::vector<std::pair<size_t, size_t>> ranges = {{0, pairs.size()}};
  while (!ranges.empty()) {
    auto [lo, hi] = ranges.back();
    ranges.pop_back();
    if (lo >= hi) continue;
    const size_t mid = lo + (hi - lo) / 2;
    absl::StatusOr<bool> put = store->Put(pairs[mid].first, pairs[mid].second);
    if (!put.ok()) return put.status();
    ranges.emplace_back(mid + 1, hi);
    ranges.emplace_back(lo, mid);
  }
  return absl::OkStatus();
}

}  // namespace

std::string CheckpointName(uint64_t seq) {
  char name[64];
  std::snprintf(name, sizeof(name), "checkpoint-%020" PRIu64, seq);
  return name;
}

std::vector<std::string> CheckpointNames(
    const std::vector<std::string>& names) {
  std::vector<std::string> result;
  for (const std::string& name : names) {
    if (name.size() == kPrefix.size() + 20 &&
        name.compare(0, kPrefix.size(), kPrefix) == 0 &&
        std::all_of(name.begin() + kPrefix.size(), name.end(),
                    [](char c) { return c >= '0' && c <= '9'; })) {
      result.push_back(name);
    }
  }
  std::sort(result.rbegin(), result.rend());
  return result;
}

absl::StatusOr<uint64_t> WriteCheckpoint(Env* env, const std::string& dir,
                                         const CheckpointSource& source,
                                         const CheckpointPosition& position) {
  const std::string temp = absl::StrCat(dir, "/", kCheckpointTempName);
  // A leftover temporary file from a crash would keep its old bytes beyond
  // what this checkpoint writes, so start from no file at all.
  (void)env->Remove(temp);
  absl::StatusOr<std::unique_ptr<File>> file = env->Open(temp, true);
  if (!file.ok()) return file.status();
  LogWriter writer(file->get(), 0, 0);
  std::string payload;
  Record record;
  record.op = Op::kCheckpointBegin;
  record.seq = position.seq;
  record.file = position.log_file;
  record.offset = position.log_offset;
  EncodeRecord(record, &payload);
  writer.Add(payload);

  absl::Status status;
  uint64_t pairs = 0;
  // Each batch is copied out under the store's lock and encoded and written
  // after it is released, so writers wait for one batch at most.
  std::string batch_bytes;
  std::vector<std::pair<size_t, size_t>> batch;  // key and value sizes
  std::string last_key;
  bool started = false;
  for (;;) {
    if (source.cancel != nullptr && source.cancel->load()) {
      status = absl::CancelledError("checkpoint abandoned: the store closed");
      break;
    }
    batch_bytes.clear();
    batch.clear();
    bool more = false;
    // The scan starts at the last key written, which it skips (its
    // successor, the key plus a zero byte, may exceed a store's key limit).
    source.scan(last_key, [&](std::string_view key, std::string_view value) {
      if (started && key == last_key) return true;
      if (batch.size() == kBatchPairs || batch_bytes.size() >= kBatchBytes) {
        more = true;
        return false;
      }
      batch_bytes.append(key).append(value);
      batch.emplace_back(key.size(), value.size());
      return true;
    });
    size_t at = 0;
    for (const auto& [key_size, value_size] : batch) {
      Record pair;
      pair.op = Op::kPair;
      pair.key = std::string_view(batch_bytes).substr(at, key_size);
      pair.value =
          std::string_view(batch_bytes).substr(at + key_size, value_size);
      at += key_size + value_size;
      EncodeRecord(pair, &payload);
      writer.Add(payload);
      last_key.assign(pair.key);
      started = true;
      ++pairs;
    }
    if (writer.end_offset() - writer.written_offset() >= kWriteChunk || !more) {
      status = writer.Write();
      if (!status.ok()) break;
    }
    if (!more) break;
  }
  if (status.ok()) {
    Record end;
    end.op = Op::kCheckpointEnd;
    end.count = pairs;
    EncodeRecord(end, &payload);
    writer.Add(payload);
    status = writer.WriteAndSync();
  }
  if (status.ok() && source.before_publish) status = source.before_publish();
  if (status.ok()) {
    status =
        env->Rename(temp, absl::StrCat(dir, "/", CheckpointName(position.seq)));
  }
  if (status.ok()) status = env->SyncDir(dir);
  if (!status.ok()) {
    file->reset();
    (void)env->Remove(temp);
    return status;
  }
  return writer.written_offset();
}

absl::StatusOr<CheckpointPosition> LoadCheckpoint(
    Env* env, const std::string& dir, const std::string& name,
    bool balanced_order, KVStore* store, uint64_t* pairs) {
  absl::StatusOr<std::unique_ptr<File>> file =
      env->Open(absl::StrCat(dir, "/", name), false);
  if (!file.ok()) return file.status();
  LogReader reader(file->get(), 0, 0);
  std::string payload;
  Record record;
  CheckpointPosition position;
  std::vector<std::pair<std::string, std::string>> buffered;
  bool begun = false;
  *pairs = 0;
  for (;;) {
    LogReader::Result result = reader.Read(&payload);
    if (result == LogReader::Result::kIoError) {
      return absl::UnavailableError(
          absl::StrCat("checkpoint ", name, ": ", reader.reason()));
    }
    if (result != LogReader::Result::kRecord) {
      return Damaged(name, reader.record_offset(),
                     result == LogReader::Result::kEnd
                         ? absl::StrCat("it ends before its last record (",
                                        reader.reason(), ")")
                         : reader.reason());
    }
    if (!DecodeRecord(payload, &record)) {
      return Damaged(name, reader.record_offset(), "undecodable record");
    }
    if (!begun) {
      if (record.op != Op::kCheckpointBegin) {
        return Damaged(name, reader.record_offset(), "no checkpoint header");
      }
      position.seq = record.seq;
      position.log_file = record.file;
      position.log_offset = record.offset;
      begun = true;
      continue;
    }
    if (record.op == Op::kCheckpointEnd) {
      if (record.count != *pairs) {
        return Damaged(
            name, reader.record_offset(),
            absl::StrCat("it holds ", *pairs, " pairs but its end record says ",
                         record.count));
      }
      break;
    }
    if (record.op != Op::kPair) {
      return Damaged(name, reader.record_offset(), "unexpected record type");
    }
    ++*pairs;
    if (balanced_order) {
      buffered.emplace_back(record.key, record.value);
    } else {
      absl::StatusOr<bool> put = store->Put(record.key, record.value);
      if (!put.ok()) return put.status();
    }
  }
  if (balanced_order) {
    absl::Status status = InsertMiddleFirst(buffered, store);
    if (!status.ok()) return status;
  }
  return position;
}

}  // namespace kvlab::durable
