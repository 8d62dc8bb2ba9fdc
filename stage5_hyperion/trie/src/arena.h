// Arena: one part of an arena store (kvlab/stage5/arena_store.h), a whole
// hyperion trie with its own memory manager, and the lock that guards it.
//
// The trie is reached only through Read and Write, which run a function on
// it while the lock is held (shared for Read, exclusive for Write), so how
// the lock works stays out of the code that routes keys to arenas.
//
// Thread-safe: Read and Write may be called from any thread at once.

#ifndef KVLAB_STAGE5_TRIE_SRC_ARENA_H_
#define KVLAB_STAGE5_TRIE_SRC_ARENA_H_

#include <memory>
#include <utility>

#include "arena_lock.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/hyperion_store.h"

namespace kvlab::stage5 {

// Aligned to its own cache lines, so that threads locking neighbouring
// arenas do not take the line from each other.
class alignas(64) Arena {
 public:
  Arena(ArenaOptions::Lock kind, const HyperionOptions& options)
      : lock_(kind), trie_(NewHyperionStore(options)) {}

  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  // Returns read(trie), a const HyperionStore&, called under a shared hold
  // of the lock: it may run beside other readers, never beside a writer.
  template <typename ReadFn>
  auto Read(ReadFn&& read) const {
    ReadLock lock(&lock_);
    return std::forward<ReadFn>(read)(std::as_const(*trie_));
  }

  // Returns write(trie), a HyperionStore&, called holding the lock alone.
  template <typename WriteFn>
  auto Write(WriteFn&& write) {
    WriteLock lock(&lock_);
    return std::forward<WriteFn>(write)(*trie_);
  }

  // The trie without the lock, for debugging views while no thread writes
  // (HyperionArenaStore::arena).
  const HyperionStore& UnlockedTrie() const { return *trie_; }

 private:
  mutable ArenaLock lock_;
  const std::unique_ptr<HyperionStore> trie_;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_TRIE_SRC_ARENA_H_
