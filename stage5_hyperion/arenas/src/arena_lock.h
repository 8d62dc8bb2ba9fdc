// ArenaLock: the lock of one arena of an arena store (arena_store.h), of the
// kind its options choose:
//   spin   one flag; readers and writers alike take it exclusively. The
//          paper's choice (Mäsker et al., SIGMOD 2019, section 3.3): an
//          uncontended acquire and release are one atomic exchange and one
//          store.
//   rw     std::shared_mutex: readers of one arena run in parallel, writers
//          alone.
//   mutex  std::mutex: exclusive like spin, but a waiter sleeps in the
//          kernel instead of spinning.
//   leftright  std::mutex for writers; readers take no lock at all (the
//          arena keeps two copies and a LeftRight, left_right.h, instead),
//          so LockShared and UnlockShared do nothing.
//
// Thread-safe. Not reentrant.

#ifndef KVLAB_STAGE5_ARENAS_SRC_ARENA_LOCK_H_
#define KVLAB_STAGE5_ARENAS_SRC_ARENA_LOCK_H_

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <thread>

#include "kvlab/stage5/arena_store.h"

namespace kvlab::stage5 {

// A test-and-test-and-set lock. A waiter reads the flag until it looks free
// before it tries the exchange (so waiting keeps the line shared, not
// bouncing), and yields its core after a few dozen tries: on a machine with
// fewer cores than threads the holder may be the one waiting for the core.
class SpinLock {
 public:
  void lock() {
    for (int spins = 0;;) {
      if (!held_.exchange(true, std::memory_order_acquire)) return;
      while (held_.load(std::memory_order_relaxed)) {
        if (++spins > 64) std::this_thread::yield();
      }
    }
  }
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

class ArenaLock {
 public:
  using Kind = ArenaOptions::Lock;

  explicit ArenaLock(Kind kind) : kind_(kind) {}

  void LockShared() {
    switch (kind_) {
      case Kind::kSpin:
        return spin_.lock();
      case Kind::kRw:
        return rw_.lock_shared();
      case Kind::kMutex:
        return mutex_.lock();
      case Kind::kLeftRight:
        return;
    }
  }
  void UnlockShared() {
    switch (kind_) {
      case Kind::kSpin:
        return spin_.unlock();
      case Kind::kRw:
        return rw_.unlock_shared();
      case Kind::kMutex:
        return mutex_.unlock();
      case Kind::kLeftRight:
        return;
    }
  }
  void Lock() {
    switch (kind_) {
      case Kind::kSpin:
        return spin_.lock();
      case Kind::kRw:
        return rw_.lock();
      case Kind::kMutex:
      case Kind::kLeftRight:
        return mutex_.lock();
    }
  }
  void Unlock() {
    switch (kind_) {
      case Kind::kSpin:
        return spin_.unlock();
      case Kind::kRw:
        return rw_.unlock();
      case Kind::kMutex:
      case Kind::kLeftRight:
        return mutex_.unlock();
    }
  }

 private:
  const Kind kind_;
  SpinLock spin_;
  std::shared_mutex rw_;
  std::mutex mutex_;
};

// Holders of an ArenaLock for a scope, released however the scope ends.
class ReadLock {
 public:
  explicit ReadLock(ArenaLock* lock) : lock_(lock) { lock_->LockShared(); }
  ~ReadLock() { lock_->UnlockShared(); }
  ReadLock(const ReadLock&) = delete;
  ReadLock& operator=(const ReadLock&) = delete;

 private:
  ArenaLock* const lock_;
};

class WriteLock {
 public:
  explicit WriteLock(ArenaLock* lock) : lock_(lock) { lock_->Lock(); }
  ~WriteLock() { lock_->Unlock(); }
  WriteLock(const WriteLock&) = delete;
  WriteLock& operator=(const WriteLock&) = delete;

 private:
  ArenaLock* const lock_;
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_ARENA_LOCK_H_
