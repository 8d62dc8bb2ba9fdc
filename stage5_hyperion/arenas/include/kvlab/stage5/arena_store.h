// HyperionArenaStore (`hyperion:arenas=N`): hyperion split into N arenas
// that serve threads in parallel (Mäsker et al., "Hyperion: Building the
// Largest In-memory Search Tree", SIGMOD 2019, section 3.3; design in
// docs/stage5_hyperion.md, "Arenas and concurrency").
//
// Partitions (ArenaOptions::partition):
//   byte      a key belongs to the arena of its first byte: byte b to
//             arena b mod N, the empty key to arena 0 (the paper's).
//   balanced  arena i holds the contiguous key range [split(i-1),
//             split(i)); the splits are chosen from the stored keys so that
//             the arenas hold about equal shares, and chosen again as the
//             store grows (repartitions()), so keys sharing long prefixes
//             spread over every arena too.
// Each arena is a whole hyperion trie
// (hyperion_store.h) with its own memory manager and its own lock
// (ArenaOptions::lock), so operations on different arenas run in parallel
// and never touch each other's memory. Ordered like hyperion: the store
// keeps the number of keys of every first byte (with balanced: of every
// arena), so GetNth and DeleteNth find the arena and the rank in it without
// visiting the others, and Scan visits the first bytes (the arenas) in
// order.
//
// Thread-safe: every method may be called from any thread at once. Get,
// Put, Delete and DeleteNth are atomic. The readers that span arenas
// promise, while other threads write:
//   - GetNth returns a pair that was stored at some moment during the call
//     (read whole under its arena's lock, never torn); its rank n counts
//     the keys of each first byte as they were at some moment during the
//     call, not necessarily the same moment. Without concurrent writes it
//     is exactly the n-th pair.
//   - Scan visits keys in strictly ascending order, none twice; each pair
//     visited was stored at some moment during the call, and each key
//     stored throughout the call is visited (if the visitor goes on that
//     far). It copies up to kScanBatch pairs at a time under the arena's
//     lock and calls the visitor holding no lock, so a slow visitor delays
//     no writer (and a visitor that writes to the store cannot deadlock,
//     though kv_store.h still forbids it).
//   - Size is the sum of the first bytes' counts, each read at some
//     moment during the call; exact without concurrent writes.
//   - MemoryUsage, CheckInvariants and ExportStructure look at one arena
//     at a time under its lock (under leftright, MemoryUsage and
//     CheckInvariants take its writers' lock and count or check both
//     copies). ExportStructure draws each arena as a
//     cluster, its options' limits applying to each arena alone.
// With balanced, "first byte" above reads "arena": GetNth's counts are all
// of one routing table, and a reader that finds the table changed under it
// starts again from where it was. A repartition holds every arena's lock
// while it moves keys, so no call sees a key in two arenas or in none;
// only Size, reading the counts without a lock, may count the keys it
// moved twice or not at all.
// Out of memory: as hyperion, per arena (an arena's failed write leaves the
// store exactly as it was). A repartition that finds no memory does not
// happen: the store stays as it was, and the Put that set it off keeps its
// own outcome. Under leftright a write that finds no memory for its second
// copy still succeeds (readers already see the first); the arena's next
// write replays it onto that copy first, and fails, changing nothing, if
// the replay finds no memory either.

#ifndef KVLAB_STAGE5_ARENA_STORE_H_
#define KVLAB_STAGE5_ARENA_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/store_options.h"

namespace kvlab::stage5 {

struct ArenaOptions {
  // 1..256: the 256 first bytes are dealt round-robin onto this many
  // arenas.
  uint32_t arenas = 1;
  // The lock of each arena: kSpin, the paper's spin lock, taken
  // exclusively by readers too; kRw, a reader-writer lock
  // (std::shared_mutex); kMutex, std::mutex; kLeftRight, two copies of the
  // arena kept by the left-right technique (Ramalhete and Correia,
  // "Left-Right: A Concurrency Control Technique with Wait-Free Population
  // Oblivious Reads", 2015): readers never wait, writers (serialised by a
  // std::mutex) change both copies, and the arena takes twice the memory.
  enum class Lock { kSpin, kRw, kMutex, kLeftRight };
  Lock lock = Lock::kSpin;
  // Which keys each arena holds (the file comment): kByte, by first byte;
  // kBalanced, contiguous ranges chosen from the stored keys.
  enum class Partition { kByte, kBalanced };
  Partition partition = Partition::kByte;

  // From spec options "arenas", "lock" (spin|rw|mutex|leftright) and
  // "partition" (byte|balanced); InvalidArgument on a bad value, or on
  // leftright with balanced (a balanced store checks its routing under the
  // arena's lock, which left-right readers do not take).
  static absl::StatusOr<ArenaOptions> FromStoreOptions(
      const StoreOptions& options);
};

class HyperionArenaStore : public KVStore {
 public:
  // Pairs Scan copies out of an arena per acquisition of its lock.
  static constexpr size_t kScanBatch = 64;

  virtual size_t arena_count() const = 0;
  // Arena `i` (< arena_count()): a hyperion trie holding the keys whose
  // first byte is i mod arena_count() (and, in arena 0, the empty key), or
  // with balanced the keys of its range. For debugging views (DebugString,
  // DumpContainer, memory()) only while no thread writes to this store:
  // the reference bypasses the lock.
  virtual const HyperionStore& arena(size_t i) const = 0;
  // Times a balanced store chose its splits again (0 with byte).
  virtual uint64_t repartitions() const = 0;

 protected:
  HyperionArenaStore() = default;
};

std::unique_ptr<HyperionArenaStore> NewHyperionArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENA_STORE_H_
