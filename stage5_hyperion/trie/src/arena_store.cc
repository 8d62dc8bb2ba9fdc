// The arena store (kvlab/stage5/arena_store.h states the contract): N
// hyperion tries, each behind its own ArenaLock, and the key count of every
// first byte.
//
// Invariants (CheckInvariants): each arena's trie passes its own check;
// every key in arena a has its first byte b with b mod N == a (the empty
// key: a == 0); counts_ holds, for the empty key and each first byte, the
// number of such keys stored. counts_[s] changes only under the lock of
// the arena of slot s, so under that lock it is exact for that arena's
// slots; readers without the lock see each count at some moment.

#include "kvlab/stage5/arena_store.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arena.h"
#include "scan_batch.h"

namespace kvlab::stage5 {

absl::StatusOr<ArenaOptions> ArenaOptions::FromStoreOptions(
    const StoreOptions& options) {
  ArenaOptions o;
  absl::StatusOr<int64_t> arenas = options.GetInt("arenas", 1, 1, 256);
  if (!arenas.ok()) return arenas.status();
  o.arenas = uint32_t(*arenas);
  absl::StatusOr<std::string> lock =
      options.GetChoice("lock", "spin", {"spin", "rw", "mutex"});
  if (!lock.ok()) return lock.status();
  o.lock = *lock == "spin" ? Lock::kSpin
           : *lock == "rw" ? Lock::kRw
                           : Lock::kMutex;
  return o;
}

namespace {

// Slot 0 counts the empty key, slot 1 + b the keys of first byte b: slots
// in key order.
constexpr size_t kSlots = 257;

size_t SlotOf(std::string_view key) {
  return key.empty() ? 0 : 1 + uint8_t(key[0]);
}

// The smallest key of slot `s` (> 0).
std::string SlotStart(size_t s) { return std::string(1, char(s - 1)); }

class ArenaStore final : public HyperionArenaStore {
 public:
  ArenaStore(const HyperionOptions& options, const ArenaOptions& arena_options)
      : arena_count_(std::clamp<uint32_t>(arena_options.arenas, 1, 256)) {
    arenas_.reserve(arena_count_);
    for (size_t i = 0; i < arena_count_; ++i) {
      arenas_.push_back(std::make_unique<Arena>(arena_options.lock, options));
    }
  }

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override {
    uint64_t size = 0;
    for (const auto& count : counts_) {
      size += count.load(std::memory_order_relaxed);
    }
    return size;
  }
  std::string_view Name() const override { return "hyperion"; }
  std::optional<size_t> MemoryUsage() const override;
  bool IsThreadSafe() const override { return true; }
  absl::Status CheckInvariants() const override;
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

  size_t arena_count() const override { return arena_count_; }
  const HyperionStore& arena(size_t i) const override {
    return arenas_[i]->UnlockedTrie();
  }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override {
    return ArenaOfSlot(SlotOf(key)).Read([&](const HyperionStore& trie) {
      return trie.Get(key, value);
    });
  }
  bool DeleteImpl(std::string_view key) override;

 private:
  Arena& ArenaOfSlot(size_t s) const {
    return *arenas_[s == 0 ? 0 : (s - 1) % arena_count_];
  }
  // The rank in slot s's arena of the `rest`-th key of slot s: `rest` plus
  // the keys of the arena's slots before s. Under that arena's lock.
  uint64_t LocalRank(size_t s, uint64_t rest) const {
    const size_t a = s == 0 ? 0 : (s - 1) % arena_count_;
    if (s > 0 && a == 0) rest += Count(0);
    for (size_t t = 1 + a; t < s; t += arena_count_) rest += Count(t);
    return rest;
  }
  uint64_t Count(size_t s) const {
    return counts_[s].load(std::memory_order_relaxed);
  }
  // Slot writes happen under the slot's arena lock, so a plain increment
  // of the loaded value cannot lose an update.
  void AddToCount(size_t s, int64_t delta) {
    counts_[s].store(Count(s) + uint64_t(delta), std::memory_order_relaxed);
  }
  // Sets `*slot` and `*rest` to the slot holding the n-th key and its rank
  // there, by the counts as read now; false if n is past them all.
  bool FindSlot(uint64_t n, size_t* slot, uint64_t* rest) const {
    for (size_t s = 0; s < kSlots; ++s) {
      const uint64_t c = Count(s);
      if (n < c) {
        *slot = s;
        *rest = n;
        return true;
      }
      n -= c;
    }
    return false;
  }
  // Scans slot s's keys in `trie` from `bound` (or from its first if
  // `bound` is empty) into `batch`, at most kScanBatch of them, skipping
  // `bound` itself if `after`. Returns true if the slot may hold more.
  static bool FillBatch(const HyperionStore& trie, size_t s,
                        std::string_view bound, bool after, ScanBatch* batch);
  // CheckInvariants of arena i, whose trie is `trie`, under its lock.
  absl::Status CheckArena(size_t i, const HyperionStore& trie) const;

  const size_t arena_count_;
  std::vector<std::unique_ptr<Arena>> arenas_;
  std::array<std::atomic<uint64_t>, kSlots> counts_{};
};

bool ArenaStore::PutImpl(std::string_view key, std::string_view value) {
  const size_t s = SlotOf(key);
  const absl::StatusOr<bool> replaced =
      ArenaOfSlot(s).Write([&](HyperionStore& trie) {
        absl::StatusOr<bool> r = trie.Put(key, value);
        if (r.ok() && !*r) AddToCount(s, 1);
        return r;
      });
  if (!replaced.ok()) {
    // The trie is as it was; the only failure a valid pair meets there is
    // a failed allocation, which KVStore::Put reports.
    if (absl::IsResourceExhausted(replaced.status())) throw std::bad_alloc();
    throw WriteError(replaced.status());
  }
  return *replaced;
}

bool ArenaStore::DeleteImpl(std::string_view key) {
  const size_t s = SlotOf(key);
  return ArenaOfSlot(s).Write([&](HyperionStore& trie) {
    if (!trie.Delete(key)) return false;
    AddToCount(s, -1);
    return true;
  });
}

bool ArenaStore::GetNth(uint64_t n, std::string* key,
                        std::string* value) const {
  for (;;) {
    size_t s;
    uint64_t rest;
    if (!FindSlot(n, &s, &rest)) return false;
    // A writer may have shrunk the slot since FindSlot read its count: then
    // look again. Each retry follows a completed delete in that slot.
    enum Outcome { kFound, kMissing, kShrunk };
    const Outcome outcome = ArenaOfSlot(s).Read([&](const HyperionStore& trie) {
      if (rest >= Count(s)) return kShrunk;
      return trie.GetNth(LocalRank(s, rest), key, value) ? kFound : kMissing;
    });
    if (outcome == kShrunk) continue;
    assert(outcome == kFound);
    return outcome == kFound;
  }
}

bool ArenaStore::DeleteNth(uint64_t n) {
  for (;;) {
    size_t s;
    uint64_t rest;
    if (!FindSlot(n, &s, &rest)) return false;
    enum Outcome { kDeleted, kMissing, kShrunk };
    const Outcome outcome = ArenaOfSlot(s).Write([&](HyperionStore& trie) {
      if (rest >= Count(s)) return kShrunk;  // as in GetNth
      if (!trie.DeleteNth(LocalRank(s, rest))) return kMissing;
      AddToCount(s, -1);
      return kDeleted;
    });
    if (outcome == kShrunk) continue;
    assert(outcome == kDeleted);
    return outcome == kDeleted;
  }
}

bool ArenaStore::FillBatch(const HyperionStore& trie, size_t s,
                           std::string_view bound, bool after,
                           ScanBatch* batch) {
  bool more = false;
  trie.Scan(bound, [&](std::string_view k, std::string_view v) {
    if (SlotOf(k) != s) return false;
    if (after && k == bound) return true;
    batch->Add(k, v);
    more = batch->size() == kScanBatch;
    return !more;
  });
  return more;
}

uint64_t ArenaStore::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  ScanBatch batch;
  std::string bound;
  for (size_t s = SlotOf(start); s < kSlots; ++s) {
    // A slot empty now holds no key stored throughout the call.
    if (Count(s) == 0) continue;
    bound = s == SlotOf(start) ? std::string(start) : SlotStart(s);
    bool after = false;
    for (;;) {
      batch.Clear();
      const bool more = ArenaOfSlot(s).Read([&](const HyperionStore& trie) {
        return FillBatch(trie, s, bound, after, &batch);
      });
      for (size_t i = 0; i < batch.size(); ++i) {
        ++visited;
        if (!visitor(batch.key(i), batch.value(i))) return visited;
      }
      if (!more) break;
      // Resume at the last key visited, not past it: its successor in key
      // order would be one byte longer, past the longest key a trie takes.
      bound.assign(batch.key(batch.size() - 1));
      after = true;
    }
  }
  return visited;
}

std::optional<size_t> ArenaStore::MemoryUsage() const {
  size_t bytes = sizeof(*this) + arenas_.capacity() * sizeof(arenas_[0]);
  for (const auto& a : arenas_) {
    bytes += sizeof(Arena) + a->Read([](const HyperionStore& trie) {
      return trie.MemoryUsage().value_or(0);
    });
  }
  return bytes;
}

absl::Status ArenaStore::CheckArena(size_t i, const HyperionStore& trie) const {
  absl::Status status = trie.CheckInvariants();
  if (!status.ok()) {
    return absl::InternalError(
        absl::StrCat("arena ", i, ": ", status.message()));
  }
  const Arena* const a = arenas_[i].get();
  std::array<uint64_t, kSlots> seen{};
  std::string misplaced;
  trie.Scan("", [&](std::string_view k, std::string_view) {
    const size_t s = SlotOf(k);
    if (&ArenaOfSlot(s) != a) {
      misplaced = k;
      return false;
    }
    ++seen[s];
    return true;
  });
  if (!misplaced.empty()) {
    return absl::InternalError(absl::StrCat(
        "arena ", i, " holds key \"", PrintablePrefix(misplaced, 32),
        "\" of arena ", (uint8_t(misplaced[0]) % arena_count_)));
  }
  for (size_t s = 0; s < kSlots; ++s) {
    if (&ArenaOfSlot(s) == a && seen[s] != Count(s)) {
      return absl::InternalError(absl::StrCat("arena ", i, " holds ", seen[s],
                                              " keys of slot ", s, ", counted ",
                                              Count(s)));
    }
  }
  return absl::OkStatus();
}

absl::Status ArenaStore::CheckInvariants() const {
  for (size_t i = 0; i < arena_count_; ++i) {
    absl::Status status = arenas_[i]->Read(
        [&](const HyperionStore& trie) { return CheckArena(i, trie); });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ArenaStore::ExportStructure(const StructureOptions& options,
                                         StructureGraph* graph) const {
  if (options.has_from_key) {
    return absl::InvalidArgumentError(
        "hyperion with arenas exports from its roots only");
  }
  graph->summary.push_back({"arenas", absl::StrCat(arena_count_)});
  for (size_t i = 0; i < arena_count_; ++i) {
    StructureGraph part;
    absl::Status status = arenas_[i]->Read([&](const HyperionStore& trie) {
      return trie.ExportStructure(options, &part);
    });
    if (!status.ok()) return status;
    // Each arena a cluster of its own; ids get the arena's prefix, so they
    // stay unique and stable from one export to the next.
    const std::string prefix = absl::StrCat("arena", i, "/");
    const std::string cluster = absl::StrCat("arena", i);
    graph->kind = part.kind;
    graph->clusters.push_back({cluster, absl::StrCat("arena ", i), ""});
    for (StructureCluster& c : part.clusters) {
      c.id = prefix + c.id;
      c.parent = c.parent.empty() ? cluster : prefix + c.parent;
      graph->clusters.push_back(std::move(c));
    }
    for (StructureNode& n : part.nodes) {
      n.id = prefix + n.id;
      n.cluster = n.cluster.empty() ? cluster : prefix + n.cluster;
      graph->nodes.push_back(std::move(n));
    }
    for (StructureEdge& e : part.edges) {
      e.from = prefix + e.from;
      e.to = prefix + e.to;
      graph->edges.push_back(std::move(e));
    }
    for (StructureField& f : part.summary) {
      graph->summary.push_back({absl::StrCat(cluster, " ", f.name), f.value});
    }
    graph->nodes_omitted += part.nodes_omitted;
  }
  return absl::OkStatus();
}

}  // namespace

std::unique_ptr<HyperionArenaStore> NewHyperionArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options) {
  return std::make_unique<ArenaStore>(options, arena_options);
}

}  // namespace kvlab::stage5
