#include "superbin.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>

#include "absl/strings/str_cat.h"
#include "bitmap.h"

namespace kvlab::stage5 {

Superbin::~Superbin() {
  for (Bin* bin : bin_table_) {
    if (bin == nullptr) continue;
    UnmapSegment(bin->segment, segment_size());
    delete[] bin->slack;
    delete bin;
  }
  for (Metabin* metabin : metabins_) delete metabin;
}

void Superbin::Init(uint32_t id, SegmentCache* cache, FreePagePolicy policy) {
  id_ = id;
  chunk_size_ = ChunkSize(id);
  cache_ = cache;
  policy_ = policy;
  // Free relies on a page being larger than any chunk.
  assert(segment_size() % PageSize() == 0);
  assert(kMaxSmallSize < PageSize());
}

uint64_t Superbin::reserved_chunks() const {
  if (id_ != 0 || metabins_.empty() || metabins_[0] == nullptr) return 0;
  const Bin* bin = BinAt(0, 0);
  return bin == nullptr ? 0 : bin->reserved;
}

namespace {

// The pages of `bin` that hold part of a chunk in use or of its kept chunk,
// each counted once: by the page invariant (superbin.h), the pages of its
// segment that the manager keeps resident.
uint64_t HeldPagesOf(const Bin& bin, size_t chunk_size, size_t page_size) {
  uint64_t pages = 0;
  size_t next_page = 0;  // pages below it are counted already
  for (size_t w = 0; w < Bin::kWords; ++w) {
    uint64_t held = ~bin.free_map[w];
    if (bin.kept_chunk != kNoKeptChunk && bin.kept_chunk / 64 == w) {
      held |= uint64_t{1} << (bin.kept_chunk % 64);
    }
    // Chunks come in ascending order, so their pages do too.
    for (; held != 0; held &= held - 1) {
      const size_t chunk = w * 64 + size_t(std::countr_zero(held));
      const size_t first = std::max(chunk * chunk_size / page_size, next_page);
      const size_t end = ((chunk + 1) * chunk_size - 1) / page_size + 1;
      if (end > first) {
        pages += end - first;
        next_page = end;
      }
    }
  }
  return pages;
}

// The highest chunk of `bin` in use, or kNoBit.
size_t HighestInUse(const Bin& bin) {
  for (size_t w = Bin::kWords; w-- > 0;) {
    const uint64_t used = ~bin.free_map[w];
    if (used != 0) return w * 64 + 63 - size_t(std::countl_zero(used));
  }
  return kNoBit;
}

}  // namespace

uint64_t Superbin::held_pages() const {
  uint64_t pages = UnheldIdlePages();
  for (const Bin* bin : bin_table_) {
    if (bin != nullptr) pages += HeldPagesOf(*bin, chunk_size_, PageSize());
  }
  return pages;
}

bool Superbin::IdlePageCached() const {
  return idle_bin_ == nullptr && idle_segment_ != nullptr &&
         cache_->cached(id_) == idle_segment_;
}

uint64_t Superbin::UnheldIdlePages() const {
  // Outside the kept chunk's pages by the invariant, so a wholly free idle
  // page is counted nowhere else. In a cached segment it is the cache's,
  // as chunk 0's page there is (segment_cache.h), and not counted.
  return idle_bin_ != nullptr && PageWhollyFree(*idle_bin_, idle_page_) ? 1 : 0;
}

bool Superbin::PageWhollyFree(const Bin& bin, size_t page) const {
  const size_t bytes = PageSize();
  return AllSetInRange(bin.free_map, page * bytes / chunk_size_,
                       ((page + 1) * bytes - 1) / chunk_size_);
}

uint64_t Superbin::metadata_bytes() const {
  return metabin_count_ * sizeof(Metabin) + bins_ * sizeof(Bin) + slack_bytes_ +
         metabins_.capacity() * sizeof(Metabin*) +
         segments_.capacity() * sizeof(char*) +
         bin_table_.capacity() * sizeof(Bin*);
}

ChunkLocation Superbin::Allocate() {
  // handout: Superbin::Allocate -> #the-hierarchy
  const uint32_t metabin_id = NotFullMetabin();
  Metabin* metabin = metabins_[metabin_id];
  const size_t bin_id = FindFirstSet(metabin->not_full, Metabin::kWords);
  assert(bin_id != kNoBit);
  Bin* bin = BinAt(metabin_id, uint32_t(bin_id));
  if (bin == nullptr) bin = CreateBin(metabin, metabin_id, uint32_t(bin_id));
  const size_t chunk =
      FindFirstSet(bin->free_map, Bin::kWords, bin->first_free_word);
  assert(chunk != kNoBit);
  // A new bin's first chunk has its slack entry, so a failure here leaves
  // no empty bin behind.
  if (id_ != 0 && chunk >= bin->slack_capacity) GrowSlack(bin, chunk + 1);
  bin->first_free_word = uint16_t(chunk / 64);
  return Take(metabin_id, uint32_t(bin_id), bin, chunk);
  // handout: end
}

ChunkLocation Superbin::Take(uint32_t metabin_id, uint32_t bin_id, Bin* bin,
                             size_t chunk) {
  // handout: Superbin::Take -> #the-hierarchy
  assert(TestBit(bin->free_map, chunk));
  ClearBit(bin->free_map, chunk);
  ++bin->used;
  ++chunks_in_use_;
  if (bin->used == kChunksPerBin) {
    Metabin* metabin = metabins_[metabin_id];
    ClearBit(metabin->not_full, bin_id);
    if (AllClear(metabin->not_full, Metabin::kWords)) ListRemove(metabin_id);
  }
  return ChunkLocation{
      HyperionPointer::Make(id_, metabin_id, bin_id, uint32_t(chunk)),
      bin->segment + chunk * chunk_size_, bin};
  // handout: end
}

void Superbin::Free(HyperionPointer hp) {
  // handout: Superbin::Free -> #returning-free-pages
  Metabin* metabin = metabins_[hp.metabin()];
  Bin* bin = BinAt(hp.metabin(), hp.bin());
  assert(!TestBit(bin->free_map, hp.chunk()));
  SetBit(bin->free_map, hp.chunk());
  const bool bin_was_full = bin->used == kChunksPerBin;
  --bin->used;
  --chunks_in_use_;
  bin->first_free_word =
      std::min<uint16_t>(bin->first_free_word, uint16_t(hp.chunk() / 64));
  if (bin_was_full) {
    const bool metabin_was_full = AllClear(metabin->not_full, Metabin::kWords);
    SetBit(metabin->not_full, hp.bin());
    if (metabin_was_full) ListInsert(hp.metabin());
  }
  // A page is larger than any chunk, so a page with bytes of the freed
  // chunk also has bytes of a neighbour: both in use, and no page came
  // free. That check saves the divisions below on most frees.
  const size_t first = hp.chunk(), last = hp.chunk();
  const bool page_may_be_free =
      (first > 0 && TestBit(bin->free_map, first - 1)) ||
      (last + 1 < kChunksPerBin && TestBit(bin->free_map, last + 1));
  // A bin being emptied by a compaction returns its pages whole, below.
  if (bin->evacuating == 0 &&
      (page_may_be_free || bin->kept_chunk != kNoKeptChunk)) {
    const size_t lowest =
        FindFirstSet(bin->free_map, Bin::kWords, bin->first_free_word);
    const uint16_t kept_before = bin->kept_chunk;
    if (page_may_be_free) ReturnFreePages(bin, first, last, lowest);
    // The pages spared for the old lowest free chunk may go now.
    if (kept_before != kNoKeptChunk && kept_before != lowest) {
      if (bin->kept_chunk == kept_before) bin->kept_chunk = kNoKeptChunk;
      ReturnFreePages(bin, kept_before, kept_before, lowest);
    }
  }
  if (bin->used == bin->reserved) ReleaseBin(metabin, hp.metabin(), hp.bin());
  // handout: end
}

void Superbin::ReturnFreePages(Bin* bin, size_t first, size_t last,
                               size_t keep) {
  const size_t page = PageSize();
  const size_t keep_first_page = keep * chunk_size_ / page;
  const size_t keep_last_page = ((keep + 1) * chunk_size_ - 1) / page;
  const size_t last_page = ((last + 1) * chunk_size_ - 1) / page;
  const bool keep_idle = policy_ == FreePagePolicy::kKeepLastPerSuperbin;
  size_t idle_candidate = kNoBit;
  size_t run_start = 0, run_pages = 0;  // the pages to return, coalesced
  auto return_run = [&] {
    ReturnPageRun(bin, run_start, run_pages);
    run_pages = 0;
  };
  for (size_t p = first * chunk_size_ / page; p <= last_page; ++p) {
    const bool is_idle = bin == idle_bin_ && p == idle_page_;
    if (!PageWhollyFree(*bin, p)) {
      return_run();
    } else if (p >= keep_first_page && p <= keep_last_page) {
      bin->kept_chunk = uint16_t(keep);
      if (is_idle) idle_bin_ = nullptr;  // now held as the kept chunk's
      return_run();
    } else if (is_idle) {
      return_run();  // resident already, and stays the idle page
    } else if (keep_idle && idle_candidate == kNoBit) {
      idle_candidate = p;
      return_run();
    } else if (run_pages++ == 0) {
      run_start = p;
    }
  }
  return_run();
  if (idle_candidate != kNoBit) SetIdlePage(bin, idle_candidate);
}

void Superbin::ReturnPageRun(Bin* bin, size_t first_page, size_t pages) {
  if (pages == 0) return;
  ReturnPages(bin->segment + first_page * PageSize(), pages * PageSize());
  pages_returned_ += pages;
}

void Superbin::SetIdlePage(Bin* bin, size_t page) {
  // The previous one's chunks may have been taken since: it is then held.
  if (idle_bin_ != nullptr && PageWhollyFree(*idle_bin_, idle_page_)) {
    ReturnPageRun(idle_bin_, idle_page_, 1);
  } else if (IdlePageCached()) {
    ReturnPages(idle_segment_ + idle_page_ * PageSize(), PageSize());
    ++pages_returned_;
  }
  idle_bin_ = bin;
  idle_segment_ = bin->segment;
  idle_page_ = page;
}

ChunkLocation Superbin::Locate(HyperionPointer hp) const {
  assert(InUse(hp));
  Bin* bin = BinAt(hp.metabin(), hp.bin());
  // A pointer into a bin being emptied must go through Forward first.
  assert(bin->evacuating == 0);
  return ChunkLocation{hp, bin->segment + hp.chunk() * chunk_size_, bin};
}

bool Superbin::InUse(HyperionPointer hp) const {
  if (hp.superbin() != id_ || hp.metabin() >= metabins_.size()) return false;
  const Bin* bin = BinAt(hp.metabin(), hp.bin());
  if (bin == nullptr || TestBit(bin->free_map, hp.chunk())) return false;
  return !(bin->reserved != 0 && hp.chunk() == 0);
}

void Superbin::ForEachInUse(
    absl::FunctionRef<void(const ChunkLocation&)> fn) const {
  for (uint32_t metabin_id = 0; metabin_id < metabins_.size(); ++metabin_id) {
    const Metabin* metabin = metabins_[metabin_id];
    if (metabin == nullptr) continue;
    for (uint32_t bin_id = 0; bin_id < kBinsPerMetabin; ++bin_id) {
      Bin* bin = BinAt(metabin_id, bin_id);
      if (bin == nullptr) continue;
      for (uint32_t chunk = bin->reserved; chunk < kChunksPerBin; ++chunk) {
        if (TestBit(bin->free_map, chunk)) continue;
        fn(ChunkLocation{HyperionPointer::Make(id_, metabin_id, bin_id, chunk),
                         bin->segment + chunk * chunk_size_, bin});
      }
    }
  }
}

uint32_t Superbin::NotFullMetabin() {
  if (list_size_ == 0) {
    // The list ran dry: look for not-full metabins it had no room for.
    for (uint32_t id = 0; id < metabins_.size(); ++id) {
      const Metabin* metabin = metabins_[id];
      if (metabin != nullptr && !AllClear(metabin->not_full, Metabin::kWords)) {
        list_[list_size_++] = uint16_t(id);
        if (list_size_ == kListCapacity) break;
      }
    }
    if (list_size_ == 0) CreateMetabin();
  }
  return list_[0];
}

uint32_t Superbin::CreateMetabin() {
  // Reuse the lowest released id, so ids stay dense.
  uint32_t id = 0;
  while (id < metabins_.size() && metabins_[id] != nullptr) ++id;
  // Pointers have room for no more: memory has run out as surely as when
  // the system refuses it.
  if (id == kMaxMetabins) throw std::bad_alloc();
  std::unique_ptr<Metabin> metabin(new Metabin);
  if (id == metabins_.size()) metabins_.push_back(nullptr);
  std::memset(metabin->not_full, 0xff, sizeof(metabin->not_full));
  metabin->live_bins = 0;
  metabins_[id] = metabin.release();
  ++metabin_count_;
  ListInsert(id);
  return id;
}

Bin* Superbin::CreateBin(Metabin* metabin, uint32_t metabin_id,
                         uint32_t bin_id) {
  // Everything that may fail comes first. If something does, a metabin
  // created for this bin goes again, and the superbin is as it was.
  const size_t index = size_t{metabin_id} * kBinsPerMetabin + bin_id;
  const size_t table_size = segments_.size();
  std::unique_ptr<Bin> bin;
  std::unique_ptr<uint8_t[]> slack;
  const uint16_t slack_capacity = id_ == 0 ? 0 : kInitialSlack;
  try {
    bin.reset(new Bin);
    if (slack_capacity != 0) slack.reset(new uint8_t[slack_capacity]);
    if (index >= table_size) {
      segments_.resize(index + 1, nullptr);
      bin_table_.resize(index + 1, nullptr);
    }
    // The cached segment, if any, holds the idle page of a released bin.
    const bool idle_comes_back = IdlePageCached();
    bin->segment = cache_->Acquire(id_, segment_size());
    if (idle_comes_back) {
      idle_bin_ = bin.get();
    } else if (idle_bin_ == nullptr) {
      idle_segment_ = nullptr;  // the cache unmapped it (Clear)
    }
  } catch (const std::bad_alloc&) {
    segments_.resize(table_size);
    bin_table_.resize(table_size);
    if (metabin->live_bins == 0) ReleaseMetabin(metabin_id);
    throw;
  }
  std::memset(bin->free_map, 0xff, sizeof(bin->free_map));
  bin->slack = slack.release();
  bin->slack_capacity = slack_capacity;
  slack_bytes_ += slack_capacity;
  bin->used = 0;
  bin->first_free_word = 0;
  bin->reserved = 0;
  bin->evacuating = 0;
  bin->kept_chunk = kNoKeptChunk;
  if (id_ == 0 && metabin_id == 0 && bin_id == 0) {
    // The all-zero pointer is null: its chunk stays allocated forever.
    ClearBit(bin->free_map, 0);
    bin->used = 1;
    bin->reserved = 1;
  }
  segments_[index] = bin->segment;
  bin_table_[index] = bin.release();
  ++metabin->live_bins;
  ++bins_;
  return bin_table_[index];
}

void Superbin::ReleaseBin(Metabin* metabin, uint32_t metabin_id,
                          uint32_t bin_id) {
  const size_t index = size_t{metabin_id} * kBinsPerMetabin + bin_id;
  Bin* bin = bin_table_[index];
  // The segment cache takes segments with their pages returned.
  // The idle page goes with the segment: the superbin's next bin takes
  // that segment, and the page, again.
  if (bin == idle_bin_) {
    idle_bin_ = nullptr;
    // Its pages go back whole, below.
    if (bin->evacuating != 0) idle_segment_ = nullptr;
  } else if (idle_bin_ == nullptr) {
    idle_segment_ = nullptr;  // the cache unmaps the segment it held
  }
  // Its frees skipped ReturnFreePages: one call for the whole segment.
  if (bin->evacuating != 0) ReturnPages(bin->segment, segment_size());
  cache_->Release(id_, bin->segment, segment_size());
  slack_bytes_ -= bin->slack_capacity;
  delete[] bin->slack;
  delete bin;
  bin_table_[index] = nullptr;
  segments_[index] = nullptr;
  // The table ends at the highest bin that exists, and gives its memory
  // back as it shrinks, so that a store emptied out holds what a new one
  // does.
  while (!segments_.empty() && segments_.back() == nullptr) {
    segments_.pop_back();
    bin_table_.pop_back();
  }
  if (segments_.size() * 2 <= segments_.capacity()) {
    segments_.shrink_to_fit();
    bin_table_.shrink_to_fit();
  }
  --bins_;
  if (--metabin->live_bins == 0) ReleaseMetabin(metabin_id);
}

void Superbin::GrowSlack(Bin* bin, size_t chunks) {
  assert(chunks <= kChunksPerBin);
  size_t capacity = std::max<size_t>(bin->slack_capacity, kInitialSlack);
  while (capacity < chunks) capacity *= 2;
  uint8_t* const slack = new uint8_t[capacity];
  std::memcpy(slack, bin->slack, bin->slack_capacity);
  delete[] bin->slack;
  bin->slack = slack;
  slack_bytes_ += capacity - bin->slack_capacity;
  bin->slack_capacity = uint16_t(capacity);
}

void Superbin::ReleaseMetabin(uint32_t metabin_id) {
  ListRemove(metabin_id);
  delete metabins_[metabin_id];
  metabins_[metabin_id] = nullptr;
  --metabin_count_;
  while (!metabins_.empty() && metabins_.back() == nullptr) {
    metabins_.pop_back();
  }
  // Give the table back once it is mostly unused.
  if (metabins_.empty() || metabins_.size() < metabins_.capacity() / 4) {
    metabins_.shrink_to_fit();
  }
}

void Superbin::ListInsert(uint32_t metabin_id) {
  size_t pos = 0;
  while (pos < list_size_ && list_[pos] < metabin_id) ++pos;
  if (pos < list_size_ && list_[pos] == metabin_id) return;
  if (pos == kListCapacity) return;  // only lower ids fit; the rest waits
  if (list_size_ == kListCapacity) --list_size_;
  for (size_t i = list_size_; i > pos; --i) list_[i] = list_[i - 1];
  list_[pos] = uint16_t(metabin_id);
  ++list_size_;
}

void Superbin::ListRemove(uint32_t metabin_id) {
  for (size_t i = 0; i < list_size_; ++i) {
    if (list_[i] != metabin_id) continue;
    for (size_t j = i; j + 1 < list_size_; ++j) list_[j] = list_[j + 1];
    --list_size_;
    return;
  }
}

absl::Status Superbin::Violation(const std::string& what) const {
  return absl::InternalError(absl::StrCat("superbin ", id_, ": ", what));
}

absl::Status Superbin::Check() const {
  CheckCounts counts;
  if (absl::Status s = CheckTables(); !s.ok()) return s;
  for (uint32_t metabin_id = 0; metabin_id < metabins_.size(); ++metabin_id) {
    if (absl::Status s = CheckMetabin(metabin_id, &counts); !s.ok()) return s;
  }
  if (absl::Status s = CheckListAndIdlePage(); !s.ok()) return s;
  if (counts.evacuating != evacuating_.size()) {
    return Violation(absl::StrCat(counts.evacuating,
                                  " bins marked evacuating, ",
                                  evacuating_.size(), " listed"));
  }
  for (const BinRef& ref : evacuating_) {
    const Bin* bin = BinAt(ref.metabin_id, ref.bin_id);
    if (bin == nullptr || bin->evacuating == 0) {
      return Violation("listed evacuating bin absent or unmarked");
    }
  }
  if (counts.slack_bytes != slack_bytes_) {
    return Violation(absl::StrCat("slack arrays hold ", counts.slack_bytes,
                                  " bytes, counted ", slack_bytes_));
  }
  if (counts.in_use != chunks_in_use_ || counts.bins != bins_ ||
      counts.metabins != metabin_count_) {
    return Violation(absl::StrCat("counters disagree: in use ", chunks_in_use_,
                                  " vs ", counts.in_use, ", bins ", bins_,
                                  " vs ", counts.bins, ", metabins ",
                                  metabin_count_, " vs ", counts.metabins));
  }
  return absl::OkStatus();
}

// The two tables against each other and against the metabins.
absl::Status Superbin::CheckTables() const {
  if (bin_table_.size() != segments_.size()) {
    return Violation("bin and segment tables differ in size");
  }
  if (!bin_table_.empty() && bin_table_.back() == nullptr) {
    return Violation("bin table has a null tail");
  }
  for (size_t index = 0; index < bin_table_.size(); ++index) {
    const Bin* bin = bin_table_[index];
    const size_t metabin_id = index / kBinsPerMetabin;
    if (bin != nullptr &&
        (metabin_id >= metabins_.size() || metabins_[metabin_id] == nullptr)) {
      return Violation(absl::StrCat("bin ", index, " outside a metabin"));
    }
    if (segments_[index] != (bin == nullptr ? nullptr : bin->segment)) {
      return Violation(absl::StrCat("segment table wrong at bin ", index));
    }
  }
  if (!metabins_.empty() && metabins_.back() == nullptr) {
    return Violation("metabin table has a null tail");
  }
  return absl::OkStatus();
}

absl::Status Superbin::CheckMetabin(uint32_t metabin_id,
                                    CheckCounts* counts) const {
  const Metabin* metabin = metabins_[metabin_id];
  if (metabin == nullptr) return absl::OkStatus();
  ++counts->metabins;
  uint32_t live_bins = 0;
  for (uint32_t bin_id = 0; bin_id < kBinsPerMetabin; ++bin_id) {
    const Bin* bin = BinAt(metabin_id, bin_id);
    const bool not_full = TestBit(metabin->not_full, bin_id);
    if (bin == nullptr) {
      if (!not_full) return Violation("absent bin marked full");
      continue;
    }
    ++live_bins;
    if (absl::Status s = CheckBin(metabin_id, bin_id, *bin, counts); !s.ok()) {
      return s;
    }
    if (not_full != (bin->used < kChunksPerBin)) {
      return Violation(absl::StrCat("not-full map wrong for bin ", bin_id));
    }
  }
  if (live_bins == 0) return Violation("empty metabin kept");
  if (live_bins != metabin->live_bins) {
    return Violation(absl::StrCat("live_bins wrong in metabin ", metabin_id));
  }
  return absl::OkStatus();
}

absl::Status Superbin::CheckBin(uint32_t metabin_id, uint32_t bin_id,
                                const Bin& bin, CheckCounts* counts) const {
  size_t free_chunks = 0;
  for (size_t w = 0; w < Bin::kWords; ++w) {
    free_chunks += size_t(__builtin_popcountll(bin.free_map[w]));
    if (w < bin.first_free_word && bin.free_map[w] != 0) {
      return Violation("free chunk below first_free_word");
    }
  }
  if (free_chunks + bin.used != kChunksPerBin) {
    return Violation(absl::StrCat("bin ", metabin_id, "/", bin_id,
                                  " used count disagrees with its free map"));
  }
  if (bin.used == bin.reserved) return Violation("empty bin not released");
  if (bin.reserved != 0 && (metabin_id != 0 || bin_id != 0 || id_ != 0 ||
                            TestBit(bin.free_map, 0))) {
    return Violation("reserved chunk misplaced");
  }
  if (id_ != 0) {
    counts->slack_bytes += bin.slack_capacity;
    const size_t highest = HighestInUse(bin);
    if (highest != kNoBit && highest >= bin.slack_capacity) {
      return Violation("chunk in use past its bin's slack array");
    }
  }
  counts->in_use += bin.used - bin.reserved;
  counts->evacuating += bin.evacuating;
  ++counts->bins;
  return absl::OkStatus();
}

// The list of metabins with room, and the idle page kept out of the cache.
absl::Status Superbin::CheckListAndIdlePage() const {
  for (size_t i = 0; i < list_size_; ++i) {
    const uint32_t id = list_[i];
    if (i > 0 && list_[i - 1] >= id) return Violation("list not sorted");
    if (id >= metabins_.size() || metabins_[id] == nullptr ||
        AllClear(metabins_[id]->not_full, Metabin::kWords)) {
      return Violation(
          absl::StrCat("list holds metabin ", id, " that is absent or full"));
    }
  }
  if (idle_bin_ == nullptr) return absl::OkStatus();
  if (idle_segment_ != idle_bin_->segment) {
    return Violation("idle page's segment not its bin's");
  }
  if (std::find(bin_table_.begin(), bin_table_.end(), idle_bin_) ==
          bin_table_.end() ||
      idle_page_ >= segment_size() / PageSize()) {
    return Violation("idle page outside every bin");
  }
  const uint16_t kept = idle_bin_->kept_chunk;
  if (kept != kNoKeptChunk && PageWhollyFree(*idle_bin_, idle_page_) &&
      idle_page_ >= kept * chunk_size_ / PageSize() &&
      idle_page_ <= ((kept + 1) * chunk_size_ - 1) / PageSize()) {
    return Violation("idle page is a page of the kept chunk");
  }
  return absl::OkStatus();
}

}  // namespace kvlab::stage5
