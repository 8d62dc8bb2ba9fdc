#include "kvlab/ect/ect_store.h"

#include <algorithm>
#include <filesystem>
#include <new>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "kvlab/ect/data_file.h"
#include "kvlab/ect/external_sort.h"
#include "kvlab/ect/hash_key.h"
#include "kvlab/ect/slot_format.h"

namespace kvlab::ect {
namespace {

std::string DataName(uint64_t generation) {
  return absl::StrCat("data-", generation);
}
std::string PutsName(uint64_t generation) {
  return absl::StrCat("puts-", generation % 2);
}
std::string TombsName(uint64_t generation) {
  return absl::StrCat("tombs-", generation % 2);
}

constexpr char kSortPrefix[] = "sort-";

// The buffer's Remove when running out of memory may throw rather than
// return a status; either way the key stays where it was.
absl::StatusOr<bool> RemoveOrFail(DurableStore& store, std::string_view key) {
  try {
    return store.Remove(key);
  } catch (const std::bad_alloc&) {
    return absl::Status(absl::StatusCode::kResourceExhausted, "");
  }
}

// The external sort's output, one record per (hashkey, key): of the records
// of one key, the last added (the newest write).
class NewestWrites {
 public:
  explicit NewestWrites(ExternalSorter* sorter) : sorter_(sorter) {}

  // Moves to the next key's newest write; false after the last.
  absl::StatusOr<bool> Advance() {
    if (!has_peek_) {
      absl::StatusOr<bool> more = sorter_->Next(&peek_);
      if (!more.ok()) return more.status();
      if (!*more) return has_current_ = false;
    }
    current_ = std::move(peek_);
    has_peek_ = false;
    for (;;) {
      absl::StatusOr<bool> more = sorter_->Next(&peek_);
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (peek_.hashkey != current_.hashkey || peek_.key != current_.key) {
        has_peek_ = true;
        break;
      }
      current_ = std::move(peek_);
    }
    return has_current_ = true;
  }

  bool has_current() const { return has_current_; }
  const SortRecord& current() const { return current_; }
  // Whether the current write sorts before (hashkey, key).
  bool Before(uint64_t hashkey, std::string_view key) const {
    return has_current_ && (current_.hashkey < hashkey ||
                            (current_.hashkey == hashkey &&
                             std::string_view(current_.key) < key));
  }
  bool Is(uint64_t hashkey, std::string_view key) const {
    return has_current_ && current_.hashkey == hashkey && current_.key == key;
  }

 private:
  ExternalSorter* const sorter_;
  SortRecord current_, peek_;
  bool has_current_ = false;
  bool has_peek_ = false;
};

}  // namespace

EctStore::EctStore(const EctOptions& options, BufferFactory make_buffer)
    : options_(options),
      env_(options.env != nullptr ? options.env : durable::DefaultEnv()),
      make_buffer_(std::move(make_buffer)),
      out_of_memory_merging_(
          absl::ResourceExhaustedError("ect: out of memory merging")),
      out_of_memory_loading_(
          absl::ResourceExhaustedError("ect: out of memory loading")) {}

EctStore::~EctStore() {
  if (!options_.remove_dir_on_close) return;
  // Close every file before removing the directory they are in.
  puts_.reset();
  tombs_.reset();
  data_.reset();
  lock_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(options_.dir, ignored);
}

std::string EctStore::Path(const std::string& name) const {
  return options_.dir + "/" + name;
}

absl::StatusOr<std::unique_ptr<EctStore>> EctStore::Open(
    const EctOptions& options, BufferFactory make_buffer) {
  if (options.dir.empty()) {
    return absl::InvalidArgumentError("ect: no directory given (dir=...)");
  }
  if (options.bucket_size < 1 || options.merge_pairs < 1 ||
      options.sort_memory_bytes < 1) {
    return absl::InvalidArgumentError(
        "ect: bucket_size, merge_pairs and sort_memory_bytes must be at "
        "least 1");
  }
  absl::StatusOr<HuffmanTables> tables = HuffmanTables::Build(options.hmax);
  if (!tables.ok()) return tables.status();
  std::unique_ptr<EctStore> store(
      new EctStore(options, std::move(make_buffer)));
  store->tables_ = std::make_shared<const HuffmanTables>(*std::move(tables));
  if (absl::Status s = store->env_->CreateDir(options.dir); !s.ok()) return s;
  if (store->env_ == durable::DefaultEnv()) {
    // An in-memory test file system has no real directory to lock.
    absl::StatusOr<std::unique_ptr<durable::DirectoryLock>> lock =
        durable::DirectoryLock::Acquire(options.dir);
    if (!lock.ok()) return lock.status();
    store->lock_ = *std::move(lock);
  }
  if (absl::Status s = store->Recover(); !s.ok()) return s;
  return store;
}

absl::StatusOr<std::unique_ptr<DurableStore>> EctStore::OpenBuffer(
    const std::string& name) {
  absl::StatusOr<std::unique_ptr<KVStore>> inner = make_buffer_();
  if (!inner.ok()) return inner.status();
  DurabilityOptions d;
  d.sync = options_.sync;
  d.env = env_;
  // Each merge opens two fresh logs, whose files are written full of zeros
  // up front: size them to the buffer (about 128 bytes an entry over two
  // files), from 64 KiB to 32 MiB, in the 32 KiB units the ring needs. A
  // buffer whose log outgrows the ring is checkpointed whole each time the
  // ring wraps, which makes merge_pairs in the millions slow to fill.
  const uint64_t want = std::clamp<uint64_t>(
      options_.merge_pairs * 64, uint64_t{64} << 10, uint64_t{32} << 20);
  d.log_files = 3;
  d.log_file_bytes = (want + (uint64_t{32} << 10) - 1) / (uint64_t{32} << 10) *
                     (uint64_t{32} << 10);
  d.checkpoint_bytes = d.log_file_bytes;
  return DurableStore::Open(*std::move(inner), Path(name), d);
}

absl::Status EctStore::ClearDir(const std::string& name) {
  absl::StatusOr<std::vector<std::string>> names = env_->List(Path(name));
  if (!names.ok()) {
    return absl::IsNotFound(names.status()) ? absl::OkStatus() : names.status();
  }
  for (const std::string& n : *names) {
    if (absl::Status s = env_->Remove(Path(name) + "/" + n); !s.ok()) return s;
  }
  return env_->SyncDir(Path(name));
}

absl::Status EctStore::Recover() {
  std::unique_lock lock(mutex_);
  // CURRENT names the generation; none means a new store.
  generation_ = 0;
  absl::StatusOr<std::unique_ptr<durable::File>> current =
      env_->Open(Path("CURRENT"), /*create=*/false);
  if (current.ok()) {
    std::string text;
    if (absl::Status s = (*current)->Read(0, 64, &text); !s.ok()) return s;
    if (!absl::SimpleAtoi(absl::StripSuffix(text, "\n"), &generation_)) {
      return absl::DataLossError(
          absl::StrCat(Path("CURRENT"), " is damaged: \"", text, "\""));
    }
  } else if (!absl::IsNotFound(current.status())) {
    return current.status();
  }

  // Leftovers of a merge that a crash interrupted, or of one that finished
  // without removing them: other generations' files, the other buffer.
  std::vector<std::string> removed;
  absl::StatusOr<std::vector<std::string>> names = env_->List(options_.dir);
  if (!names.ok()) return names.status();
  for (const std::string& n : *names) {
    if ((absl::StartsWith(n, "data-") && n != DataName(generation_)) ||
        n == "CURRENT.tmp") {
      if (absl::Status s = env_->Remove(Path(n)); !s.ok()) return s;
      removed.push_back(n);
    }
  }
  // Runs of a sort that a crash interrupted.
  absl::StatusOr<std::vector<std::string>> runs =
      RemoveSortLeftovers(env_, options_.dir, kSortPrefix);
  if (!runs.ok()) return runs.status();
  removed.insert(removed.end(), runs->begin(), runs->end());
  // In name order, whatever order the directory lists them in.
  std::sort(removed.begin(), removed.end());
  if (absl::Status s = ClearDir(PutsName(generation_ + 1)); !s.ok()) return s;
  if (absl::Status s = ClearDir(TombsName(generation_ + 1)); !s.ok()) return s;

  std::string what = absl::StrCat("generation ", generation_, ": ");
  if (generation_ > 0) {
    absl::StatusOr<EctIndex> index =
        RebuildIndex(env_, Path(DataName(generation_)), tables_);
    if (!index.ok()) return index.status();
    index_ = std::make_unique<EctIndex>(*std::move(index));
    absl::StatusOr<std::unique_ptr<durable::File>> data =
        env_->Open(Path(DataName(generation_)), /*create=*/false);
    if (!data.ok()) return data.status();
    data_ = *std::move(data);
    absl::StatusOr<std::unique_ptr<DataFileScanner>> scanner =
        DataFileScanner::Open(env_, Path(DataName(generation_)));
    if (!scanner.ok()) return scanner.status();
    file_pairs_ = (*scanner)->header().pairs;
    absl::StrAppend(&what, DataName(generation_), " with ", file_pairs_,
                    " pairs, index rebuilt (", index_->buckets(), " buckets, ",
                    index_->MemoryBytes(), " bytes)");
  } else {
    absl::StrAppend(&what, "no data file yet");
  }

  absl::StatusOr<std::unique_ptr<DurableStore>> puts =
      OpenBuffer(PutsName(generation_));
  if (!puts.ok()) return puts.status();
  puts_ = *std::move(puts);
  absl::StatusOr<std::unique_ptr<DurableStore>> tombs =
      OpenBuffer(TombsName(generation_));
  if (!tombs.ok()) return tombs.status();
  tombs_ = *std::move(tombs);

  // A crash between a buffer's two writes can leave a key both put and
  // tombstoned (the put wins), or a tombstone the merged file no longer
  // needs; and Size needs to know which puts are new keys.
  std::vector<std::string> drop;
  tombs_->inner().Scan("", [&](std::string_view key, std::string_view) {
    drop.emplace_back(key);
    return true;
  });
  uint64_t tombstones_dropped = 0;
  for (const std::string& key : drop) {
    bool keep = !puts_->Get(key, nullptr);
    if (keep) {
      absl::StatusOr<bool> in_file = FileGet(key, nullptr, false);
      if (!in_file.ok()) return in_file.status();
      keep = *in_file;
    }
    if (keep) continue;
    absl::StatusOr<bool> r = tombs_->Remove(key);
    if (!r.ok()) return r.status();
    ++tombstones_dropped;
  }
  std::vector<std::string> put_keys;
  puts_->inner().Scan("", [&](std::string_view key, std::string_view) {
    put_keys.emplace_back(key);
    return true;
  });
  for (const std::string& key : put_keys) {
    absl::StatusOr<bool> in_file = FileGet(key, nullptr, false);
    if (!in_file.ok()) return in_file.status();
    if (!*in_file) ++new_keys_;
  }
  absl::StrAppend(&what, "; buffer: ", puts_->Size(), " puts (",
                  puts_->recovery().ToString(), "), ", tombs_->Size(),
                  " tombstones (", tombs_->recovery().ToString(), ")");
  if (tombstones_dropped > 0) {
    absl::StrAppend(&what, "; ", tombstones_dropped,
                    " tombstones already merged or overridden dropped");
  }
  if (!removed.empty()) {
    absl::StrAppend(&what, "; removed ", absl::StrJoin(removed, ", "));
  }
  recovery_ = std::move(what);
  merge_at_ = options_.merge_pairs;
  return absl::OkStatus();
}

absl::StatusOr<bool> EctStore::FileGet(std::string_view key, std::string* value,
                                       bool from_get) const {
  if (index_ == nullptr) return false;
  absl::StatusOr<SlotLocation> loc = index_->Find(HashKey64(key));
  if (!loc.ok()) return loc.status();
  if (loc->keys == 0) return false;
  std::string slot;
  {
    std::lock_guard file_lock(file_mutex_);
    absl::Status s = data_->Read(loc->offset, loc->slot_bytes, &slot);
    if (!s.ok()) return s;
  }
  file_reads_.fetch_add(1, std::memory_order_relaxed);
  if (from_get) get_reads_.fetch_add(1, std::memory_order_relaxed);
  if (slot.size() != loc->slot_bytes) {
    return absl::DataLossError(
        absl::StrCat("ect: short read of slot at byte ", loc->offset));
  }
  return FindInSlot(slot, key, value);
}

bool EctStore::GetImpl(std::string_view key, std::string* value) const {
  gets_.fetch_add(1, std::memory_order_relaxed);
  std::shared_lock lock(mutex_);
  if (puts_->Get(key, value)) return true;
  if (tombs_->Get(key, nullptr)) return false;
  absl::StatusOr<bool> found = FileGet(key, value, true);
  // A damaged file or a failed read: the key cannot be produced.
  return found.ok() && *found;
}

bool EctStore::PutImpl(std::string_view key, std::string_view value) {
  std::unique_lock lock(mutex_);
  const bool in_puts = puts_->Get(key, nullptr);
  const bool in_tomb = !in_puts && tombs_->Get(key, nullptr);
  bool in_file = false;
  if (!in_puts && !in_tomb) {
    absl::StatusOr<bool> f = FileGet(key, nullptr, false);
    if (!f.ok()) throw WriteError(f.status());
    in_file = *f;
  }
  // The put is logged first: a crash before the tombstone goes leaves both,
  // and the put wins.
  absl::StatusOr<bool> put = puts_->Put(key, value);
  if (!put.ok()) throw WriteError(put.status());
  if (!in_puts && !in_file && !in_tomb) ++new_keys_;
  if (in_tomb) {
    absl::StatusOr<bool> removed = RemoveOrFail(*tombs_, key);
    if (!removed.ok()) ++shadowed_;
  }
  MaybeMergeLocked();
  return in_puts || in_file;
}

absl::StatusOr<bool> EctStore::Remove(std::string_view key) {
  if (key.size() > kMaxKeySize) return false;
  std::unique_lock lock(mutex_);
  const bool in_puts = puts_->Get(key, nullptr);
  const bool in_tomb = tombs_->Get(key, nullptr);
  if (in_tomb && !in_puts) return false;
  bool in_file = false;
  if (!in_tomb) {
    absl::StatusOr<bool> f = FileGet(key, nullptr, false);
    if (!f.ok()) return f.status();
    in_file = *f;
  }
  if (!in_puts && !in_file) return false;
  // The tombstone first: a crash before the put goes leaves both, and the
  // put wins (the delete did not happen).
  if (in_file) {
    absl::StatusOr<bool> t = tombs_->Put(key, "");
    if (!t.ok()) return t.status();
  }
  if (in_puts) {
    absl::StatusOr<bool> r = RemoveOrFail(*puts_, key);
    if (!r.ok()) {
      if (in_file) ++shadowed_;
      return r.status();
    }
    if (!in_file && !in_tomb) --new_keys_;
    if (in_tomb) --shadowed_;
  }
  MaybeMergeLocked();
  return true;
}

bool EctStore::DeleteImpl(std::string_view key) {
  absl::StatusOr<bool> r = Remove(key);
  // Out of memory, the store unchanged: kv_store.h's contract for Delete.
  if (absl::IsResourceExhausted(r.status())) throw std::bad_alloc();
  return r.ok() && *r;
}

uint64_t EctStore::Size() const {
  std::shared_lock lock(mutex_);
  return file_pairs_ + new_keys_ + shadowed_ - tombs_->Size();
}

void EctStore::MaybeMergeLocked() {
  const uint64_t entries = puts_->Size() + tombs_->Size();
  if (entries < merge_at_) return;
  // The write that started the merge is already durable and applied, so a
  // failed merge, out of memory included, is reported, not thrown.
  try {
    last_merge_ = MergeLocked(nullptr);
  } catch (const std::bad_alloc&) {
    last_merge_ = out_of_memory_merging_;
  }
  // After a failure, wait for as many new entries again before retrying.
  merge_at_ =
      last_merge_.ok() ? options_.merge_pairs : entries + options_.merge_pairs;
}

absl::Status EctStore::Merge() {
  std::unique_lock lock(mutex_);
  try {
    last_merge_ = MergeLocked(nullptr);
  } catch (const std::bad_alloc&) {
    last_merge_ = out_of_memory_merging_;
  }
  return last_merge_;
}

absl::Status EctStore::Load(PairSource next) {
  std::unique_lock lock(mutex_);
  try {
    return MergeLocked(&next);
  } catch (const std::bad_alloc&) {
    return out_of_memory_loading_;
  }
}

absl::Status EctStore::last_merge_status() const {
  std::shared_lock lock(mutex_);
  return last_merge_;
}

absl::Status EctStore::MergeLocked(PairSource* load) {
  // The buffer and the pairs loaded, sorted by hashkey by the external
  // sort; a key both put and tombstoned is a put.
  ExternalSortOptions sort_options;
  sort_options.env = env_;
  sort_options.dir = options_.dir;
  sort_options.prefix = kSortPrefix;
  sort_options.memory_bytes = options_.sort_memory_bytes;
  absl::StatusOr<std::unique_ptr<ExternalSorter>> sorter =
      ExternalSorter::Create(sort_options);
  if (!sorter.ok()) return sorter.status();
  absl::Status added;
  puts_->inner().Scan("", [&](std::string_view k, std::string_view v) {
    added = (*sorter)->Add(HashKey64(k), k, v);
    return added.ok();
  });
  if (!added.ok()) return added;
  tombs_->inner().Scan("", [&](std::string_view k, std::string_view) {
    if (!puts_->inner().Get(k, nullptr)) {
      added = (*sorter)->Add(HashKey64(k), k, "", /*tombstone=*/true);
    }
    return added.ok();
  });
  if (!added.ok()) return added;
  uint64_t loaded = 0;
  if (load != nullptr) {
    std::string key, value;
    while ((*load)(&key, &value)) {
      if (key.size() > kMaxKeySize || value.size() > kMaxValueSize) {
        return absl::InvalidArgumentError(absl::StrCat(
            "ect: pair ", loaded, " of the load has a ", key.size(),
            "-byte key and a ", value.size(), "-byte value; the limits are ",
            kMaxKeySize, " and ", kMaxValueSize));
      }
      if (absl::Status s = (*sorter)->Add(HashKey64(key), key, value);
          !s.ok()) {
        return s;
      }
      ++loaded;
    }
  }
  if (absl::Status s = (*sorter)->Finish(); !s.ok()) return s;
  NewestWrites writes(sorter->get());
  if (absl::StatusOr<bool> first = writes.Advance(); !first.ok()) {
    return first.status();
  }

  const uint64_t next = generation_ + 1;
  const std::string data_path = Path(DataName(next));
  // At most this many pairs (loaded keys may repeat or be in the file).
  const uint64_t expected = file_pairs_ + new_keys_ + loaded;
  // A file of this name is the leftover of a merge that failed by an
  // exception; Open does not truncate, so it goes first.
  env_->Remove(data_path).IgnoreError();
  absl::StatusOr<std::unique_ptr<DataFileWriter>> writer =
      DataFileWriter::Create(env_, data_path,
                             BucketBitsFor(expected, options_.bucket_size),
                             tables_);
  if (!writer.ok()) return writer.status();
  auto fail = [&](absl::Status s) {
    writer->reset();
    env_->Remove(data_path).IgnoreError();  // the old generation stays
    return s;
  };

  // One sequential pass over the old file, the new writes merged in.
  std::unique_ptr<DataFileScanner> scanner;
  if (generation_ > 0) {
    absl::StatusOr<std::unique_ptr<DataFileScanner>> s =
        DataFileScanner::Open(env_, Path(DataName(generation_)));
    if (!s.ok()) return fail(s.status());
    scanner = *std::move(s);
  }
  // Writes the current write (unless a tombstone) and moves past it.
  auto emit_write = [&]() -> absl::Status {
    const SortRecord& w = writes.current();
    if (!w.tombstone) {
      if (absl::Status s = (*writer)->Add(w.hashkey, w.key, w.value); !s.ok()) {
        return s;
      }
    }
    absl::StatusOr<bool> more = writes.Advance();
    return more.ok() ? absl::OkStatus() : more.status();
  };
  ScannedBucket bucket;
  while (scanner != nullptr) {
    absl::StatusOr<bool> more = scanner->NextBucket(&bucket);
    if (!more.ok()) return fail(more.status());
    if (!*more) break;
    for (size_t i = 0; i < bucket.slots.size(); ++i) {
      const uint64_t h = bucket.hashkeys[i];
      for (const Pair& p : bucket.slots[i]) {
        while (writes.Before(h, p.first)) {
          if (absl::Status s = emit_write(); !s.ok()) return fail(s);
        }
        if (writes.Is(h, p.first)) {
          // The newer write replaces the file's pair.
          if (absl::Status s = emit_write(); !s.ok()) return fail(s);
          continue;
        }
        if (absl::Status s = (*writer)->Add(h, p.first, p.second); !s.ok()) {
          return fail(s);
        }
      }
    }
  }
  while (writes.has_current()) {  // the writes after the file's pairs
    if (absl::Status s = emit_write(); !s.ok()) return fail(s);
  }
  absl::StatusOr<EctIndex> index = (*writer)->Finish();
  if (!index.ok()) return fail(index.status());
  const uint64_t pairs = (*writer)->pairs();
  writer->reset();
  if (absl::Status s = env_->SyncDir(options_.dir); !s.ok()) return fail(s);
  absl::StatusOr<std::unique_ptr<durable::File>> data =
      env_->Open(data_path, /*create=*/false);
  if (!data.ok()) return fail(data.status());

  // The next generation's buffer: its directories emptied (they held the
  // generation before this one's, merged long ago) and opened.
  if (absl::Status s = ClearDir(PutsName(next)); !s.ok()) return fail(s);
  if (absl::Status s = ClearDir(TombsName(next)); !s.ok()) return fail(s);
  absl::StatusOr<std::unique_ptr<DurableStore>> puts =
      OpenBuffer(PutsName(next));
  if (!puts.ok()) return fail(puts.status());
  absl::StatusOr<std::unique_ptr<DurableStore>> tombs =
      OpenBuffer(TombsName(next));
  if (!tombs.ok()) return fail(tombs.status());

  // Everything the switch below installs is allocated before it: past
  // CURRENT's rename nothing may fail by running out of memory, or the
  // directory would name a generation the store does not serve.
  auto new_index = std::make_unique<EctIndex>(*std::move(index));

  // The switch: CURRENT replaced by rename once the new file is durable.
  {
    absl::StatusOr<std::unique_ptr<durable::File>> tmp =
        env_->Open(Path("CURRENT.tmp"), /*create=*/true);
    if (!tmp.ok()) return fail(tmp.status());
    absl::Status s = (*tmp)->Write(0, absl::StrCat(next, "\n"));
    if (s.ok()) s = (*tmp)->Sync();
    tmp->reset();
    if (s.ok()) s = env_->Rename(Path("CURRENT.tmp"), Path("CURRENT"));
    if (!s.ok()) {
      env_->Remove(Path("CURRENT.tmp")).IgnoreError();
      return fail(s);
    }
  }
  // Past the rename the directory names the new generation, so it is used
  // even if the directory's sync fails; the old one's files are then kept
  // (a crash could still bring back the old CURRENT) until the next open.
  absl::Status dir_synced;
  try {
    dir_synced = env_->SyncDir(options_.dir);
  } catch (const std::bad_alloc&) {
    dir_synced = out_of_memory_merging_;
  }

  const uint64_t old = generation_;
  generation_ = next;
  index_ = std::move(new_index);
  {
    std::lock_guard file_lock(file_mutex_);
    data_ = *std::move(data);
  }
  file_pairs_ = pairs;
  puts_ = *std::move(puts);
  tombs_ = *std::move(tombs);
  new_keys_ = 0;
  shadowed_ = 0;
  ++merges_;
  sort_runs_ += (*sorter)->runs_written();
  if (!dir_synced.ok()) return dir_synced;
  // The old generation is garbage now; what a failure here leaves (out of
  // memory included: the merge itself succeeded), the next open removes.
  try {
    if (old > 0) env_->Remove(Path(DataName(old))).IgnoreError();
    ClearDir(PutsName(old)).IgnoreError();
    ClearDir(TombsName(old)).IgnoreError();
  } catch (const std::bad_alloc&) {
  }
  return absl::OkStatus();
}

EctStats EctStore::stats() const {
  std::shared_lock lock(mutex_);
  EctStats s;
  s.generation = generation_;
  s.file_pairs = file_pairs_;
  if (index_ != nullptr) {
    s.file_bytes = index_->data_bytes();
    s.index_keys = index_->keys();
    s.index_bytes = index_->MemoryBytes();
    s.tables_bytes = index_->TablesBytes();
    s.trie_bits = index_->TrieBitsOnly();
    s.bucket_bits = index_->bucket_bits();
  }
  s.buffer_puts = puts_->Size();
  s.buffer_tombstones = tombs_->Size();
  s.gets = gets_.load();
  s.file_reads = file_reads_.load();
  s.get_reads = get_reads_.load();
  s.merges = merges_;
  s.sort_runs = sort_runs_;
  return s;
}

std::optional<size_t> EctStore::MemoryUsage() const {
  std::shared_lock lock(mutex_);
  size_t bytes = 0;
  if (index_ != nullptr) bytes += index_->MemoryBytes() + index_->TablesBytes();
  for (const DurableStore* b : {puts_.get(), tombs_.get()}) {
    std::optional<size_t> m = b->MemoryUsage();
    if (m.has_value()) bytes += *m;
  }
  return bytes;
}

absl::Status EctStore::CheckInvariants() const {
  std::shared_lock lock(mutex_);
  absl::Status bad;
  uint64_t shadowed = 0;
  tombs_->inner().Scan("", [&](std::string_view k, std::string_view) {
    if (puts_->inner().Get(k, nullptr)) {
      ++shadowed;
      return true;
    }
    absl::StatusOr<bool> in_file = FileGet(k, nullptr, false);
    if (bad.ok() && !(in_file.ok() && *in_file)) {
      bad = absl::InternalError("ect: a tombstone for a key not in the file");
    }
    return true;
  });
  if (!bad.ok()) return bad;
  if (shadowed != shadowed_) {
    return absl::InternalError(
        absl::StrCat("ect: ", shadowed,
                     " tombstones shadowed by puts, counted ", shadowed_));
  }
  uint64_t new_keys = 0;
  puts_->inner().Scan("", [&](std::string_view k, std::string_view) {
    absl::StatusOr<bool> in_file = FileGet(k, nullptr, false);
    if (in_file.ok() && !*in_file) ++new_keys;
    return true;
  });
  if (new_keys != new_keys_) {
    return absl::InternalError(absl::StrCat(
        "ect: ", new_keys, " buffered new keys, counted ", new_keys_));
  }
  if (generation_ == 0) return absl::OkStatus();
  absl::StatusOr<std::unique_ptr<DataFileScanner>> scanner =
      DataFileScanner::Open(env_, Path(DataName(generation_)));
  if (!scanner.ok()) return scanner.status();
  uint64_t pairs = 0;
  ScannedBucket bucket;
  for (;;) {
    absl::StatusOr<bool> more = (*scanner)->NextBucket(&bucket);
    if (!more.ok()) return more.status();
    if (!*more) break;
    for (size_t i = 0; i < bucket.slots.size(); ++i) {
      absl::StatusOr<SlotLocation> loc = index_->Find(bucket.hashkeys[i]);
      if (!loc.ok()) return loc.status();
      const uint64_t want =
          bucket.offset + kBucketHeaderBytes + i * loc->slot_bytes;
      if (loc->keys != bucket.slots.size() || loc->rank != i ||
          loc->offset != want) {
        return absl::InternalError(absl::StrCat(
            "ect: the index puts slot ", i, " of the bucket at byte ",
            bucket.offset, " at byte ", loc->offset));
      }
      for (const Pair& p : bucket.slots[i]) {
        ++pairs;
        if (HashKey64(p.first) != bucket.hashkeys[i]) {
          return absl::InternalError("ect: a pair in another key's slot");
        }
      }
    }
  }
  if (pairs != file_pairs_) {
    return absl::InternalError(absl::StrCat(
        "ect: the file holds ", pairs, " pairs, its header ", file_pairs_));
  }
  return absl::OkStatus();
}

}  // namespace kvlab::ect
