#include "durable/log_writer.h"

#include <algorithm>

#include "durable/crc32c.h"
#include "durable/log_format.h"

namespace kvlab::durable {
namespace {

void PutLittleEndian(uint64_t value, int bytes, char* out) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<char>(value >> (8 * i));
}

}  // namespace

uint64_t FramedSize(uint64_t block_offset, size_t size) {
  uint64_t total = 0;
  size_t left = size;
  bool first = true;
  while (first || left > 0) {
    const uint64_t room = kBlockSize - block_offset;
    if (room < kHeaderSize) {  // trailer: zeros, then a fresh block
      total += room;
      block_offset = 0;
      continue;
    }
    const size_t n = std::min<uint64_t>(left, room - kHeaderSize);
    total += kHeaderSize + n;
    block_offset = (block_offset + kHeaderSize + n) % kBlockSize;
    left -= n;
    first = false;
  }
  return total;
}

LogWriter::LogWriter(File* file, uint32_t number, uint64_t offset)
    : file_(file), number_(number), written_(offset), end_(offset) {}

uint64_t LogWriter::EndAfter(size_t size) const {
  return end_ + FramedSize(end_ % kBlockSize, size);
}

void LogWriter::Add(std::string_view payload) {
  bool first = true;
  do {
    const uint64_t room = kBlockSize - end_ % kBlockSize;
    if (room < kHeaderSize) {
      pending_.append(room, '\0');
      end_ += room;
      continue;
    }
    const size_t n = std::min<uint64_t>(payload.size(), room - kHeaderSize);
    const bool last = n == payload.size();
    const RecordType type =
        first ? (last ? RecordType::kFull : RecordType::kFirst)
              : (last ? RecordType::kLast : RecordType::kMiddle);
    char header[kHeaderSize];
    PutLittleEndian(n, 2, header + 4);
    header[6] = static_cast<char>(type);
    PutLittleEndian(number_, 4, header + 7);
    uint32_t crc = Crc32c(std::string_view(header + 4, kHeaderSize - 4));
    crc = Crc32cExtend(crc, payload.substr(0, n));
    PutLittleEndian(crc, 4, header);
    pending_.append(header, kHeaderSize);
    pending_.append(payload.substr(0, n));
    end_ += kHeaderSize + n;
    payload.remove_prefix(n);
    first = false;
  } while (first || !payload.empty());
}

absl::Status LogWriter::Write() {
  if (pending_.empty()) return absl::OkStatus();
  absl::Status status = file_->Write(written_, pending_);
  if (status.ok()) {
    written_ = end_;
    pending_.clear();
  } else {
    DropPending();
  }
  return status;
}

absl::Status LogWriter::WriteAndSync() {
  absl::Status status = Write();
  if (!status.ok()) return status;
  return file_->Sync();
}

void LogWriter::DropPending() {
  pending_.clear();
  end_ = written_;
}

}  // namespace kvlab::durable
