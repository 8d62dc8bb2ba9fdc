#include "durable/log_reader.h"

#include "absl/strings/str_cat.h"
#include "durable/crc32c.h"
#include "durable/log_format.h"

namespace kvlab::durable {
namespace {

uint64_t GetLittleEndian(const char* p, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  }
  return value;
}

}  // namespace

LogReader::LogReader(File* file, uint32_t number, uint64_t offset)
    : file_(file), number_(number), offset_(offset), record_offset_(offset) {}

LogReader::Result LogReader::Stop(Result result, std::string reason) {
  stopped_ = true;
  stop_result_ = result;
  reason_ = std::move(reason);
  return result;
}

bool LogReader::LoadBlock(Result* failure) {
  const uint64_t start = offset_ - offset_ % kBlockSize;
  if (start == block_start_) return true;
  absl::Status status = file_->Read(start, kBlockSize, &block_);
  if (!status.ok()) {
    *failure = Stop(Result::kIoError, std::string(status.message()));
    return false;
  }
  block_start_ = start;
  return true;
}

LogReader::Result LogReader::Read(std::string* payload) {
  if (stopped_) return stop_result_;
  payload->clear();
  bool in_fragments = false;
  record_offset_ = offset_;
  for (;;) {
    Result failure;
    if (!LoadBlock(&failure)) return failure;
    const size_t in_block = offset_ % kBlockSize;
    if (kBlockSize - in_block < kHeaderSize) {  // the writer's zero trailer
      offset_ += kBlockSize - in_block;
      if (!in_fragments) record_offset_ = offset_;
      continue;
    }
    const std::string_view block(block_);
    if (block.size() < in_block + kHeaderSize) {
      // The file ends here (a file that was not preallocated).
      if (in_fragments || block.size() > in_block) {
        return Stop(Result::kCorrupt,
                    "record cut short by the end of the file (torn write)");
      }
      return Stop(Result::kEnd, "end of file");
    }
    const char* header = block.data() + in_block;
    const uint32_t crc = static_cast<uint32_t>(GetLittleEndian(header, 4));
    const size_t length = GetLittleEndian(header + 4, 2);
    const auto type = static_cast<uint8_t>(header[6]);
    const auto number = static_cast<uint32_t>(GetLittleEndian(header + 7, 4));
    if (crc == 0 && length == 0 && type == 0 && number == 0) {
      if (in_fragments) {
        return Stop(Result::kCorrupt,
                    "record cut short: its last fragment was never written "
                    "(torn write)");
      }
      return Stop(Result::kEnd, "end of the written log (zeros)");
    }
    if (in_block + kHeaderSize + length > block.size()) {
      return Stop(Result::kCorrupt,
                  absl::StrCat("record length ", length,
                               " runs past the end of its block"));
    }
    const std::string_view data = block.substr(in_block + kHeaderSize, length);
    uint32_t actual = Crc32c(std::string_view(header + 4, kHeaderSize - 4));
    actual = Crc32cExtend(actual, data);
    if (actual != crc) {
      return Stop(Result::kCorrupt,
                  absl::StrCat("checksum mismatch at offset ", offset_));
    }
    if (number != number_) {
      if (in_fragments) {
        return Stop(Result::kCorrupt,
                    "record cut short: a stale record follows its first "
                    "fragment (torn write)");
      }
      return Stop(Result::kEnd,
                  absl::StrCat("end of the written log (a stale record of "
                               "file ",
                               number, ")"));
    }
    const uint64_t at = offset_;
    offset_ += kHeaderSize + length;
    switch (static_cast<RecordType>(type)) {
      case RecordType::kFull:
        if (in_fragments) {
          return Stop(Result::kCorrupt, "whole record inside a fragmented one");
        }
        record_offset_ = at;
        payload->assign(data);
        return Result::kRecord;
      case RecordType::kFirst:
        if (in_fragments) {
          return Stop(Result::kCorrupt, "first fragment inside another record");
        }
        in_fragments = true;
        record_offset_ = at;
        payload->assign(data);
        break;
      case RecordType::kMiddle:
      case RecordType::kLast:
        if (!in_fragments) {
          record_offset_ = at;
          return Stop(Result::kCorrupt, "fragment without a first fragment");
        }
        payload->append(data);
        if (static_cast<RecordType>(type) == RecordType::kLast) {
          return Result::kRecord;
        }
        break;
      default:
        return Stop(Result::kCorrupt,
                    absl::StrCat("unknown record type ", type));
    }
  }
}

}  // namespace kvlab::durable
