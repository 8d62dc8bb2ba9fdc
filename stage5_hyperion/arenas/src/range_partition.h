// The routing of a balanced arena store (`hyperion:arenas=N:partition=
// balanced`, kvlab/stage5/arena_store.h): arena i owns the contiguous key
// range [split(i-1), split(i)), the first arena from the empty key, the
// last to past every key. A RoutingTable is one such choice of N-1 split
// keys; RangePartition publishes the current one and keeps every table it
// ever published, so that a thread still reading an old table never reads
// freed memory; ChooseSplits picks new splits from the stored keys.

#ifndef KVLAB_STAGE5_ARENAS_SRC_RANGE_PARTITION_H_
#define KVLAB_STAGE5_ARENAS_SRC_RANGE_PARTITION_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kvlab::stage5 {

// N-1 nondecreasing split keys and the size of the store when they were
// chosen. Immutable, so any number of threads may read it at once.
class RoutingTable {
 public:
  // `splits` must be nondecreasing; arenas() is splits.size() + 1.
  RoutingTable(std::vector<std::string> splits, uint64_t size);

  // The first bytes 0..255 dealt in N equal runs: the table of an empty
  // store, N in 1..256.
  static RoutingTable ByFirstByte(size_t arenas);

  size_t arenas() const { return splits_.size() + 1; }
  // The arena whose range holds `key`: the number of splits <= key.
  size_t ArenaOf(std::string_view key) const;
  // Whether arena i's range holds `key`.
  bool Holds(size_t i, std::string_view key) const {
    return (i == 0 || splits_[i - 1] <= key) &&
           (i + 1 == arenas() || key < splits_[i]);
  }
  // The smallest key of arena i's range ("" for arena 0).
  std::string_view Low(size_t i) const {
    return i == 0 ? std::string_view() : splits_[i - 1];
  }
  const std::vector<std::string>& splits() const { return splits_; }
  // Keys stored when the table was chosen.
  uint64_t size() const { return size_; }
  // An arena holding more keys than this is over twice its share of the
  // store (of size() or of kMinShare keys per arena, whichever is more).
  uint64_t limit() const { return limit_; }

  // Below this many keys per arena no store is worth repartitioning.
  static constexpr uint64_t kMinShare = 4;

 private:
  std::vector<std::string> splits_;
  uint64_t size_;
  uint64_t limit_;
};

// The current RoutingTable, read by any thread without a lock, and every
// table published before it.
//
// Thread-safety: current() from any thread at any time. Reserve and
// Publish only by a thread that excludes every other such thread (the
// store calls them holding every arena's lock). A table read through
// current() stays valid until the RangePartition is destroyed: tables are
// never freed before, which is what lets readers go without a reference
// count. Their number stays small because the store publishes a table
// only when it has grown by half since the last one (balanced_arena_store
// .cc), O(log n) tables of N-1 short keys.
class RangePartition {
 public:
  explicit RangePartition(size_t arenas);

  const RoutingTable* current() const {
    return current_.load(std::memory_order_acquire);
  }
  // Makes room for one more table, so that Publish cannot fail. Throws
  // std::bad_alloc, having changed nothing.
  void Reserve() { tables_.reserve(tables_.size() + 1); }
  // Makes `table` current. After Reserve; does not throw.
  void Publish(std::unique_ptr<const RoutingTable> table) noexcept;
  // Tables published after the first.
  uint64_t repartitions() const { return tables_.size() - 1; }

 private:
  std::vector<std::unique_ptr<const RoutingTable>> tables_;
  std::atomic<const RoutingTable*> current_;
};

// New split keys for a store of `size` keys routed by `old`, arena i
// holding counts[i] of them; key_at(r) returns the key of rank r < size.
// Split i goes before the key of rank (i+1)*size/N, unless old split i
// already lies within size/(4N) ranks of there: a split kept keeps both its
// arenas as they are. A new split is the shortest prefix of the key at its
// rank that is greater than the key before (the separator of a B-tree's
// inner node), so a split is as long as needed to tell two keys apart and
// no longer (urls share their first 11 bytes). The result is nondecreasing.
std::vector<std::string> ChooseSplits(
    const RoutingTable& old, const std::vector<uint64_t>& counts, uint64_t size,
    const std::function<std::string(uint64_t)>& key_at);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_RANGE_PARTITION_H_
