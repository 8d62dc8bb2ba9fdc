// What the stage-5 memory manager does with a page of a bin once every
// chunk with bytes in it is free.
#ifndef KVLAB_STAGE5_FREE_PAGE_POLICY_H_
#define KVLAB_STAGE5_FREE_PAGE_POLICY_H_

namespace kvlab::stage5 {

enum class FreePagePolicy {
  // Each superbin keeps the last such page resident (its idle page) and
  // returns the one before: a page freed while containers grow into the
  // next size class is mostly taken again before the superbin frees
  // another, and keeping it spares a madvise, a TLB flush on every core
  // the process runs on, and a page fault with zeroing. At most one page
  // per superbin, 256 KiB per manager.
  kKeepLastPerSuperbin,
  // Every such page goes back at once.
  kReturnAtOnce,
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_FREE_PAGE_POLICY_H_
