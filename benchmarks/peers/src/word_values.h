// WordValues: the values of a store whose container keeps one machine word
// per key (JudyL, JudySL), and how that word holds them.
//
// One mode holds for every value of a store:
//
//   inline  every stored value is exactly 8 bytes, and the word IS those
//           bytes (memcpy): no allocation, nothing beside the container.
//           This is how the Hyperion paper measured JudyL and JudySL, on
//           data sets whose values are all 8 bytes.
//   blob    every word points to a ValueBlob ([uint32 length][bytes]) the
//           store owns, so a value of any length fits.
//
// An empty store is inline. The first value that is not 8 bytes long
// switches to blob mode (SwitchToBlobMode, one O(n) pass turning each word
// into a blob); the store stays in blob mode until it is empty again
// (Emptied). So the peers match the paper's 8-byte-value setup, and its
// memory figures, without losing the ability to store any value.
//
// A container slot that reads 0 is how JudyLIns/JudySLIns show a new key.
// In inline mode an all-zero value is the word 0, so WordValues counts the
// zero words stored; while there are any (MayHoldZero), a 0 slot does not
// tell a new key and the store must look the key up before inserting. Blob
// words are pointers, never 0.
//
// Invariants: inline_mode() || zero words == 0; blob_bytes() == 0 in inline
// mode, else the ValueBlob::Footprint of every stored word. Not thread-safe;
// the const members may run concurrently.

#ifndef KVLAB_PEERS_WORD_VALUES_H_
#define KVLAB_PEERS_WORD_VALUES_H_

#include <Judy.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/functional/function_ref.h"

namespace kvlab::peers {

class WordValues {
 public:
  // The length a value must have to live in the word itself.
  static constexpr size_t kInlineSize = sizeof(Word_t);
  static_assert(kInlineSize == 8, "inline values need 64-bit words");

  // Calls its argument once with every slot of the store, in an order that
  // is the same each time the store is unchanged.
  using SlotVisitor = absl::FunctionRef<void(Word_t* slot)>;
  using SlotWalk = absl::FunctionRef<void(SlotVisitor)>;

  bool inline_mode() const { return inline_; }
  // True while a stored word may be 0: a 0 slot then does not mean "new".
  bool MayHoldZero() const { return zero_words_ > 0; }
  // The bytes of every ValueBlob held (0 in inline mode).
  size_t blob_bytes() const { return blob_bytes_; }

  // True if storing `value` needs blob mode and the store is not in it yet;
  // the store must then call SwitchToBlobMode before Make(value).
  bool NeedsSwitch(std::string_view value) const {
    return inline_ && value.size() != kInlineSize;
  }
  // Turns every slot `walk` visits (all the store's words) into a blob and
  // enters blob mode. If an allocation fails, the words converted so far are
  // restored and the exception propagates, leaving the store unchanged.
  void SwitchToBlobMode(SlotWalk walk);

  // Puts `value` in a key's slot: enters blob mode first if `value` needs
  // it (`walk` visits every slot of the store), makes the word, calls
  // `insert` for the key's slot and fills it, releasing the word it held.
  // `insert(may_hold_zero, &inserted)` finds or adds the key (see
  // MayHoldZero) and tells whether it added it. Returns true if the key was
  // present. If an allocation fails (here, or `insert` throws
  // std::bad_alloc having changed nothing), the words and the mode are as
  // they were and the exception propagates.
  using SlotInsert =
      absl::FunctionRef<Word_t*(bool may_hold_zero, bool* inserted)>;
  bool Store(std::string_view value, SlotWalk walk, SlotInsert insert);

  // The word that holds `value` in the current mode (which must fit it),
  // counted as stored. In blob mode this allocates, and may throw before
  // anything changes.
  Word_t Make(std::string_view value);
  // Releases a word the store no longer holds (a replaced or deleted value).
  void Release(Word_t word);
  // The value held in `*slot`; valid while the slot is and holds that word.
  std::string_view View(const Word_t* slot) const;

  // The store holds no value any more: back to inline mode.
  void Emptied();

 private:
  // Turns the first `count` slots `walk` visits from blobs of 8 bytes back
  // into inline words, freeing the blobs; returns how many words are 0.
  static uint64_t BlobsToWords(SlotWalk walk, uint64_t count);

  bool inline_ = true;
  uint64_t zero_words_ = 0;  // stored words equal to 0 (inline mode only)
  size_t blob_bytes_ = 0;
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_WORD_VALUES_H_
