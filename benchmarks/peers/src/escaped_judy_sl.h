// EscapedJudySL: a JudySL array (libJudy's ordered map from NUL-terminated
// strings to one machine word) that accepts any byte string as a key.
//
// JudySL ends a key at its first NUL byte, so keys are escaped before they
// reach it, with a code that keeps their order:
//
//   byte 0x00  ->  0x01 0x01
//   byte 0x01  ->  0x01 0x02
//   byte b>=2  ->  b
//
// The codes are prefix-free and ordered like the bytes they stand for
// ("\1\1" < "\1\2" < "\2" < ... < "\xff"), so escaped keys compare in
// unsigned byte order exactly as the raw keys do, a key that is a prefix of
// another stays a prefix, and no escaped key contains NUL. An escaped key is
// at most twice as long as the key.
//
// The slot of each key is a word the caller owns, 0 for a new key. A caller
// that may store the word 0 must say so to Insert, which then looks the key
// up first, since a 0 slot alone no longer tells a new key.
// Reads (Find, the cursor) may run concurrently; writes may not.
//
// Out of memory: Insert and the erasures throw std::bad_alloc when JudySL
// reports that malloc failed, having inserted or erased nothing. JudySL
// itself (libJudy 1.0.5) does not keep the other keys intact then: an
// insert that has to move an existing key's single-key leaf down a level
// unlinks that leaf first, so a malloc failing after that loses that key;
// and a failed insert or delete may leave an empty level behind, at which
// JudySLNext ends its walk, so the cursor misses the keys after it. Find
// still finds every key that is there.

#ifndef KVLAB_PEERS_ESCAPED_JUDY_SL_H_
#define KVLAB_PEERS_ESCAPED_JUDY_SL_H_

#include <Judy.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "kvlab/kv_store.h"

namespace kvlab::peers {

// Longest escaped key plus its terminator: the size of every buffer JudySL
// writes keys into.
inline constexpr size_t kEscapedKeyBuffer = 2 * kMaxKeySize + 1;

// Writes the escaped, NUL-terminated form of `key` (at most kMaxKeySize
// bytes) into `out`, which holds kEscapedKeyBuffer bytes.
void EscapeKey(std::string_view key, uint8_t* out);

// The raw key of a NUL-terminated escaped key.
std::string UnescapeKey(const uint8_t* escaped);
// The same into `*key`, reusing its buffer; returns a view of it.
std::string_view UnescapeKey(const uint8_t* escaped, std::string* key);

class EscapedJudySL {
 public:
  EscapedJudySL() = default;
  EscapedJudySL(const EscapedJudySL&) = delete;
  EscapedJudySL& operator=(const EscapedJudySL&) = delete;
  // Frees the array; the caller must have released what the slots point to.
  ~EscapedJudySL();

  // The slot of `key`, inserted with value 0 if absent (fill it); sets
  // `*inserted` to whether it was. `may_hold_zero`: some slot may hold 0.
  // Throws std::bad_alloc if malloc fails (see the file comment).
  Word_t* Insert(std::string_view key, bool may_hold_zero, bool* inserted);
  // The slot of `key`, or null.
  Word_t* Find(std::string_view key) const;
  // Removes `key`; false if absent. Throws std::bad_alloc, with `key` still
  // present, if malloc fails.
  bool Erase(std::string_view key);
  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Walks the keys >= a start in order. Each position holds its escaped key
  // in a buffer of its own, so a cursor is a few KB: keep it on the stack.
  class Cursor {
   public:
    // Positioned at the first key >= `start`, which may be of any length.
    Cursor(const EscapedJudySL& map, std::string_view start);
    bool Done() const { return slot_ == nullptr; }
    void Next();
    std::string Key() const { return UnescapeKey(escaped_); }
    std::string_view Key(std::string* buffer) const {
      return UnescapeKey(escaped_, buffer);
    }
    const uint8_t* EscapedKey() const { return escaped_; }
    const Word_t* Slot() const { return slot_; }

   private:
    Pcvoid_t array_;
    Word_t* slot_ = nullptr;
    uint8_t escaped_[kEscapedKeyBuffer];
  };

  // Erase for a key given in escaped form (the key a cursor stands on).
  bool EraseEscaped(const uint8_t* escaped);

  // Calls `visit` with every slot, in key order.
  void ForEachSlot(absl::FunctionRef<void(Word_t* slot)> visit);

 private:
  Pvoid_t array_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_ESCAPED_JUDY_SL_H_
