// The arena store (kvlab/stage5/arena_store.h states the contract): N
// arenas (arena.h), each a hyperion trie (under lock=leftright two copies
// of one) with the key count of every slot (the empty key and each first
// byte) beside it.
//
// Invariants (CheckInvariants, on every copy): each trie passes its own
// check; every key in arena a has its first byte b with b mod N == a (the
// empty key: a == 0); the copy's counts hold, for the slots of its arena,
// the number of such keys it stores, and their total all the keys it
// stores. A copy's counts change only under its arena's lock, together
// with its trie, so a reader or writer of that copy finds them exact;
// Count(s), the lock-free index of ranks, and Size read the copy readers
// are sent to, each count at some moment.

#include "kvlab/stage5/arena_store.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <memory>
#include <new>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arena.h"
#include "arena_export.h"
#include "balanced_arena_store.h"
#include "scan_batch.h"

namespace kvlab::stage5 {

absl::StatusOr<ArenaOptions> ArenaOptions::FromStoreOptions(
    const StoreOptions& options) {
  ArenaOptions o;
  absl::StatusOr<int64_t> arenas = options.GetInt("arenas", 1, 1, 256);
  if (!arenas.ok()) return arenas.status();
  o.arenas = uint32_t(*arenas);
  absl::StatusOr<std::string> lock =
      options.GetChoice("lock", "spin", {"spin", "rw", "mutex", "leftright"});
  if (!lock.ok()) return lock.status();
  o.lock = *lock == "spin"    ? Lock::kSpin
           : *lock == "rw"    ? Lock::kRw
           : *lock == "mutex" ? Lock::kMutex
                              : Lock::kLeftRight;
  absl::StatusOr<std::string> partition =
      options.GetChoice("partition", "byte", {"byte", "balanced"});
  if (!partition.ok()) return partition.status();
  o.partition = *partition == "byte" ? Partition::kByte : Partition::kBalanced;
  if (o.partition == Partition::kBalanced && o.lock == Lock::kLeftRight) {
    // A balanced store checks its routing table under the arena's lock,
    // which left-right readers do not take.
    return absl::InvalidArgumentError(
        "lock=leftright does not combine with partition=balanced");
  }
  return o;
}

namespace {

// Slot 0 counts the empty key, slot 1 + b the keys of first byte b: slots
// in key order.
constexpr size_t kSlots = SlotCounts::kSlots;

size_t SlotOf(std::string_view key) {
  return key.empty() ? 0 : 1 + uint8_t(key[0]);
}

// The smallest key of slot `s` (> 0).
std::string SlotStart(size_t s) { return std::string(1, char(s - 1)); }

class ArenaStore final : public HyperionArenaStore {
 public:
  ArenaStore(const HyperionOptions& options, const ArenaOptions& arena_options)
      : arena_count_(std::clamp<uint32_t>(arena_options.arenas, 1, 256)),
        arenas_(MakeArenas(arena_count_, arena_options.lock, options)) {}

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override {
    uint64_t size = 0;
    for (const auto& arena : arenas_) size += arena->VisibleTotal();
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
  uint64_t repartitions() const override { return 0; }

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
  // the keys of the arena's slots before s, by the `counts` of the copy
  // read or written.
  uint64_t LocalRank(const SlotCounts& counts, size_t s, uint64_t rest) const {
    const size_t a = s == 0 ? 0 : (s - 1) % arena_count_;
    if (s > 0 && a == 0) rest += counts[0];
    for (size_t t = 1 + a; t < s; t += arena_count_) rest += counts[t];
    return rest;
  }
  uint64_t Count(size_t s) const { return ArenaOfSlot(s).VisibleCount(s); }
  // Sets `*slot` and `*rest` to the slot holding the n-th key and its rank
  // there, by the counts as read now; false if n is past them all.
  bool FindSlot(uint64_t n, size_t* slot, uint64_t* rest) const {
    // Slots 0 and 1 are arena 0's; from there each slot is the next
    // arena's, so `a` follows them without a division per slot.
    for (size_t s = 0, a = 0; s < kSlots; ++s) {
      const uint64_t c = arenas_[a]->VisibleCount(s);
      if (n < c) {
        *slot = s;
        *rest = n;
        return true;
      }
      n -= c;
      if (s > 0 && ++a == arena_count_) a = 0;
    }
    return false;
  }
  // Scans slot s's keys in `trie` from `bound` (or from its first if
  // `bound` is empty) into `batch`, at most kScanBatch of them, skipping
  // `bound` itself if `after`. Returns true if the slot may hold more.
  static bool FillBatch(const HyperionStore& trie, size_t s,
                        std::string_view bound, bool after, ScanBatch* batch);
  // CheckInvariants of a copy of arena i, its `trie` and `counts`, under
  // the arena's lock.
  absl::Status CheckArena(size_t i, const HyperionStore& trie,
                          const SlotCounts& counts) const;

  const size_t arena_count_;
  std::vector<std::unique_ptr<Arena>> arenas_;
};

bool ArenaStore::PutImpl(std::string_view key, std::string_view value) {
  const size_t s = SlotOf(key);
  return ArenaOfSlot(s).Write([&](Arena::Change& change) {
    change.key = key;
    const absl::StatusOr<bool> replaced = change.trie.Put(key, value);
    if (!replaced.ok()) {
      // The trie is as it was; the only failure a valid pair meets there
      // is a failed allocation, which KVStore::Put reports.
      if (absl::IsResourceExhausted(replaced.status())) throw std::bad_alloc();
      throw WriteError(replaced.status());
    }
    if (!*replaced) change.counts.Add(s, 1);
    return *replaced;
  });
}

bool ArenaStore::DeleteImpl(std::string_view key) {
  const size_t s = SlotOf(key);
  return ArenaOfSlot(s).Write([&](Arena::Change& change) {
    change.key = key;
    if (!change.trie.Delete(key)) return false;
    change.counts.Add(s, -1);
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
    const Outcome outcome = ArenaOfSlot(s).Read(
        [&](const HyperionStore& trie, const SlotCounts& counts) {
          if (rest >= counts[s]) return kShrunk;
          return trie.GetNth(LocalRank(counts, s, rest), key, value) ? kFound
                                                                     : kMissing;
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
    // The key the first call picks by rank, which a second call (arena.h,
    // lock=leftright) deletes by name.
    std::string picked;
    bool have_picked = false;
    const Outcome outcome = ArenaOfSlot(s).Write([&](Arena::Change& change) {
      if (!have_picked) {
        if (rest >= change.counts[s]) return kShrunk;  // as in GetNth
        if (!change.trie.GetNth(LocalRank(change.counts, s, rest), &picked,
                                nullptr)) {
          return kMissing;
        }
        have_picked = true;
      }
      change.key = picked;
      if (!change.trie.Delete(picked)) return kMissing;
      change.counts.Add(s, -1);
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
  for (const auto& a : arenas_) bytes += a->MemoryUsage();
  return bytes;
}

absl::Status ArenaStore::CheckArena(size_t i, const HyperionStore& trie,
                                    const SlotCounts& counts) const {
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
    if (&ArenaOfSlot(s) == a && seen[s] != counts[s]) {
      return absl::InternalError(absl::StrCat("arena ", i, " holds ", seen[s],
                                              " keys of slot ", s, ", counted ",
                                              counts[s]));
    }
  }
  const uint64_t held = std::accumulate(seen.begin(), seen.end(), uint64_t{0});
  if (counts.total() != held) {
    return absl::InternalError(absl::StrCat("arena ", i, " holds ", held,
                                            " keys, its counts total ",
                                            counts.total()));
  }
  return absl::OkStatus();
}

absl::Status ArenaStore::CheckInvariants() const {
  for (size_t i = 0; i < arena_count_; ++i) {
    const SlotCounts* current = nullptr;
    absl::Status status = arenas_[i]->CheckCopies(
        [&](const HyperionStore& trie, const SlotCounts& counts,
            bool is_current) -> absl::Status {
          absl::Status copy = CheckArena(i, trie, counts);
          if (!copy.ok() || !is_current) return copy;
          // Two current copies (lock=leftright) hold the same keys.
          if (current != nullptr) {
            for (size_t s = 0; s < kSlots; ++s) {
              if (counts[s] != (*current)[s]) {
                return absl::InternalError(
                    absl::StrCat("arena ", i, ": its copies count ", counts[s],
                                 " and ", (*current)[s], " keys of slot ", s));
              }
            }
          }
          current = &counts;
          return absl::OkStatus();
        });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status ArenaStore::ExportStructure(const StructureOptions& options,
                                         StructureGraph* graph) const {
  return ExportArenas(arenas_, options, graph);
}

}  // namespace

std::unique_ptr<HyperionArenaStore> NewHyperionArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options) {
  if (arena_options.partition == ArenaOptions::Partition::kBalanced) {
    return NewBalancedArenaStore(options, arena_options);
  }
  return std::make_unique<ArenaStore>(options, arena_options);
}

}  // namespace kvlab::stage5
