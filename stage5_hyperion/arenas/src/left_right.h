// LeftRight: the concurrency control of Ramalhete and Correia ("Left-Right:
// A Concurrency Control Technique with Wait-Free Population Oblivious
// Reads", 2015) for an object kept in two copies, side 0 and side 1.
// It holds no data, only which side readers go to and who is reading.
//
// A reader enters (Reader), reads the side Reader::side() names and leaves;
// entering and leaving are a fixed number of atomic steps whatever the
// writers and the other readers do (wait-free, population oblivious). A
// writer, alone (its caller serialises writers), changes the hidden side,
// calls Publish to send readers there and wait until no reader is left on
// the other side, then makes the same change to that side, now hidden:
//
//   hidden side: apply the change   (no reader is there)
//   Publish()                       (readers now enter the changed side;
//                                    returns once the others have left)
//   hidden side: apply it again     (the old side, now without readers)
//
// Readers entering during a Publish are counted on one read indicator and
// waited for on the other, so that a steady stream of readers cannot keep
// a writer waiting forever: Publish toggles which indicator new readers
// arrive on, as the technique specifies.
//
// Thread-safe: readers on any threads at once; Publish and hidden() from
// one writer at a time.

#ifndef KVLAB_STAGE5_ARENAS_SRC_LEFT_RIGHT_H_
#define KVLAB_STAGE5_ARENAS_SRC_LEFT_RIGHT_H_

#include <atomic>
#include <cstdint>
#include <thread>

namespace kvlab::stage5 {

class LeftRight {
 public:
  LeftRight() = default;
  LeftRight(const LeftRight&) = delete;
  LeftRight& operator=(const LeftRight&) = delete;

  // A reader's stay, from construction to destruction: side() is not
  // written until it is destroyed.
  class Reader {
   public:
    explicit Reader(const LeftRight* lr)
        : lr_(lr), version_(lr->version_.load(std::memory_order_seq_cst)) {
      // seq_cst: the arrival must be visible before side_ is read, else a
      // writer could miss this reader and change the side it reads.
      lr_->indicators_[version_].readers.fetch_add(1,
                                                   std::memory_order_seq_cst);
      side_ = lr_->left_right_.load(std::memory_order_seq_cst);
    }
    ~Reader() {
      // release: this reader's reads of its side happen before a writer
      // that sees it gone changes that side.
      lr_->indicators_[version_].readers.fetch_sub(1,
                                                   std::memory_order_release);
    }
    Reader(const Reader&) = delete;
    Reader& operator=(const Reader&) = delete;

    int side() const { return side_; }

   private:
    const LeftRight* const lr_;
    const int version_;
    int side_;
  };

  // The side readers enter now; a writer's Publish may change it at once.
  int visible() const { return left_right_.load(std::memory_order_acquire); }
  // For the writer: the side no reader enters, which it may change.
  int hidden() const { return 1 - left_right_.load(std::memory_order_relaxed); }

  // For the writer, having changed the hidden side: sends readers there and
  // returns once no reader is left on the other side, now hidden.
  void Publish() {
    // seq_cst, here and below: the switch must be visible before the
    // writer reads the indicators, else it could miss a reader that read
    // the old side after arriving.
    left_right_.store(hidden(), std::memory_order_seq_cst);
    const int old_version = version_.load(std::memory_order_relaxed);
    const int new_version = 1 - old_version;
    // Readers still on the indicator new readers are about to use arrived
    // before an earlier Publish's toggle; they may be on the old side.
    WaitUntilEmpty(new_version);
    version_.store(new_version, std::memory_order_seq_cst);
    WaitUntilEmpty(old_version);
  }

 private:
  // One counter per version, each on its own cache line.
  struct alignas(64) Indicator {
    std::atomic<int64_t> readers{0};
  };

  void WaitUntilEmpty(int version) const {
    // seq_cst: ordered after the writer's switch (see Publish); acquire
    // pairs with the readers' release on leaving.
    for (int spins = 0;
         indicators_[version].readers.load(std::memory_order_seq_cst) != 0;) {
      // Readers are short, but one may be preempted on a busy machine.
      if (++spins > 64) std::this_thread::yield();
    }
  }

  // The side readers enter.
  std::atomic<int> left_right_{0};
  // The indicator readers arrive on.
  std::atomic<int> version_{0};
  mutable Indicator indicators_[2];
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_LEFT_RIGHT_H_
