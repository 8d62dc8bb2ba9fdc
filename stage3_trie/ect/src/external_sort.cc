#include "kvlab/ect/external_sort.h"

#include <algorithm>
#include <new>
#include <string_view>
#include <tuple>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kvlab/coding.h"

namespace kvlab::ect {
namespace {

// A run is a sequence of records, each: hashkey (8 bytes), key length with
// the tombstone flag in its top bit (4), value length (4), key, value; all
// little-endian.
constexpr size_t kRecordHeaderBytes = 16;
constexpr uint32_t kTombstoneBit = uint32_t{1} << 31;
constexpr uint64_t kMaxKeyBytes = kTombstoneBit - 1;
constexpr uint64_t kMaxValueBytes = 0xffffffffu;
constexpr uint64_t kEntryBytes = 24;  // sizeof(ExternalSorter::Entry)

void PutLE32(uint32_t v, std::string* out) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

void AppendRecord(uint64_t hashkey, std::string_view key,
                  std::string_view value, bool tombstone, std::string* out) {
  PutLE32(static_cast<uint32_t>(hashkey), out);
  PutLE32(static_cast<uint32_t>(hashkey >> 32), out);
  PutLE32(static_cast<uint32_t>(key.size()) | (tombstone ? kTombstoneBit : 0),
          out);
  PutLE32(static_cast<uint32_t>(value.size()), out);
  out->append(key);
  out->append(value);
}

// Writes one run through `env` in blocks. Not thread-safe.
class RunWriter {
 public:
  RunWriter(std::unique_ptr<durable::File> file, size_t block)
      : file_(std::move(file)), block_(block) {}

  absl::Status Add(uint64_t hashkey, std::string_view key,
                   std::string_view value, bool tombstone) {
    AppendRecord(hashkey, key, value, tombstone, &out_);
    if (out_.size() >= block_) return Flush();
    return absl::OkStatus();
  }

  // Writes what is buffered; the run's size.
  absl::StatusOr<uint64_t> Finish() {
    if (absl::Status s = Flush(); !s.ok()) return s;
    return offset_;
  }

 private:
  absl::Status Flush() {
    if (out_.empty()) return absl::OkStatus();
    if (absl::Status s = file_->Write(offset_, out_); !s.ok()) return s;
    offset_ += out_.size();
    out_.clear();
    return absl::OkStatus();
  }

  std::unique_ptr<durable::File> file_;
  const size_t block_;
  std::string out_;
  uint64_t offset_ = 0;
};

bool RecordLess(const SortRecord& a, const SortRecord& b) {
  return std::tie(a.hashkey, a.key) < std::tie(b.hashkey, b.key);
}

}  // namespace

// A held record: its bytes at arena_[offset], key then value. Offsets grow
// in the order records are added, which makes them the tie-breaker.
struct ExternalSorter::Entry {
  uint64_t hashkey;
  uint64_t offset;
  uint32_t key_bits;  // key length | kTombstoneBit
  uint32_t value_len;
};

// Reads one run from start to end, a block at a time. Not thread-safe.
class ExternalSorter::RunReader {
 public:
  RunReader(std::unique_ptr<durable::File> file, std::string path,
            uint64_t size, size_t block)
      : file_(std::move(file)),
        path_(std::move(path)),
        size_(size),
        block_(block) {}

  // Reads the next record into record(); false at the end of the run.
  absl::StatusOr<bool> Advance() {
    if (pos_ >= size_) return false;
    if (absl::Status s = Need(kRecordHeaderBytes); !s.ok()) return s;
    const uint8_t* h =
        reinterpret_cast<const uint8_t*>(buffer_.data()) + (pos_ - start_);
    record_.hashkey = LoadLE64(h);
    const uint32_t key_bits = LoadLE32(h + 8);
    const uint32_t value_len = LoadLE32(h + 12);
    const size_t key_len = key_bits & ~kTombstoneBit;
    record_.tombstone = (key_bits & kTombstoneBit) != 0;
    pos_ += kRecordHeaderBytes;
    if (absl::Status s = Need(key_len + size_t{value_len}); !s.ok()) return s;
    const char* p = buffer_.data() + (pos_ - start_);
    record_.key.assign(p, key_len);
    record_.value.assign(p + key_len, value_len);
    pos_ += key_len + value_len;
    return true;
  }

  SortRecord& record() { return record_; }

 private:
  // Makes `n` bytes from pos_ available in buffer_.
  absl::Status Need(size_t n) {
    if (pos_ + n <= start_ + buffer_.size()) return absl::OkStatus();
    if (pos_ + n > size_) {
      return absl::DataLossError(
          absl::StrCat(path_, ": a run ends inside a record at byte ", pos_));
    }
    buffer_.erase(0, pos_ - start_);
    start_ = pos_;
    const size_t want = std::max(block_, n - buffer_.size());
    std::string more;
    if (absl::Status s = file_->Read(start_ + buffer_.size(), want, &more);
        !s.ok()) {
      return s;
    }
    buffer_ += more;
    if (buffer_.size() < n) {
      return absl::DataLossError(absl::StrCat(path_, ": a short read"));
    }
    return absl::OkStatus();
  }

  std::unique_ptr<durable::File> file_;
  const std::string path_;
  const uint64_t size_;
  const size_t block_;
  std::string buffer_;  // run bytes from start_
  uint64_t start_ = 0;
  uint64_t pos_ = 0;  // the next byte to parse
  SortRecord record_;
};

absl::StatusOr<std::unique_ptr<ExternalSorter>> ExternalSorter::Create(
    ExternalSortOptions options) {
  if (options.memory_bytes < 1 || options.max_fan_in < 2 ||
      options.dir.empty()) {
    return absl::InvalidArgumentError(
        "external sort: needs a directory, a memory budget of at least 1 "
        "byte and a fan-in of at least 2");
  }
  return std::unique_ptr<ExternalSorter>(
      new ExternalSorter(std::move(options)));
}

ExternalSorter::ExternalSorter(ExternalSortOptions options)
    : options_(std::move(options)),
      env_(options_.env != nullptr ? options_.env : durable::DefaultEnv()) {}

ExternalSorter::~ExternalSorter() {
  readers_.clear();  // closes the runs before they are removed
  for (const std::string& path : paths_) env_->Remove(path).IgnoreError();
}

uint64_t ExternalSorter::MemoryInUse() const {
  return arena_.capacity() + entries_.capacity() * kEntryBytes;
}

size_t ExternalSorter::BlockBytes() const {
  const uint64_t share =
      options_.memory_bytes / (static_cast<uint64_t>(options_.max_fan_in) + 1);
  return static_cast<size_t>(
      std::clamp<uint64_t>(share, uint64_t{4} << 10, uint64_t{1} << 20));
}

absl::StatusOr<std::unique_ptr<durable::File>> ExternalSorter::CreateRunFile(
    std::string* path) {
  *path = absl::StrCat(options_.dir, "/", options_.prefix, next_run_++);
  paths_.push_back(*path);  // removed with the sorter, whatever happens next
  return env_->Open(*path, /*create=*/true);
}

absl::Status ExternalSorter::Add(uint64_t hashkey, std::string_view key,
                                 std::string_view value, bool tombstone) {
  if (finished_) {
    return absl::FailedPreconditionError("external sort: Add after Finish");
  }
  if (failed_) {
    return absl::FailedPreconditionError("external sort: an earlier failure");
  }
  if (key.size() > kMaxKeyBytes || value.size() > kMaxValueBytes) {
    return absl::InvalidArgumentError("external sort: a record too large");
  }
  absl::Status s;
  try {
    s = Hold(hashkey, key, value, tombstone);
  } catch (const std::bad_alloc&) {
    s = absl::ResourceExhaustedError("external sort: out of memory");
  }
  if (!s.ok()) {
    failed_ = true;
    return s;
  }
  ++records_;
  return absl::OkStatus();
}

absl::Status ExternalSorter::Hold(uint64_t hashkey, std::string_view key,
                                  std::string_view value, bool tombstone) {
  static_assert(sizeof(Entry) == kEntryBytes);
  const uint64_t budget = options_.memory_bytes;
  const uint64_t bytes = key.size() + value.size();
  // The least the arena and the entries must grow to for this record.
  uint64_t arena_min, entries_min;
  auto least = [&] {
    arena_min = std::max<uint64_t>(arena_.capacity(), arena_.size() + bytes);
    entries_min = std::max<uint64_t>(entries_.capacity(), entries_.size() + 1);
  };
  // The most memory held while the buffers grow to these capacities. A
  // vector grows by copying into a new buffer while the old one is still
  // held, so both count (an empty one is released before it grows); the
  // arena grows first.
  auto peak = [&](uint64_t arena, uint64_t entries) {
    const uint64_t entries_held = entries_.capacity() * kEntryBytes;
    uint64_t p = arena + entries * kEntryBytes;
    if (arena > arena_.capacity() && !arena_.empty()) {
      p = std::max(p, arena_.capacity() + arena + entries_held);
    }
    if (entries > entries_.capacity() && !entries_.empty()) {
      p = std::max(p, arena + entries_held + entries * kEntryBytes);
    }
    return p;
  };
  least();
  const bool grow =
      arena_min > arena_.capacity() || entries_min > entries_.capacity();
  const uint64_t held = MemoryInUse();
  if (grow && !sized_ && runs_.empty() && !entries_.empty() &&
      held < budget / 2 && held * 64 >= budget) {
    // Past a 64th of the budget, both buffers grow once, straight to the
    // budget less the old copies, split as the records held so far are:
    // growing on by doubling would leave the first run a third short.
    const uint64_t arena_used = arena_.size();
    const uint64_t entries_used = entries_.size() * kEntryBytes;
    const uint64_t free = budget - held;
    const uint64_t arena_to = std::max<uint64_t>(
        arena_min,
        static_cast<uint64_t>(static_cast<long double>(free) * arena_used /
                              (arena_used + entries_used)));
    const uint64_t entries_to = std::max<uint64_t>(
        entries_min, (free - std::min(free, arena_to)) / kEntryBytes);
    if (held + arena_to + entries_to * kEntryBytes <= budget) {
      sized_ = true;
      peak_memory_ =
          std::max(peak_memory_, held + arena_to + entries_to * kEntryBytes);
      arena_.reserve(arena_to);
      entries_.reserve(entries_to);
      least();
    }
  }
  if (peak(arena_min, entries_min) > budget && !entries_.empty()) {
    if (absl::Status s = SpillHeld(); !s.ok()) return s;
    least();
  }
  // Grow geometrically while the budget allows (a record bigger than the
  // budget gets exactly its own room). Every byte added to a capacity adds
  // at most a byte to the peak, so the slack bounds the two additions.
  const uint64_t need = peak(arena_min, entries_min);
  uint64_t slack = need < budget ? budget - need : 0;
  uint64_t arena_to = arena_.capacity();
  uint64_t entries_to = entries_.capacity();
  if (arena_.size() + bytes > arena_.capacity()) {
    const uint64_t extra = std::min<uint64_t>(
        std::max<uint64_t>(arena_.capacity(), 4096),
        entries_.size() == entries_.capacity() ? slack / 2 : slack);
    arena_to = arena_min + extra;
    slack -= extra;
  }
  if (entries_.size() == entries_.capacity()) {
    const uint64_t extra = std::min<uint64_t>(
        std::max<uint64_t>(entries_.capacity(), 64), slack / kEntryBytes);
    entries_to = entries_min + extra;
  }
  peak_memory_ = std::max(peak_memory_, peak(arena_to, entries_to));
  if (arena_to > arena_.capacity()) {
    if (arena_.empty()) std::vector<char>().swap(arena_);
    arena_.reserve(arena_to);
  }
  if (entries_to > entries_.capacity()) {
    if (entries_.empty()) std::vector<Entry>().swap(entries_);
    entries_.reserve(entries_to);
  }
  entries_.push_back(
      Entry{hashkey, arena_.size(),
            static_cast<uint32_t>(key.size()) | (tombstone ? kTombstoneBit : 0),
            static_cast<uint32_t>(value.size())});
  arena_.insert(arena_.end(), key.begin(), key.end());
  arena_.insert(arena_.end(), value.begin(), value.end());
  return absl::OkStatus();
}

void ExternalSorter::SortHeld() {
  const std::vector<char>& arena = arena_;
  std::sort(entries_.begin(), entries_.end(),
            [&arena](const Entry& a, const Entry& b) {
              if (a.hashkey != b.hashkey) return a.hashkey < b.hashkey;
              const std::string_view ka(arena.data() + a.offset,
                                        a.key_bits & ~kTombstoneBit);
              const std::string_view kb(arena.data() + b.offset,
                                        b.key_bits & ~kTombstoneBit);
              if (ka != kb) return ka < kb;
              return a.offset < b.offset;  // the order added
            });
}

absl::Status ExternalSorter::SpillHeld() {
  const bool first_run = runs_.empty();
  const uint64_t arena_used = arena_.size();
  const uint64_t entries_used = entries_.size() * kEntryBytes;
  SortHeld();
  std::string path;
  absl::StatusOr<std::unique_ptr<durable::File>> file = CreateRunFile(&path);
  if (!file.ok()) return file.status();
  RunWriter writer(*std::move(file), BlockBytes());
  for (const Entry& e : entries_) {
    const size_t key_len = e.key_bits & ~kTombstoneBit;
    const char* p = arena_.data() + e.offset;
    absl::Status s = writer.Add(e.hashkey, std::string_view(p, key_len),
                                std::string_view(p + key_len, e.value_len),
                                (e.key_bits & kTombstoneBit) != 0);
    if (!s.ok()) return s;
  }
  absl::StatusOr<uint64_t> size = writer.Finish();
  if (!size.ok()) return size.status();
  runs_.push_back(Run{path, *size});
  ++runs_written_;
  bytes_written_ += *size;
  entries_.clear();
  arena_.clear();
  if (MemoryInUse() > options_.memory_bytes) {
    // An oversized record's room is not kept.
    std::vector<char>().swap(arena_);
    std::vector<Entry>().swap(entries_);
  } else if (first_run && arena_used + entries_used > 0) {
    // The first run's buffers grew in steps, each copy counted against the
    // budget, so they end below it. Empty now, they are made again at
    // the whole budget, split as the first run's records were: the runs
    // after it hold as much as the budget allows, with no copy.
    const uint64_t budget = options_.memory_bytes;
    const uint64_t arena_to =
        static_cast<uint64_t>(static_cast<long double>(budget) * arena_used /
                              (arena_used + entries_used));
    std::vector<char>().swap(arena_);
    std::vector<Entry>().swap(entries_);
    arena_.reserve(arena_to);
    entries_.reserve((budget - arena_to) / kEntryBytes);
    peak_memory_ = std::max(peak_memory_, MemoryInUse());
  }
  return absl::OkStatus();
}

absl::Status ExternalSorter::OpenReaders(
    size_t first, size_t count,
    std::vector<std::unique_ptr<RunReader>>* readers) {
  readers->clear();
  for (size_t i = first; i < first + count; ++i) {
    absl::StatusOr<std::unique_ptr<durable::File>> file =
        env_->Open(runs_[i].path, /*create=*/false);
    if (!file.ok()) return file.status();
    readers->push_back(std::make_unique<RunReader>(
        *std::move(file), runs_[i].path, runs_[i].bytes, BlockBytes()));
  }
  return absl::OkStatus();
}

bool ExternalSorter::After(
    const std::vector<std::unique_ptr<RunReader>>& readers, size_t a,
    size_t b) {
  const SortRecord& ra = readers[a]->record();
  const SortRecord& rb = readers[b]->record();
  if (RecordLess(rb, ra)) return true;
  if (RecordLess(ra, rb)) return false;
  return a > b;  // the older run's record first among equals
}

absl::Status ExternalSorter::MergeRuns(size_t first, size_t count) {
  std::vector<std::unique_ptr<RunReader>> readers;
  if (absl::Status s = OpenReaders(first, count, &readers); !s.ok()) return s;
  auto greater = [&readers](size_t a, size_t b) {
    return After(readers, a, b);
  };
  std::vector<size_t> heap;
  for (size_t i = 0; i < readers.size(); ++i) {
    absl::StatusOr<bool> more = readers[i]->Advance();
    if (!more.ok()) return more.status();
    if (*more) heap.push_back(i);
  }
  std::make_heap(heap.begin(), heap.end(), greater);
  std::string path;
  absl::StatusOr<std::unique_ptr<durable::File>> file = CreateRunFile(&path);
  if (!file.ok()) return file.status();
  RunWriter writer(*std::move(file), BlockBytes());
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), greater);
    const size_t i = heap.back();
    const SortRecord& r = readers[i]->record();
    if (absl::Status s = writer.Add(r.hashkey, r.key, r.value, r.tombstone);
        !s.ok()) {
      return s;
    }
    absl::StatusOr<bool> more = readers[i]->Advance();
    if (!more.ok()) return more.status();
    if (*more) {
      std::push_heap(heap.begin(), heap.end(), greater);
    } else {
      heap.pop_back();
    }
  }
  absl::StatusOr<uint64_t> size = writer.Finish();
  if (!size.ok()) return size.status();
  readers.clear();
  // The inputs are not needed any more: free their disk space now.
  for (size_t i = first; i < first + count; ++i) {
    env_->Remove(runs_[i].path).IgnoreError();
  }
  runs_.erase(runs_.begin() + first, runs_.begin() + first + count);
  runs_.insert(runs_.begin() + first, Run{path, *size});
  ++runs_written_;
  bytes_written_ += *size;
  return absl::OkStatus();
}

absl::Status ExternalSorter::Finish() {
  if (finished_ || failed_) {
    return absl::FailedPreconditionError(
        "external sort: Finish twice or after a failure");
  }
  absl::Status s;
  try {
    if (runs_.empty()) {
      SortHeld();
    } else {
      if (!entries_.empty()) s = SpillHeld();
      std::vector<char>().swap(arena_);
      std::vector<Entry>().swap(entries_);
      const size_t fan_in = static_cast<size_t>(options_.max_fan_in);
      // Merge passes: the oldest runs first, so that equal records keep
      // the order they were added in.
      while (s.ok() && runs_.size() > fan_in) s = MergeRuns(0, fan_in);
      if (s.ok()) s = OpenReaders(0, runs_.size(), &readers_);
      for (size_t i = 0; s.ok() && i < readers_.size(); ++i) {
        absl::StatusOr<bool> more = readers_[i]->Advance();
        if (!more.ok()) {
          s = more.status();
        } else if (*more) {
          heap_.push_back(i);
        }
      }
    }
  } catch (const std::bad_alloc&) {
    s = absl::ResourceExhaustedError("external sort: out of memory");
  }
  if (!s.ok()) {
    failed_ = true;
    return s;
  }
  finished_ = true;
  std::make_heap(heap_.begin(), heap_.end(),
                 [this](size_t a, size_t b) { return After(readers_, a, b); });
  return absl::OkStatus();
}

absl::StatusOr<bool> ExternalSorter::Next(SortRecord* out) {
  if (!finished_) {
    return absl::FailedPreconditionError(
        "external sort: Next before Finish or after a failure");
  }
  if (readers_.empty()) {  // an in-memory sort
    if (next_held_ >= entries_.size()) return false;
    const Entry& e = entries_[next_held_++];
    const size_t key_len = e.key_bits & ~kTombstoneBit;
    const char* p = arena_.data() + e.offset;
    out->hashkey = e.hashkey;
    out->key.assign(p, key_len);
    out->value.assign(p + key_len, e.value_len);
    out->tombstone = (e.key_bits & kTombstoneBit) != 0;
    return true;
  }
  if (heap_.empty()) return false;
  auto greater = [this](size_t a, size_t b) { return After(readers_, a, b); };
  std::pop_heap(heap_.begin(), heap_.end(), greater);
  const size_t i = heap_.back();
  *out = readers_[i]->record();
  absl::StatusOr<bool> more = readers_[i]->Advance();
  if (!more.ok()) {
    finished_ = false;  // unusable from here on
    failed_ = true;
    return more.status();
  }
  if (*more) {
    std::push_heap(heap_.begin(), heap_.end(), greater);
  } else {
    heap_.pop_back();
  }
  return true;
}

absl::StatusOr<std::vector<std::string>> RemoveSortLeftovers(
    durable::Env* env, const std::string& dir, const std::string& prefix) {
  absl::StatusOr<std::vector<std::string>> names = env->List(dir);
  if (!names.ok()) return names.status();
  std::vector<std::string> removed;
  for (const std::string& n : *names) {
    if (!absl::StartsWith(n, prefix)) continue;
    if (absl::Status s = env->Remove(dir + "/" + n); !s.ok()) return s;
    removed.push_back(n);
  }
  return removed;
}

}  // namespace kvlab::ect
