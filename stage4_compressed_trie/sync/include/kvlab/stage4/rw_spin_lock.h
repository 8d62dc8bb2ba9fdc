// A reader-writer spin lock in one 32-bit word, small enough to sit in every
// inner node (ctrie:lock=node); std::shared_mutex would take 56 bytes.
//
// Word: bit 31 = held by a writer, bit 30 = a writer is waiting (new readers
// then hold back, so a stream of readers cannot starve writers), bits 0-29 =
// readers holding it. Waiters spin briefly, then yield the core: critical
// sections here are a few hundred nanoseconds.

#ifndef KVLAB_STAGE4_RW_SPIN_LOCK_H_
#define KVLAB_STAGE4_RW_SPIN_LOCK_H_

#include <atomic>
#include <cstdint>
#include <thread>

namespace kvlab::stage4 {

inline constexpr uint32_t kLockWriter = 1u << 31;
inline constexpr uint32_t kLockWaiting = 1u << 30;

inline void LockBackoff(int* spins) {
  if (++*spins > 64) std::this_thread::yield();
}

inline void LockShared(std::atomic_ref<uint32_t> word) {
  // handout: LockShared -> #three-locking-designs
  int spins = 0;
  for (;;) {
    uint32_t v = word.load(std::memory_order_relaxed);
    if ((v & (kLockWriter | kLockWaiting)) == 0 &&
        word.compare_exchange_weak(v, v + 1, std::memory_order_acquire)) {
      return;
    }
    LockBackoff(&spins);
  }
  // handout: end
}

inline void UnlockShared(std::atomic_ref<uint32_t> word) {
  word.fetch_sub(1, std::memory_order_release);
}

inline void LockExclusive(std::atomic_ref<uint32_t> word) {
  // handout: LockExclusive -> #three-locking-designs
  int spins = 0;
  for (;;) {
    uint32_t v = word.load(std::memory_order_relaxed);
    if ((v & ~kLockWaiting) == 0) {
      if (word.compare_exchange_weak(v, kLockWriter,
                                     std::memory_order_acquire)) {
        return;
      }
    } else if ((v & kLockWaiting) == 0) {
      word.fetch_or(kLockWaiting, std::memory_order_relaxed);
    }
    LockBackoff(&spins);
  }
  // handout: end
}

// Clears the waiting bit too; a writer still waiting sets it again.
inline void UnlockExclusive(std::atomic_ref<uint32_t> word) {
  word.store(0, std::memory_order_release);
}

// Holders of a lock word's lock for a scope, so that the lock is released
// however the scope ends (an exception included).
class SharedLock {
 public:
  explicit SharedLock(uint32_t* word) : word_(*word) { LockShared(word_); }
  ~SharedLock() { UnlockShared(word_); }
  SharedLock(const SharedLock&) = delete;
  SharedLock& operator=(const SharedLock&) = delete;

 private:
  const std::atomic_ref<uint32_t> word_;
};

class ExclusiveLock {
 public:
  explicit ExclusiveLock(uint32_t* word) : word_(*word) {
    LockExclusive(word_);
  }
  ~ExclusiveLock() { UnlockExclusive(word_); }
  ExclusiveLock(const ExclusiveLock&) = delete;
  ExclusiveLock& operator=(const ExclusiveLock&) = delete;

 private:
  const std::atomic_ref<uint32_t> word_;
};

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_RW_SPIN_LOCK_H_
