// Arena: one part of an arena store (kvlab/stage5/arena_store.h): a whole
// hyperion trie with its own memory manager, the key counts of its slots,
// and the lock that guards them. Under lock=leftright it keeps two such
// copies behind a LeftRight (left_right.h), so that its readers never wait
// for its writer.
//
// The copies are reached only through Read and Write, which run a function
// on a copy while the lock is held (shared for Read, exclusive for Write;
// under leftright a Read holds no lock, only its place on a read
// indicator), so how the arena locks stays out of the code that routes
// keys to arenas.
//
// Thread-safe: every method may be called from any thread at once.

#ifndef KVLAB_STAGE5_ARENAS_SRC_ARENA_H_
#define KVLAB_STAGE5_ARENAS_SRC_ARENA_H_

#include <array>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arena_lock.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"
#include "left_right.h"

namespace kvlab::stage5 {

// Puts the pair into `trie` and returns whether it replaced one; throws
// std::bad_alloc if memory ran out (the only failure a pair the arena store
// already checked meets in a trie), WriteError for any other, the trie as
// it was either way.
inline bool PutOrThrow(HyperionStore& trie, std::string_view key,
                       std::string_view value) {
  const absl::StatusOr<bool> replaced = trie.Put(key, value);
  if (!replaced.ok()) {
    if (absl::IsResourceExhausted(replaced.status())) throw std::bad_alloc();
    throw WriteError(replaced.status());
  }
  return *replaced;
}

// The number of keys in each slot of one copy of an arena: slot 0 counts
// the empty key, slot 1 + b the keys of first byte b (slots in key order).
// Changed only by the copy's writer, holding the arena's lock; read by
// anyone (the arena store's lock-free index of ranks), each count at some
// moment. total() is their sum, kept beside them so that the store's Size
// reads one count per arena instead of 257.
class SlotCounts {
 public:
  static constexpr size_t kSlots = 257;

  uint64_t operator[](size_t s) const {
    return n_[s].load(std::memory_order_relaxed);
  }
  uint64_t total() const { return total_.load(std::memory_order_relaxed); }
  // Only the copy's writer changes it, so a plain add of the loaded value
  // cannot lose an update.
  void Add(size_t s, int64_t delta) {
    n_[s].store((*this)[s] + uint64_t(delta), std::memory_order_relaxed);
    total_.store(total() + uint64_t(delta), std::memory_order_relaxed);
  }
  void CopyFrom(const SlotCounts& other) {
    for (size_t s = 0; s < kSlots; ++s) {
      n_[s].store(other[s], std::memory_order_relaxed);
    }
    total_.store(other.total(), std::memory_order_relaxed);
  }

 private:
  std::array<std::atomic<uint64_t>, kSlots> n_{};
  std::atomic<uint64_t> total_{0};
};

// Aligned to its own cache lines, so that threads locking neighbouring
// arenas do not take the line from each other.
class alignas(64) Arena {
 public:
  // One copy as a write sees it.
  struct Change {
    HyperionStore& trie;
    SlotCounts& counts;
    // The one key whose pair the write may change, set before it changes
    // anything; left unset by a write that changes nothing.
    std::optional<std::string_view> key;
  };

  Arena(ArenaOptions::Lock kind, const HyperionOptions& options) : lock_(kind) {
    copies_[0] = std::make_unique<Copy>(options);
    if (kind == ArenaOptions::Lock::kLeftRight) {
      copies_[1] = std::make_unique<Copy>(options);
      // A failed second apply records its key without allocating.
      pending_key_.reserve(kMaxKeySize);
    }
  }

  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Returns read(trie, counts), a const HyperionStore& and the const
  // SlotCounts of the same copy, or read(trie) if `read` takes the trie
  // alone. Under leftright it may run beside a writer (never on the copy
  // that writer changes) and never waits; otherwise it holds the lock
  // shared: beside other readers, never beside a writer.
  template <typename ReadFn>
  auto Read(ReadFn&& read) const {
    if (copies_[1] == nullptr) {
      ReadLock lock(&lock_);
      return Call(std::forward<ReadFn>(read), *copies_[0]);
    }
    const LeftRight::Reader reader(&left_right_);
    return Call(std::forward<ReadFn>(read), *copies_[reader.side()]);
  }

  // Returns write(change) (an Arena::Change&) from its first call, holding
  // the lock alone. Under leftright `write` is called twice: on the copy no
  // reader uses; then, after readers have been sent to that copy and the
  // last reader of the other has left, on the other. Under the other locks
  // it is called once. So `write` must:
  //   - set change.key before it changes anything, and change nothing but
  //     that key's pair in change.trie and the counts in change.counts;
  //   - on its second call make exactly the change of its first: depend
  //     only on its captures and on the copy, which is then as the first
  //     copy was (it may keep what its first call found, e.g. the key
  //     DeleteNth picked by rank, and use that);
  //   - fail only by throwing, having changed nothing (std::bad_alloc if
  //     memory ran out).
  // A `write` that takes the HyperionStore& alone (a store keeping its own
  // counts, as the balanced partition's) is called once, and not under
  // leftright.
  // If the first call throws, Write throws that, nothing changed. If the
  // second throws, that copy, which no reader sees, keeps the change
  // pending, and the next Write replays it (copies the key's pair and the
  // counts from the copy readers see) before changing that copy. If the
  // replay throws, that Write throws it, having changed nothing.
  template <typename WriteFn>
  auto Write(WriteFn&& write) {
    WriteLock lock(&lock_);
    if constexpr (std::is_invocable_v<WriteFn, HyperionStore&>) {
      assert(copies_[1] == nullptr);
      return std::forward<WriteFn>(write)(*copies_[0]->trie);
    } else {
      if (copies_[1] != nullptr) return WriteBothCopies(write);
      Change change{*copies_[0]->trie, copies_[0]->counts, std::nullopt};
      return write(change);
    }
  }

  // The count of slot s, and of all slots, in the copy readers are sent
  // to now.
  uint64_t VisibleCount(size_t s) const {
    return copies_[left_right_.visible()]->counts[s];
  }
  uint64_t VisibleTotal() const {
    return copies_[left_right_.visible()]->counts.total();
  }

  // Calls check(trie, counts, current) on each copy holding the lock
  // alone; `current` is false for a copy a failed write left behind (its
  // counts match its own trie, but not the other copy's). Returns the
  // first status that is not OK.
  template <typename CheckFn>
  absl::Status CheckCopies(CheckFn&& check) const {
    WriteLock lock(&lock_);
    for (int side : {0, 1}) {
      if (copies_[side] == nullptr) continue;
      const bool current = !(pending_ && side == left_right_.hidden());
      absl::Status status =
          check(std::as_const(*copies_[side]->trie),
                std::as_const(copies_[side]->counts), current);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }

  // Bytes of both copies (their tries' MemoryUsage) and of the arena,
  // holding the lock alone.
  size_t MemoryUsage() const {
    WriteLock lock(&lock_);
    size_t bytes =
        sizeof(*this) + pending_key_.capacity() + pending_value_.capacity();
    for (const auto& copy : copies_) {
      if (copy != nullptr) {
        bytes += sizeof(Copy) + copy->trie->MemoryUsage().value_or(0);
      }
    }
    return bytes;
  }

  // The trie readers are sent to, without the lock, for debugging views
  // while no thread writes (HyperionArenaStore::arena), and for the holder
  // of a Hold.
  const HyperionStore& UnlockedTrie() const {
    return *copies_[left_right_.visible()]->trie;
  }

  // Holds the arena's lock alone for a scope, for a change spanning
  // arenas (a balanced store's repartition holds every arena's).
  class Hold {
   public:
    explicit Hold(Arena* arena) : lock_(&arena->lock_) {}

   private:
    WriteLock lock_;
  };
  // Replaces the trie by `trie` and returns the old one. Only while the
  // caller's Hold of this arena lives, and not under leftright (one trie;
  // the slot counts are left as they were).
  std::unique_ptr<HyperionStore> SwapTrie(
      const Hold&, std::unique_ptr<HyperionStore> trie) noexcept {
    assert(copies_[1] == nullptr);
    copies_[0]->trie.swap(trie);
    return trie;
  }

 private:
  struct Copy {
    explicit Copy(const HyperionOptions& options)
        : trie(NewHyperionStore(options)) {}
    std::unique_ptr<HyperionStore> trie;
    SlotCounts counts;
  };

  template <typename ReadFn>
  static auto Call(ReadFn&& read, const Copy& copy) {
    if constexpr (std::is_invocable_v<ReadFn, const HyperionStore&>) {
      return std::forward<ReadFn>(read)(std::as_const(*copy.trie));
    } else {
      return std::forward<ReadFn>(read)(std::as_const(*copy.trie), copy.counts);
    }
  }

  // Write under leftright, holding the lock.
  template <typename WriteFn>
  auto WriteBothCopies(WriteFn& write) {
    Copy& first = *copies_[left_right_.hidden()];
    CatchUp(&first);
    Change change{*first.trie, first.counts, std::nullopt};
    auto result = write(change);
    if (!change.key.has_value()) return result;
    left_right_.Publish();
    Copy& second = *copies_[left_right_.hidden()];
    Change again{*second.trie, second.counts, std::nullopt};
    try {
      static_cast<void>(write(again));  // the same result as the first
    } catch (...) {
      // Within the reserved capacity: assigning cannot throw.
      pending_key_.assign(*change.key);
      pending_ = true;
    }
    return result;
  }

  // Replays the pending change, if any, onto `hidden` from the copy
  // readers see. Throws, having changed nothing, if that fails.
  void CatchUp(Copy* hidden) {
    if (!pending_) return;
    const Copy& visible = *copies_[left_right_.visible()];
    if (visible.trie->Get(pending_key_, &pending_value_)) {
      PutOrThrow(*hidden->trie, pending_key_, pending_value_);
    } else {
      hidden->trie->Delete(pending_key_);
    }
    hidden->counts.CopyFrom(visible.counts);
    pending_ = false;
  }

  mutable ArenaLock lock_;
  // Side 0 only, or under leftright both sides.
  std::unique_ptr<Copy> copies_[2];
  LeftRight left_right_;
  // Under leftright, whether the hidden copy lacks the change to
  // pending_key_'s pair that the visible one has; pending_value_ is the
  // buffer its replay reads the pair into. Guarded by lock_.
  bool pending_ = false;
  std::string pending_key_;
  std::string pending_value_;
};

// The arenas of an arena store: `count` of them, each with a lock of
// `kind` and an empty trie made with `options`.
inline std::vector<std::unique_ptr<Arena>> MakeArenas(
    size_t count, ArenaOptions::Lock kind, const HyperionOptions& options) {
  std::vector<std::unique_ptr<Arena>> arenas;
  arenas.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    arenas.push_back(std::make_unique<Arena>(kind, options));
  }
  return arenas;
}

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_ARENA_H_
