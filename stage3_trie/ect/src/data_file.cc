#include "kvlab/ect/data_file.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "kvlab/coding.h"
#include "kvlab/ect/hash_key.h"

namespace kvlab::ect {
namespace {

constexpr char kMagic[8] = {'k', 'v', 'l', 'a', 'b', 'E', 'C', 'T'};
constexpr uint32_t kVersion = 1;
// Writes and sequential reads go in pieces of this size.
constexpr size_t kIoBytes = size_t{1} << 20;

void PutLE32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

void PutLE64(uint64_t v, std::string* out) {
  PutLE32(static_cast<uint32_t>(v), out);
  PutLE32(static_cast<uint32_t>(v >> 32), out);
}

std::string EncodeHeader(const DataFileHeader& h) {
  std::string out(kMagic, sizeof(kMagic));
  PutLE32(kVersion, &out);
  PutLE32(static_cast<uint32_t>(h.bucket_bits), &out);
  PutLE32(static_cast<uint32_t>(h.hmax), &out);
  PutLE32(0, &out);
  PutLE64(h.pairs, &out);
  return out;
}

const uint8_t* U8(const std::string& s, size_t at) {
  return reinterpret_cast<const uint8_t*>(s.data()) + at;
}

}  // namespace

absl::StatusOr<std::unique_ptr<DataFileWriter>> DataFileWriter::Create(
    durable::Env* env, std::string path, int bucket_bits,
    std::shared_ptr<const HuffmanTables> tables) {
  const int hmax = tables == nullptr ? 0 : tables->hmax();
  absl::StatusOr<EctIndexBuilder> builder =
      EctIndexBuilder::Create(bucket_bits, std::move(tables));
  if (!builder.ok()) return builder.status();
  std::unique_ptr<DataFileWriter> w(new DataFileWriter());
  absl::StatusOr<std::unique_ptr<durable::File>> file =
      env->Open(path, /*create=*/true);
  if (!file.ok()) return file.status();
  w->file_ = *std::move(file);
  w->path_ = std::move(path);
  w->bucket_bits_ = bucket_bits;
  w->hmax_ = hmax;
  w->index_ = std::make_unique<EctIndexBuilder>(*std::move(builder));
  // The header's place, filled in by Finish.
  w->out_.assign(kDataHeaderBytes, '\0');
  return w;
}

absl::Status DataFileWriter::Add(uint64_t hashkey, std::string_view key,
                                 std::string_view value) {
  const uint64_t bucket = BucketOf(hashkey, bucket_bits_);
  if (!hashkeys_.empty() && bucket != bucket_) {
    if (absl::Status s = FlushBucket(); !s.ok()) return s;
  }
  bucket_ = bucket;
  if (hashkeys_.empty() || hashkeys_.back() != hashkey) {
    hashkeys_.push_back(hashkey);
    slots_.emplace_back();
  }
  if (slots_.back().size() >= kMaxPairsPerSlot) {
    return absl::ResourceExhaustedError(
        "ect: too many keys share one 64-bit hashkey");
  }
  slots_.back().emplace_back(std::string(key), std::string(value));
  ++pairs_;
  return absl::OkStatus();
}

absl::Status DataFileWriter::FlushBucket() {
  if (hashkeys_.empty()) return absl::OkStatus();
  size_t slot_bytes = 0;
  for (const auto& slot : slots_)
    slot_bytes = std::max(slot_bytes, SlotBytes(slot));
  const uint64_t start = offset_ + out_.size();
  index_->AddBucket(bucket_, hashkeys_, start);
  AppendBucketHeader(static_cast<uint32_t>(slot_bytes),
                     static_cast<uint32_t>(slots_.size()), &out_);
  for (const auto& slot : slots_) AppendSlot(slot, slot_bytes, &out_);
  hashkeys_.clear();
  slots_.clear();
  if (out_.size() >= kIoBytes) return FlushOut();
  return absl::OkStatus();
}

absl::Status DataFileWriter::FlushOut() {
  if (out_.empty()) return absl::OkStatus();
  absl::Status s = file_->Write(offset_, out_);
  if (!s.ok()) return s;
  offset_ += out_.size();
  out_.clear();
  return absl::OkStatus();
}

absl::StatusOr<EctIndex> DataFileWriter::Finish() {
  if (absl::Status s = FlushBucket(); !s.ok()) return s;
  if (absl::Status s = FlushOut(); !s.ok()) return s;
  DataFileHeader header;
  header.bucket_bits = bucket_bits_;
  header.hmax = hmax_;
  header.pairs = pairs_;
  if (absl::Status s = file_->Write(0, EncodeHeader(header)); !s.ok()) {
    return s;
  }
  if (absl::Status s = file_->Sync(); !s.ok()) return s;
  return std::move(*index_).Finish(offset_);
}

absl::StatusOr<std::unique_ptr<DataFileScanner>> DataFileScanner::Open(
    durable::Env* env, const std::string& path) {
  absl::StatusOr<std::unique_ptr<durable::File>> file =
      env->Open(path, /*create=*/false);
  if (!file.ok()) return file.status();
  std::unique_ptr<DataFileScanner> s(new DataFileScanner());
  s->file_ = *std::move(file);
  s->path_ = path;
  absl::StatusOr<uint64_t> size = s->file_->Size();
  if (!size.ok()) return size.status();
  s->size_ = *size;
  if (absl::Status st = s->Need(kDataHeaderBytes); !st.ok()) return st;
  const std::string& b = s->buffer_;
  if (std::memcmp(b.data(), kMagic, sizeof(kMagic)) != 0 ||
      LoadLE32(U8(b, 8)) != kVersion) {
    return absl::DataLossError(absl::StrCat(path, " is not an ect data file"));
  }
  s->header_.bucket_bits = static_cast<int>(LoadLE32(U8(b, 12)));
  s->header_.hmax = static_cast<int>(LoadLE32(U8(b, 16)));
  s->header_.pairs = LoadLE64(U8(b, 24));
  if (s->header_.bucket_bits < 0 || s->header_.bucket_bits > 40 ||
      s->header_.hmax < 1 || s->header_.hmax > kMaxHuffmanTrieSize) {
    return absl::DataLossError(absl::StrCat(path, ": a damaged header"));
  }
  s->pos_ = kDataHeaderBytes;
  return s;
}

absl::Status DataFileScanner::Need(size_t n) {
  if (pos_ + n <= buffer_offset_ + buffer_.size()) return absl::OkStatus();
  if (pos_ + n > size_) {
    return absl::DataLossError(
        absl::StrCat(path_, ": ends inside a bucket at byte ", pos_));
  }
  // Keep the unread tail, then read at least kIoBytes more.
  buffer_.erase(0, pos_ - buffer_offset_);
  buffer_offset_ = pos_;
  const uint64_t from = buffer_offset_ + buffer_.size();
  const size_t want = std::max(kIoBytes, n - buffer_.size());
  std::string more;
  absl::Status s = file_->Read(from, want, &more);
  if (!s.ok()) return s;
  buffer_ += more;
  if (buffer_.size() < n) {
    return absl::DataLossError(absl::StrCat(path_, ": short read"));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> DataFileScanner::NextBucket(ScannedBucket* bucket) {
  if (pos_ >= size_) return false;
  bucket->offset = pos_;
  bucket->hashkeys.clear();
  bucket->slots.clear();
  if (absl::Status s = Need(kBucketHeaderBytes); !s.ok()) return s;
  uint32_t slot_bytes = 0, slots = 0;
  const std::string_view header(buffer_.data() + (pos_ - buffer_offset_),
                                kBucketHeaderBytes);
  if (absl::Status s = ReadBucketHeader(header, &slot_bytes, &slots); !s.ok()) {
    return s;
  }
  pos_ += kBucketHeaderBytes;
  if (slots == 0 || slot_bytes < kSlotHeaderBytes) {
    return absl::DataLossError(
        absl::StrCat(path_, ": an empty bucket at byte ", bucket->offset));
  }
  for (uint32_t i = 0; i < slots; ++i) {
    if (absl::Status s = Need(slot_bytes); !s.ok()) return s;
    const std::string_view slot(buffer_.data() + (pos_ - buffer_offset_),
                                slot_bytes);
    std::vector<Pair> pairs;
    absl::Status s =
        ForEachInSlot(slot, [&](std::string_view k, std::string_view v) {
          pairs.emplace_back(std::string(k), std::string(v));
        });
    if (!s.ok()) return absl::DataLossError(s.message());
    bucket->hashkeys.push_back(HashKey64(pairs.front().first));
    bucket->slots.push_back(std::move(pairs));
    pos_ += slot_bytes;
  }
  return true;
}

absl::StatusOr<EctIndex> RebuildIndex(
    durable::Env* env, const std::string& path,
    std::shared_ptr<const HuffmanTables> tables) {
  absl::StatusOr<std::unique_ptr<DataFileScanner>> scanner =
      DataFileScanner::Open(env, path);
  if (!scanner.ok()) return scanner.status();
  const DataFileHeader& h = (*scanner)->header();
  if (h.hmax != tables->hmax()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, " was coded with hmax ", h.hmax, ", not ", tables->hmax()));
  }
  absl::StatusOr<EctIndexBuilder> builder =
      EctIndexBuilder::Create(h.bucket_bits, std::move(tables));
  if (!builder.ok()) return builder.status();
  ScannedBucket bucket;
  uint64_t next_bucket = 0;
  for (;;) {
    absl::StatusOr<bool> more = (*scanner)->NextBucket(&bucket);
    if (!more.ok()) return more.status();
    if (!*more) break;
    const uint64_t b = BucketOf(bucket.hashkeys.front(), h.bucket_bits);
    if (b < next_bucket ||
        !std::is_sorted(bucket.hashkeys.begin(), bucket.hashkeys.end()) ||
        BucketOf(bucket.hashkeys.back(), h.bucket_bits) != b) {
      return absl::DataLossError(
          absl::StrCat(path, ": buckets out of order at byte ", bucket.offset));
    }
    builder->AddBucket(b, bucket.hashkeys, bucket.offset);
    next_bucket = b + 1;
  }
  return std::move(*builder).Finish((*scanner)->file_bytes());
}

}  // namespace kvlab::ect
