// ArenaStoreBase: what both partitions of an arena store
// (kvlab/stage5/arena_store.h) share, written once: the arenas themselves
// and the views over all of them (memory, export, the debugging accessors),
// the scan that copies pairs out in batches, the retry of a read or write
// by rank, and the check that every arena holds only its own keys.
//
// A partition (byte_arena_store.cc, balanced_arena_store.cc) says which
// arena holds a key and how ranks map to arenas; everything here works for
// any such routing.
//
// Thread-safe as the arena store: the arenas guard themselves.

#ifndef KVLAB_STAGE5_ARENAS_SRC_ARENA_STORE_BASE_H_
#define KVLAB_STAGE5_ARENAS_SRC_ARENA_STORE_BASE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "arena.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/structure.h"
#include "scan_batch.h"

namespace kvlab::stage5 {

class ArenaStoreBase : public HyperionArenaStore {
 public:
  std::string_view Name() const override { return "hyperion"; }
  bool IsThreadSafe() const override { return true; }
  // Each arena's trie a cluster of its own, one arena at a time under its
  // lock, ids prefixed "arena<i>/"; options' limits apply to each arena
  // alone. InvalidArgument if options.has_from_key.
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

  size_t arena_count() const override { return arenas_.size(); }
  const HyperionStore& arena(size_t i) const override {
    return arenas_[i]->UnlockedTrie();
  }

 protected:
  // arena_options.arenas arenas (clamped to 1..256), each with a lock of
  // arena_options.lock and an empty trie made with `options`.
  ArenaStoreBase(const HyperionOptions& options,
                 const ArenaOptions& arena_options);

  // The bytes of the arenas (each read under its lock) and of their list,
  // for a partition's MemoryUsage to add its own object to.
  size_t ArenaBytes() const;

  // What one try of a read or write by rank found.
  enum class RankTry {
    kDone,     // the pair found, or deleted
    kPast,     // n is past every key (by the counts read)
    kAgain,    // the counts or the routing changed under it: try again
    kMissing,  // a count and its trie disagree: a broken invariant
  };
  // Runs `attempt` until it returns anything but kAgain; true for kDone.
  // Each kAgain follows a write another thread completed (a delete that
  // shrank the arena, a repartition), so the loop ends.
  static bool RetryByRank(absl::FunctionRef<RankTry()> attempt) {
    for (;;) {
      const RankTry result = attempt();
      if (result == RankTry::kAgain) continue;
      assert(result != RankTry::kMissing);
      return result == RankTry::kDone;
    }
  }

  // A Scan that copies up to kScanBatch pairs of one arena under its lock
  // (Fill) and hands them to the visitor holding no lock (Visit), moving
  // its bound past the pairs visited.
  class BatchedScan {
   public:
    BatchedScan(std::string_view start, ScanVisitor visitor)
        : bound_(start), visitor_(visitor) {}
    // Goes on from `start` (a new range's first key): that key is not
    // visited yet.
    void MoveTo(std::string_view start) {
      bound_.assign(start);
      after_ = false;
    }
    std::string_view bound() const { return bound_; }
    // Under the arena's lock: copies the pairs of `trie` from the bound on
    // (past it if it was visited) while in_range(key). Returns true if the
    // batch filled, so the range may hold more.
    template <typename InRange>
    bool Fill(const HyperionStore& trie, InRange in_range) {
      batch_.Clear();
      bool full = false;
      trie.Scan(bound_, [&](std::string_view k, std::string_view v) {
        if (!in_range(k)) return false;
        if (after_ && k == bound_) return true;
        batch_.Add(k, v);
        full = batch_.size() == kScanBatch;
        return !full;
      });
      return full;
    }
    // Without a lock: visits the batch; false once the visitor stops. The
    // bound becomes the last key visited (its successor in key order would
    // be one byte longer, past the longest key a trie takes).
    bool Visit();
    uint64_t visited() const { return visited_; }

   private:
    ScanBatch batch_;
    std::string bound_;
    bool after_ = false;  // bound_ was visited
    ScanVisitor visitor_;
    uint64_t visited_ = 0;
  };

  // Checks one copy of arena i: its trie's own invariants, and that each
  // key's home(key) is i (else InternalError naming the key and its home);
  // calls count(key) for each key. Under the arena's lock.
  static absl::Status CheckArenaKeys(
      size_t i, const HyperionStore& trie,
      absl::FunctionRef<size_t(std::string_view)> home,
      absl::FunctionRef<void(std::string_view)> count);

  Arena& arena_at(size_t i) const { return *arenas_[i]; }

 private:
  std::vector<std::unique_ptr<Arena>> arenas_;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_ARENA_STORE_BASE_H_
