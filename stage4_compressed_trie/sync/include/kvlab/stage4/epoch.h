// EpochReclaimer: deferred freeing for lock-free readers (ctrie:lock=rcu).
//
// A reader enters a read section by publishing the current global epoch in a
// slot of its own, and leaves it by clearing the slot. The writer never frees
// a node it unlinked: it retires it with the epoch current at that moment.
// Now and then (Collect) the writer advances the global epoch and frees every
// retired node whose epoch is below the oldest epoch any active reader
// published; such a reader entered after the node was unlinked, so it cannot
// hold a pointer to it.
//
// Slots are claimed per read section with a compare-and-swap (0 = free), so
// threads need no registration; each thread starts probing at a slot derived
// from its id, which keeps the slot's cache line private to it. At most
// kSlots sections can be open at once; more readers wait for a free slot.
//
// Only seq_cst atomic operations are used (no fences), which ThreadSanitizer
// models exactly: reader "claim slot, then re-read the epoch" against writer
// "advance the epoch, then read the slots" is the classic store-load pattern.
//
// Synchronize is the other half of RCU: a writer that has published a new
// version of a structure waits there until every read section that might
// still see the old version has ended, and may then change the old version
// in place (the wormhole room's two table copies).
//
// Thread safety: Enter/Exit from any thread; Retire/Collect/FreeAll from the
// single writer only; Synchronize from any thread outside a read section.

#ifndef KVLAB_STAGE4_EPOCH_H_
#define KVLAB_STAGE4_EPOCH_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"

namespace kvlab::stage4 {

class EpochReclaimer {
 public:
  static constexpr size_t kSlots = 64;

  EpochReclaimer() = default;
  EpochReclaimer(const EpochReclaimer&) = delete;
  EpochReclaimer& operator=(const EpochReclaimer&) = delete;

  // Opens a read section; returns the slot to pass to Exit.
  size_t Enter();
  void Exit(size_t slot);

  // Writer: makes room to retire `count` more objects without allocating.
  // Throws std::bad_alloc, with nothing changed, if memory runs out.
  void Reserve(size_t count);
  // Writer: `object` (of `bytes` bytes) is unlinked; free it once no reader
  // can hold it. Allocates nothing if Reserve made room for it.
  void Retire(void* object, size_t bytes);
  // Writer: advances the epoch and frees, via `free_fn`, what is safe.
  void Collect(absl::FunctionRef<void(void*, size_t)> free_fn);
  // Returns once every read section opened before the call has ended
  // (sections opened meanwhile do not delay it). Must not be called from
  // inside a read section: it would wait for itself.
  void Synchronize();
  // Writer, with no reader active (destruction): frees everything retired.
  void FreeAll(absl::FunctionRef<void(void*, size_t)> free_fn);

  size_t pending() const { return retired_.size() - retired_head_; }
  size_t pending_bytes() const { return pending_bytes_; }
  // The bytes of the list of retired objects.
  size_t BytesReserved() const { return retired_.capacity() * sizeof(Retired); }

  // RAII read section.
  class Guard {
   public:
    explicit Guard(EpochReclaimer* r) : r_(r), slot_(r->Enter()) {}
    ~Guard() { r_->Exit(slot_); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    EpochReclaimer* r_;
    size_t slot_;
  };

 private:
  struct alignas(64) Slot {
    std::atomic<uint64_t> epoch{0};  // 0 = free
  };
  struct Retired {
    void* object;
    size_t bytes;
    uint64_t epoch;
  };

  alignas(64) std::atomic<uint64_t> global_epoch_{1};
  Slot slots_[kSlots];
  // Writer-only: retired objects in epoch order, [retired_head_, end) live.
  std::vector<Retired> retired_;
  size_t retired_head_ = 0;
  size_t pending_bytes_ = 0;
};

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_EPOCH_H_
