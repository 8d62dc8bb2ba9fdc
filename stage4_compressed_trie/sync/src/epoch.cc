#include "kvlab/stage4/epoch.h"

#include <algorithm>
#include <functional>
#include <thread>

namespace kvlab::stage4 {

size_t EpochReclaimer::Enter() {
  static thread_local const size_t home =
      std::hash<std::thread::id>()(std::this_thread::get_id()) % kSlots;
  size_t slot = home;
  for (size_t tries = 1;; ++tries) {
    uint64_t expected = 0;
    const uint64_t epoch = global_epoch_.load(std::memory_order_seq_cst);
    if (slots_[slot].epoch.compare_exchange_strong(expected, epoch,
                                                   std::memory_order_seq_cst)) {
      // Re-reading the epoch after the claim orders it before every later
      // load of a node pointer: if the writer advanced the epoch before our
      // claim became visible, this load sees the advance, synchronizes with
      // it, and so also sees every unlink made before it.
      (void)global_epoch_.load(std::memory_order_seq_cst);
      return slot;
    }
    slot = (slot + 1) % kSlots;
    if (tries % kSlots == 0) std::this_thread::yield();
  }
}

void EpochReclaimer::Exit(size_t slot) {
  slots_[slot].epoch.store(0, std::memory_order_release);
}

void EpochReclaimer::Reserve(size_t count) {
  if (retired_.capacity() - retired_.size() >= count) return;
  retired_.reserve(std::max(retired_.size() + count, 2 * retired_.capacity()));
}

void EpochReclaimer::Retire(void* object, size_t bytes) {
  retired_.push_back(
      {object, bytes, global_epoch_.load(std::memory_order_relaxed)});
  pending_bytes_ += bytes;
}

void EpochReclaimer::Collect(absl::FunctionRef<void(void*, size_t)> free_fn) {
  if (pending() == 0) return;
  global_epoch_.fetch_add(1, std::memory_order_seq_cst);
  uint64_t oldest = UINT64_MAX;
  for (const Slot& slot : slots_) {
    const uint64_t e = slot.epoch.load(std::memory_order_seq_cst);
    if (e != 0 && e < oldest) oldest = e;
  }
  while (retired_head_ < retired_.size() &&
         retired_[retired_head_].epoch < oldest) {
    const Retired& r = retired_[retired_head_++];
    pending_bytes_ -= r.bytes;
    free_fn(r.object, r.bytes);
  }
  if (retired_head_ == retired_.size()) {
    retired_.clear();
    retired_head_ = 0;
  } else if (retired_head_ > retired_.size() / 2) {
    retired_.erase(retired_.begin(),
                   retired_.begin() + static_cast<ptrdiff_t>(retired_head_));
    retired_head_ = 0;
  }
}

void EpochReclaimer::Synchronize() {
  // A section that claims its slot after the advance below publishes the
  // new epoch or, having read the old one, re-reads it after the claim and
  // so sees everything published before the advance: either way it cannot
  // hold the old version, and only smaller epochs are waited for.
  const uint64_t target = global_epoch_.fetch_add(1) + 1;
  for (const Slot& slot : slots_) {
    int spins = 0;
    for (;;) {
      const uint64_t e = slot.epoch.load(std::memory_order_seq_cst);
      if (e == 0 || e >= target) break;
      if (++spins > 64) std::this_thread::yield();
    }
  }
}

void EpochReclaimer::FreeAll(absl::FunctionRef<void(void*, size_t)> free_fn) {
  for (size_t i = retired_head_; i < retired_.size(); ++i) {
    free_fn(retired_[i].object, retired_[i].bytes);
  }
  retired_.clear();
  retired_head_ = 0;
  pending_bytes_ = 0;
}

}  // namespace kvlab::stage4
