// The balanced arena store: N hyperion tries over contiguous key ranges,
// routed by a RoutingTable (range_partition.h) that is chosen again as the
// store grows.
//
// Invariants (CheckInvariants): under table T = partition_.current(), arena
// i's trie holds exactly the stored keys of T's range i, and counts_[i]
// equals its size. Both change only under arena i's lock (a repartition
// holds every arena's), so under that lock they are exact for arena i.
//
// Routing without a global lock: an operation reads the current table,
// locks the arena it names, and checks, under that lock, that the table is
// still current; if not, it starts again. A repartition swaps tables only
// while holding every arena's lock, so a table still current under one of
// them is the one the arena's contents match. Tables are never freed while
// the store lives (RangePartition), so a thread reading a stale table
// reads valid memory, and no reference count is touched per operation.
//
// When: a Put into an arena that then holds more than twice its share at
// the last repartition (RoutingTable::limit) asks, at every N-th such Put
// of that arena, whether the store has grown by half since then; if so it
// repartitions. A repartition costs O(n) (it rebuilds at most every arena)
// and follows at least n/3 inserts, so it costs O(1) per insert amortised;
// the size grows by half from one to the next, so there are O(log n)
// tables. A store that keeps its size while its keys drift is not
// repartitioned again.

#include "balanced_arena_store.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "arena.h"
#include "arena_store_base.h"
#include "range_partition.h"

namespace kvlab::stage5 {
namespace {

// One arena's key count, on a cache line of its own.
struct alignas(64) ArenaCount {
  std::atomic<uint64_t> keys{0};
  // Puts that left the arena over its table's limit; every N-th of them
  // asks whether to repartition.
  std::atomic<uint64_t> over{0};
};

// Whether arena i covers the same key range in tables a and b.
bool SameRange(const RoutingTable& a, const RoutingTable& b, size_t i) {
  const size_t last = a.arenas() - 1;
  return a.Low(i) == b.Low(i) && (i == last || a.splits()[i] == b.splits()[i]);
}

class BalancedArenaStore final : public ArenaStoreBase {
 public:
  BalancedArenaStore(const HyperionOptions& options,
                     const ArenaOptions& arena_options)
      : ArenaStoreBase(options, arena_options),
        options_(options),
        partition_(arena_count()),
        counts_(arena_count()) {}

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override {
    uint64_t size = 0;
    for (const ArenaCount& c : counts_) {
      size += c.keys.load(std::memory_order_relaxed);
    }
    return size;
  }
  std::optional<size_t> MemoryUsage() const override {
    return sizeof(*this) + ArenaBytes() +
           counts_.capacity() * sizeof(ArenaCount);
  }
  absl::Status CheckInvariants() const override;

  uint64_t repartitions() const override {
    return repartitions_.load(std::memory_order_relaxed);
  }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Returns fn(trie, arena) for the arena of `key` under the current
  // table, called under that arena's lock (shared if fn takes a const
  // trie) while that table is current. Sets *table to that table if given.
  template <typename Fn>
  auto Routed(std::string_view key, Fn&& fn,
              const RoutingTable** table = nullptr) const;
  // The arena holding the n-th key by the counts as read now under `t`,
  // and the rank there; false if n is past them all.
  bool FindArena(uint64_t n, size_t* arena, uint64_t* rest) const {
    for (size_t a = 0; a < arena_count(); ++a) {
      const uint64_t c = counts_[a].keys.load(std::memory_order_relaxed);
      if (n < c) {
        *arena = a;
        *rest = n;
        return true;
      }
      n -= c;
    }
    return false;
  }
  // Under arena a's lock. Stores the count rather than adding to it, so
  // that running it again for the same write changes nothing.
  void SetCount(size_t a, const HyperionStore& trie) const {
    counts_[a].keys.store(trie.Size(), std::memory_order_relaxed);
  }
  // Repartitions if `t` is still current and the store has grown by half
  // since it was chosen. Takes every arena's lock. Finding no memory, it
  // leaves the store as it was.
  void MaybeRepartition(const RoutingTable* t);
  // The new tries of the arenas whose range `next` changes from `t` (null
  // for the others), filled from the current tries; under every lock.
  // Throws std::bad_alloc, the current tries unchanged.
  std::vector<std::unique_ptr<HyperionStore>> Rebuild(
      const RoutingTable& t, const RoutingTable& next) const;

  const HyperionOptions options_;
  RangePartition partition_;
  mutable std::vector<ArenaCount> counts_;
  std::atomic<uint64_t> repartitions_{0};
};

template <typename Fn>
auto BalancedArenaStore::Routed(std::string_view key, Fn&& fn,
                                const RoutingTable** table) const {
  for (;;) {
    const RoutingTable* t = partition_.current();
    const size_t a = t->ArenaOf(key);
    auto run = [&](auto& trie) {
      using Result = decltype(fn(trie, a));
      if (partition_.current() != t) return std::optional<Result>();
      return std::optional<Result>(fn(trie, a));
    };
    constexpr bool kReads =
        std::is_invocable_v<Fn, const HyperionStore&, size_t>;
    auto result = [&] {
      if constexpr (kReads) {
        return arena_at(a).Read(run);
      } else {
        return arena_at(a).Write(run);
      }
    }();
    if (result.has_value()) {
      if (table != nullptr) *table = t;
      return *std::move(result);
    }
  }
}

bool BalancedArenaStore::GetImpl(std::string_view key,
                                 std::string* value) const {
  return Routed(key, [&](const HyperionStore& trie, size_t) {
    return trie.Get(key, value);
  });
}

bool BalancedArenaStore::DeleteImpl(std::string_view key) {
  return Routed(key, [&](HyperionStore& trie, size_t a) {
    const bool deleted = trie.Delete(key);
    SetCount(a, trie);
    return deleted;
  });
}

bool BalancedArenaStore::PutImpl(std::string_view key, std::string_view value) {
  struct Outcome {
    bool replaced;
    size_t arena;
    uint64_t keys;
  };
  const RoutingTable* t = nullptr;
  const Outcome o = Routed(
      key,
      [&](HyperionStore& trie, size_t a) {
        Outcome out{PutOrThrow(trie, key, value), a, 0};
        SetCount(a, trie);
        out.keys = trie.Size();
        return out;
      },
      &t);
  if (!o.replaced && o.keys > t->limit() && arena_count() > 1 &&
      counts_[o.arena].over.fetch_add(1, std::memory_order_relaxed) %
              arena_count() ==
          0) {
    MaybeRepartition(t);
  }
  return o.replaced;
}

void BalancedArenaStore::MaybeRepartition(const RoutingTable* t) {
  // Grown by half since t? Asked first without locks, then again under
  // them.
  if (Size() * 2 < t->size() * 3) return;
  try {
    // The old tries die after the holds (declared first): freeing them
    // delays no one.
    std::vector<std::unique_ptr<HyperionStore>> old(arena_count());
    std::vector<std::optional<Arena::Hold>> holds(arena_count());
    // In index order, as every thread that takes more than one lock: no
    // deadlock.
    for (size_t i = 0; i < arena_count(); ++i) holds[i].emplace(&arena_at(i));
    if (partition_.current() != t) return;  // another thread was first
    std::vector<uint64_t> counts(arena_count());
    uint64_t size = 0;
    for (size_t i = 0; i < arena_count(); ++i) {
      counts[i] = arena_at(i).UnlockedTrie().Size();
      size += counts[i];
    }
    if (size * 2 < t->size() * 3) return;
    auto key_at = [&](uint64_t rank) {
      size_t a = 0;
      while (rank >= counts[a]) rank -= counts[a++];
      std::string key;
      const bool found = arena_at(a).UnlockedTrie().GetNth(rank, &key, nullptr);
      assert(found);
      (void)found;
      return key;
    };
    auto next = std::make_unique<RoutingTable>(
        ChooseSplits(*t, counts, size, key_at), size);
    std::vector<std::unique_ptr<HyperionStore>> fresh = Rebuild(*t, *next);
    partition_.Reserve();
    // From here on nothing fails.
    for (size_t i = 0; i < arena_count(); ++i) {
      if (fresh[i] != nullptr) {
        old[i] = arena_at(i).SwapTrie(*holds[i], std::move(fresh[i]));
        SetCount(i, arena_at(i).UnlockedTrie());
      }
      counts_[i].over.store(0, std::memory_order_relaxed);
    }
    partition_.Publish(std::move(next));
    repartitions_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::bad_alloc&) {
    // Nothing swapped yet: the store is as it was, and the Put that set
    // this off keeps its outcome. The next Put over the limit asks again.
  }
}

std::vector<std::unique_ptr<HyperionStore>> BalancedArenaStore::Rebuild(
    const RoutingTable& t, const RoutingTable& next) const {
  std::vector<std::unique_ptr<HyperionStore>> fresh(arena_count());
  for (size_t i = 0; i < arena_count(); ++i) {
    if (SameRange(t, next, i)) continue;
    fresh[i] = NewHyperionStore(options_);
    absl::Status status;
    // The keys of the new range lie in a run of old arenas from the one of
    // its smallest key on.
    for (size_t j = t.ArenaOf(next.Low(i)); j < arena_count(); ++j) {
      bool past = false;
      arena_at(j).UnlockedTrie().Scan(
          next.Low(i), [&](std::string_view k, std::string_view v) {
            if (!next.Holds(i, k)) {
              past = true;
              return false;
            }
            absl::StatusOr<bool> put = fresh[i]->Put(k, v);
            if (!put.ok()) status = put.status();
            return put.ok();
          });
      if (!status.ok()) {
        // Keys and values came from a trie, so only memory can be short.
        assert(absl::IsResourceExhausted(status));
        throw std::bad_alloc();
      }
      if (past) break;
    }
  }
  return fresh;
}

bool BalancedArenaStore::GetNth(uint64_t n, std::string* key,
                                std::string* value) const {
  return RetryByRank([&] {
    const RoutingTable* t = partition_.current();
    size_t a;
    uint64_t rest;
    if (!FindArena(n, &a, &rest)) return RankTry::kPast;
    return arena_at(a).Read([&](const HyperionStore& trie) {
      // A repartition since t, or a delete that shrank the arena since
      // FindArena read its count: look again.
      if (partition_.current() != t || rest >= trie.Size()) {
        return RankTry::kAgain;
      }
      return trie.GetNth(rest, key, value) ? RankTry::kDone : RankTry::kMissing;
    });
  });
}

bool BalancedArenaStore::DeleteNth(uint64_t n) {
  return RetryByRank([&] {
    const RoutingTable* t = partition_.current();
    size_t a;
    uint64_t rest;
    if (!FindArena(n, &a, &rest)) return RankTry::kPast;
    return arena_at(a).Write([&](HyperionStore& trie) {
      if (partition_.current() != t || rest >= trie.Size()) {
        return RankTry::kAgain;
      }
      const bool deleted = trie.DeleteNth(rest);
      SetCount(a, trie);
      return deleted ? RankTry::kDone : RankTry::kMissing;
    });
  });
}

uint64_t BalancedArenaStore::Scan(std::string_view start,
                                  ScanVisitor visitor) const {
  BatchedScan scan(start, visitor);
  enum Outcome { kMore, kDone, kAgain };
  for (;;) {
    const RoutingTable* t = partition_.current();
    size_t a = t->ArenaOf(scan.bound());
    Outcome outcome = kDone;
    while (a < arena_count()) {
      outcome = arena_at(a).Read([&](const HyperionStore& trie) {
        if (partition_.current() != t) return kAgain;
        return scan.Fill(trie, [](std::string_view) { return true; }) ? kMore
                                                                      : kDone;
      });
      // Keys from the bound on are still to come, under whatever table is
      // current by then.
      if (outcome == kAgain) break;
      if (!scan.Visit()) return scan.visited();
      if (outcome == kDone && ++a < arena_count()) scan.MoveTo(t->Low(a));
    }
    if (outcome != kAgain) return scan.visited();
  }
}

absl::Status BalancedArenaStore::CheckInvariants() const {
  for (size_t i = 0; i < arena_count(); ++i) {
    absl::Status status = arena_at(i).Read([&](const HyperionStore& trie) {
      // The table current under this lock is the one the arena matches.
      const RoutingTable* t = partition_.current();
      uint64_t seen = 0;
      absl::Status keys = CheckArenaKeys(
          i, trie, [t](std::string_view k) { return t->ArenaOf(k); },
          [&](std::string_view) { ++seen; });
      if (!keys.ok()) return keys;
      const uint64_t counted = counts_[i].keys.load(std::memory_order_relaxed);
      if (seen != trie.Size() || seen != counted) {
        return absl::InternalError(
            absl::StrCat("arena ", i, " holds ", seen, " keys, its trie says ",
                         trie.Size(), ", counted ", counted));
      }
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace

std::unique_ptr<HyperionArenaStore> NewBalancedArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options) {
  return std::make_unique<BalancedArenaStore>(options, arena_options);
}

}  // namespace kvlab::stage5
