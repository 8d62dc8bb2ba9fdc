// ArenaOptions and NewHyperionArenaStore (kvlab/stage5/arena_store.h
// states the contract): the options' parser, and the store of the
// partition they name (byte_arena_store.cc, balanced_arena_store.cc).

#include "kvlab/stage5/arena_store.h"

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "balanced_arena_store.h"
#include "byte_arena_store.h"

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

std::unique_ptr<HyperionArenaStore> NewHyperionArenaStore(
    const HyperionOptions& options, const ArenaOptions& arena_options) {
  if (arena_options.partition == ArenaOptions::Partition::kBalanced) {
    return NewBalancedArenaStore(options, arena_options);
  }
  return NewByteArenaStore(options, arena_options);
}

}  // namespace kvlab::stage5
