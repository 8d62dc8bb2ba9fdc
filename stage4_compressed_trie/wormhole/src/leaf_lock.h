// Taking a leaf's reader-writer lock (kvlab/stage4/rw_spin_lock.h), and a
// holder that releases it however a scope ends.

#ifndef KVLAB_STAGE4_WORMHOLE_SRC_LEAF_LOCK_H_
#define KVLAB_STAGE4_WORMHOLE_SRC_LEAF_LOCK_H_

#include <atomic>

#include "kvlab/stage4/rw_spin_lock.h"
#include "leaf.h"

namespace kvlab::stage4::wormhole {

inline void LockLeaf(Leaf* leaf, bool exclusive) {
  if (exclusive) {
    LockExclusive(std::atomic_ref<uint32_t>(leaf->lock));
  } else {
    LockShared(std::atomic_ref<uint32_t>(leaf->lock));
  }
}

inline void UnlockLeaf(Leaf* leaf, bool exclusive) {
  if (exclusive) {
    UnlockExclusive(std::atomic_ref<uint32_t>(leaf->lock));
  } else {
    UnlockShared(std::atomic_ref<uint32_t>(leaf->lock));
  }
}

// Holds an already locked leaf's lock until Release, Reset or the end of
// the scope.
class HeldLeaf {
 public:
  HeldLeaf(Leaf* leaf, bool exclusive) : leaf_(leaf), exclusive_(exclusive) {}
  ~HeldLeaf() {
    if (leaf_ != nullptr) UnlockLeaf(leaf_, exclusive_);
  }
  HeldLeaf(const HeldLeaf&) = delete;
  HeldLeaf& operator=(const HeldLeaf&) = delete;

  Leaf* get() const { return leaf_; }
  // Unlocks now.
  void Unlock() {
    UnlockLeaf(leaf_, exclusive_);
    leaf_ = nullptr;
  }
  // Takes over another locked leaf (same mode), unlocking this one.
  void Reset(Leaf* leaf) {
    if (leaf_ != nullptr) UnlockLeaf(leaf_, exclusive_);
    leaf_ = leaf;
  }

 private:
  Leaf* leaf_;
  bool exclusive_;
};

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_LEAF_LOCK_H_
