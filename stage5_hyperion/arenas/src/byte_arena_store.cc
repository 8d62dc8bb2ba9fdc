// The arena store with partition=byte (kvlab/stage5/arena_store.h states
// the contract): N arenas (arena.h), each a hyperion trie (under
// lock=leftright two copies of one) with the key count of every slot (the
// empty key and each first byte) beside it.
//
// Invariants (CheckInvariants, on every copy): each trie passes its own
// check; every key in arena a has its first byte b with b mod N == a (the
// empty key: a == 0); the copy's counts hold, for the slots of its arena,
// the number of such keys it stores, and their total all the keys it
// stores. A copy's counts change only under its arena's lock, together
// with its trie, so a reader or writer of that copy finds them exact;
// Count(s), the lock-free index of ranks, and Size read the copy readers
// are sent to, each count at some moment.

#include "byte_arena_store.h"

#include <array>
#include <cassert>
#include <memory>
#include <numeric>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arena.h"
#include "arena_store_base.h"

namespace kvlab::stage5 {
namespace {

// Slot 0 counts the empty key, slot 1 + b the keys of first byte b: slots
// in key order.
constexpr size_t kSlots = SlotCounts::kSlots;

size_t SlotOf(std::string_view key) {
  return key.empty() ? 0 : 1 + uint8_t(key[0]);
}

// The smallest key of slot `s` (> 0).
std::string SlotStart(size_t s) { return std::string(1, char(s - 1)); }

class ByteArenaStore final : public ArenaStoreBase {
 public:
  ByteArenaStore(const HyperionOptions& options,
                 const ArenaOptions& arena_options)
      : ArenaStoreBase(options, arena_options) {}

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override {
    uint64_t size = 0;
    for (size_t a = 0; a < arena_count(); ++a) {
      size += arena_at(a).VisibleTotal();
    }
    return size;
  }
  std::optional<size_t> MemoryUsage() const override {
    return sizeof(*this) + ArenaBytes();
  }
  absl::Status CheckInvariants() const override;
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
  size_t ArenaIndex(size_t s) const {
    return s == 0 ? 0 : (s - 1) % arena_count();
  }
  Arena& ArenaOfSlot(size_t s) const { return arena_at(ArenaIndex(s)); }
  // The rank in slot s's arena of the `rest`-th key of slot s: `rest` plus
  // the keys of the arena's slots before s, by the `counts` of the copy
  // read or written.
  uint64_t LocalRank(const SlotCounts& counts, size_t s, uint64_t rest) const {
    const size_t a = ArenaIndex(s);
    if (s > 0 && a == 0) rest += counts[0];
    for (size_t t = 1 + a; t < s; t += arena_count()) rest += counts[t];
    return rest;
  }
  // Sets `*slot` and `*rest` to the slot holding the n-th key and its rank
  // there, by the counts as read now; false if n is past them all.
  bool FindSlot(uint64_t n, size_t* slot, uint64_t* rest) const {
    // Slots 0 and 1 are arena 0's; from there each slot is the next
    // arena's, so `a` follows them without a division per slot.
    for (size_t s = 0, a = 0; s < kSlots; ++s) {
      const uint64_t c = arena_at(a).VisibleCount(s);
      if (n < c) {
        *slot = s;
        *rest = n;
        return true;
      }
      n -= c;
      if (s > 0 && ++a == arena_count()) a = 0;
    }
    return false;
  }
  // CheckInvariants of a copy of arena i, its `trie` and `counts`, under
  // the arena's lock.
  absl::Status CheckArena(size_t i, const HyperionStore& trie,
                          const SlotCounts& counts) const;
};

bool ByteArenaStore::PutImpl(std::string_view key, std::string_view value) {
  const size_t s = SlotOf(key);
  return ArenaOfSlot(s).Write([&](Arena::Change& change) {
    change.key = key;
    const bool replaced = PutOrThrow(change.trie, key, value);
    if (!replaced) change.counts.Add(s, 1);
    return replaced;
  });
}

bool ByteArenaStore::DeleteImpl(std::string_view key) {
  const size_t s = SlotOf(key);
  return ArenaOfSlot(s).Write([&](Arena::Change& change) {
    change.key = key;
    if (!change.trie.Delete(key)) return false;
    change.counts.Add(s, -1);
    return true;
  });
}

bool ByteArenaStore::GetNth(uint64_t n, std::string* key,
                            std::string* value) const {
  return RetryByRank([&] {
    size_t s;
    uint64_t rest;
    if (!FindSlot(n, &s, &rest)) return RankTry::kPast;
    return ArenaOfSlot(s).Read(
        [&](const HyperionStore& trie, const SlotCounts& counts) {
          // A writer may have shrunk the slot since FindSlot read its count.
          if (rest >= counts[s]) return RankTry::kAgain;
          return trie.GetNth(LocalRank(counts, s, rest), key, value)
                     ? RankTry::kDone
                     : RankTry::kMissing;
        });
  });
}

bool ByteArenaStore::DeleteNth(uint64_t n) {
  return RetryByRank([&] {
    size_t s;
    uint64_t rest;
    if (!FindSlot(n, &s, &rest)) return RankTry::kPast;
    // The key the first call picks by rank, which a second call (arena.h,
    // lock=leftright) deletes by name.
    std::string picked;
    bool have_picked = false;
    return ArenaOfSlot(s).Write([&](Arena::Change& change) {
      if (!have_picked) {
        if (rest >= change.counts[s]) return RankTry::kAgain;  // as GetNth
        if (!change.trie.GetNth(LocalRank(change.counts, s, rest), &picked,
                                nullptr)) {
          return RankTry::kMissing;
        }
        have_picked = true;
      }
      change.key = picked;
      if (!change.trie.Delete(picked)) return RankTry::kMissing;
      change.counts.Add(s, -1);
      return RankTry::kDone;
    });
  });
}

uint64_t ByteArenaStore::Scan(std::string_view start,
                              ScanVisitor visitor) const {
  BatchedScan scan(start, visitor);
  for (size_t s = SlotOf(start); s < kSlots; ++s) {
    // A slot empty now holds no key stored throughout the call.
    if (ArenaOfSlot(s).VisibleCount(s) == 0) continue;
    if (s != SlotOf(start)) scan.MoveTo(SlotStart(s));
    for (;;) {
      const bool more = ArenaOfSlot(s).Read([&](const HyperionStore& trie) {
        return scan.Fill(trie,
                         [s](std::string_view k) { return SlotOf(k) == s; });
      });
      if (!scan.Visit()) return scan.visited();
      if (!more) break;
    }
  }
  return scan.visited();
}

absl::Status ByteArenaStore::CheckArena(size_t i, const HyperionStore& trie,
                                        const SlotCounts& counts) const {
  std::array<uint64_t, kSlots> seen{};
  absl::Status status = CheckArenaKeys(
      i, trie, [&](std::string_view k) { return ArenaIndex(SlotOf(k)); },
      [&](std::string_view k) { ++seen[SlotOf(k)]; });
  if (!status.ok()) return status;
  for (size_t s = 0; s < kSlots; ++s) {
    if (ArenaIndex(s) == i && seen[s] != counts[s]) {
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

absl::Status ByteArenaStore::CheckInvariants() const {
  for (size_t i = 0; i < arena_count(); ++i) {
    const SlotCounts* current = nullptr;
    absl::Status status = arena_at(i).CheckCopies(
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

}  // namespace

std::unique_ptr<HyperionArenaStore> NewByteArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options) {
  return std::make_unique<ByteArenaStore>(options, arena_options);
}

}  // namespace kvlab::stage5
