#include "durable/log_ring.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "durable/crc32c.h"
#include "durable/log_format.h"

namespace kvlab::durable {
namespace {

constexpr char kPrefix[] = "log-";
constexpr size_t kPrefixSize = sizeof(kPrefix) - 1;

// The slot index of a ring file name, or -1.
int64_t SlotOfName(const std::string& name) {
  if (name.compare(0, kPrefixSize, kPrefix) != 0) return -1;
  uint32_t slot;
  const std::string digits = name.substr(kPrefixSize);
  if (digits.empty() || digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string::npos ||
      !absl::SimpleAtoi(digits, &slot)) {
    return -1;
  }
  return slot;
}

// Appends zeros to `file` from `from` up to `to`, then syncs it.
absl::Status ZeroFill(File* file, uint64_t from, uint64_t to) {
  const std::string zeros(1 << 20, '\0');
  while (from < to) {
    const size_t n = std::min<uint64_t>(zeros.size(), to - from);
    absl::Status status =
        file->Write(from, std::string_view(zeros).substr(0, n));
    if (!status.ok()) return status;
    from += n;
  }
  return file->Sync();
}

// Extends `file` to `to` bytes by writing its last byte: the file system
// leaves a hole before it, which reads as zeros.
absl::Status SparseFill(File* file, uint64_t to) {
  return file->Write(to - 1, std::string_view("\0", 1));
}

}  // namespace

std::string LogRing::NameFor(uint32_t number) const {
  return absl::StrCat(kPrefix, SlotOf(number));
}

absl::StatusOr<std::unique_ptr<LogRing>> LogRing::Open(
    Env* env, const std::string& dir, uint32_t files, uint64_t file_bytes,
    Preallocation preallocation) {
  absl::StatusOr<std::vector<std::string>> names = env->List(dir);
  if (!names.ok()) return names.status();
  int64_t largest_slot = -1;
  for (const std::string& name : *names) {
    largest_slot = std::max(largest_slot, SlotOfName(name));
  }
  std::unique_ptr<LogRing> ring(new LogRing());
  const bool exists = largest_slot >= 0;
  const uint32_t count =
      exists ? static_cast<uint32_t>(largest_slot + 1) : files;
  std::vector<uint64_t> sizes(count, 0);
  for (uint32_t slot = 0; slot < count; ++slot) {
    absl::StatusOr<std::unique_ptr<File>> file =
        env->Open(absl::StrCat(dir, "/", kPrefix, slot), true);
    if (!file.ok()) return file.status();
    absl::StatusOr<uint64_t> size = (*file)->Size();
    if (!size.ok()) return size.status();
    sizes[slot] = *size;
    ring->files_.push_back(*std::move(file));
  }
  ring->file_bytes_ =
      exists ? *std::max_element(sizes.begin(), sizes.end()) : file_bytes;
  if (ring->file_bytes_ % kBlockSize != 0 ||
      ring->file_bytes_ < 2 * kBlockSize) {
    return absl::FailedPreconditionError(
        absl::StrCat("log files in ", dir, " are ", ring->file_bytes_,
                     " bytes: not a multiple of ", kBlockSize, " of at least ",
                     2 * kBlockSize));
  }
  bool created = false;
  for (uint32_t slot = 0; slot < count; ++slot) {
    if (sizes[slot] < ring->file_bytes_) {
      File* file = ring->files_[slot].get();
      absl::Status status =
          preallocation == Preallocation::kSparse
              ? SparseFill(file, ring->file_bytes_)
              : ZeroFill(file, sizes[slot], ring->file_bytes_);
      if (!status.ok()) return status;
      created = true;
    }
  }
  // A sparse ring belongs to a store that promises nothing across a power
  // failure, so neither its files nor its directory entry are synced.
  if (created && preallocation == Preallocation::kWriteZeros) {
    absl::Status status = env->SyncDir(dir);
    if (!status.ok()) return status;
  }
  return ring;
}

absl::StatusOr<uint32_t> LogRing::LargestStampedNumber() const {
  uint32_t largest = 0;
  std::string block;
  for (const std::unique_ptr<File>& file : files_) {
    absl::Status status = file->Read(0, kBlockSize, &block);
    if (!status.ok()) return status;
    if (block.size() < kHeaderSize) continue;
    auto get = [&block](size_t at, int bytes) {
      uint64_t value = 0;
      for (int i = 0; i < bytes; ++i) {
        value |= uint64_t{static_cast<unsigned char>(block[at + i])} << (8 * i);
      }
      return value;
    };
    const size_t length = get(4, 2);
    if (kHeaderSize + length > block.size()) continue;
    const uint32_t crc =
        Crc32cExtend(Crc32c(std::string_view(block).substr(4, kHeaderSize - 4)),
                     std::string_view(block).substr(kHeaderSize, length));
    if (crc != get(0, 4) || block[6] == 0) continue;
    largest = std::max(largest, static_cast<uint32_t>(get(7, 4)));
  }
  return largest;
}

}  // namespace kvlab::durable
