// LogWriter: frames logical records into the block format of log_format.h
// and writes them into one file at increasing offsets.
//
// Records are framed into a pending buffer by Add() and reach the file only
// with Write(), so a group of records costs one write call; Sync() makes the
// written ones durable.

#ifndef KVLAB_DURABLE_LOG_WRITER_H_
#define KVLAB_DURABLE_LOG_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/durable/file.h"

namespace kvlab::durable {

// Invariants: written_ <= end_; the file holds the framed records up to
// written_; pending_ holds the bytes of [written_, end_). Not thread-safe.
class LogWriter {
 public:
  // Writes into `file` (not owned) for file number `number`, starting at
  // byte `offset`, which must be where a record may begin.
  LogWriter(File* file, uint32_t number, uint64_t offset);

  // Frames `payload` (at most 4 GiB) after the pending records.
  void Add(std::string_view payload);

  // Makes room for `bytes` of framed records, so that Adds totalling at
  // most that much (after a Write, which empties the pending records)
  // allocate nothing.
  void Reserve(size_t bytes) { pending_.reserve(bytes); }

  // Writes the pending records. On failure the file may hold any prefix of
  // them beyond written_offset(): the caller must not trust this file past
  // that offset, and the pending records are dropped.
  absl::Status Write();

  // Writes the pending records, then syncs the file.
  absl::Status WriteAndSync();

  // Drops the pending records (end_offset() returns to written_offset()).
  void DropPending();

  uint32_t number() const { return number_; }
  // Where the next pending record would start / where the file's records end.
  uint64_t end_offset() const { return end_; }
  uint64_t written_offset() const { return written_; }
  // Bytes the file would hold after adding a payload of `size`.
  uint64_t EndAfter(size_t size) const;

 private:
  File* const file_;
  const uint32_t number_;
  uint64_t written_;
  uint64_t end_;
  std::string pending_;
};

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_LOG_WRITER_H_
