// CTrieStore::WithWriteLock, shared by the files that take the write lock.

#ifndef KVLAB_STAGE4_SRC_WITH_WRITE_LOCK_H_
#define KVLAB_STAGE4_SRC_WITH_WRITE_LOCK_H_

#include <atomic>
#include <mutex>
#include <shared_mutex>

#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/rw_spin_lock.h"

namespace kvlab {

template <typename Write>
inline auto CTrieStore::WithWriteLock(Write write) {
  switch (options_.lock) {
    case CTrieOptions::Lock::kGlobal: {
      std::unique_lock<std::shared_mutex> lock(global_mutex_);
      return write();
    }
    case CTrieOptions::Lock::kNode: {
      // Every writer holds the root's lock exclusively for its whole
      // operation (strict two-phase locking from the top), which is what
      // keeps lock-coupled readers from ever seeing half a write.
      stage4::ExclusiveLock lock(&root_lock_);
      return write();
    }
    case CTrieOptions::Lock::kRcu: {
      std::lock_guard<std::mutex> lock(writer_mutex_);
      return write();
    }
    case CTrieOptions::Lock::kNone:
      break;
  }
  return write();
}

}  // namespace kvlab

#endif  // KVLAB_STAGE4_SRC_WITH_WRITE_LOCK_H_
