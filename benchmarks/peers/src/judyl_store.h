// JudyLStore: the peer `judyl`, libJudy's JudyL integer map used for 8-byte
// keys, as the Hyperion paper compared it on integer data.
//
// An 8-byte key is read as a big-endian integer, so JudyL's numeric order is
// the keys' unsigned byte order, and JudyL's counts give GetNth/DeleteNth in
// O(log n). Every other key goes to an EscapedJudySL beside it, so the store
// passes the conformance suite with any key; the two are merged in key
// order for Scan, and while that side holds any key GetNth/DeleteNth walk
// the merge, O(n). On the integer data sets the fallback stays empty and
// kvbench measures JudyL alone.
//
// Values live in the Judy words as one WordValues keeps them for both
// sides (one mode for the whole store, so keys of any length mix): while
// every value is 8 bytes the word is the value itself, as in the Hyperion
// paper's JudyL setup (its integer data sets have 8-byte values); the
// first value of another length turns every word of both sides into a
// ValueBlob, until the store is empty again (word_values.h).
//
// MemoryUsage is JudyL's own figure (JudyLMemUsed) plus the blobs in blob
// mode, and unknown while the JudySL side is in use. Not thread-safe;
// concurrent reads are safe.
//
// Out of memory: JudyL leaves its array as it was when malloc fails, but
// the JudySL side may lose a key or end its walks early (judy_store.h), so
// this kind does not keep the contract either (StoreInfo says so).

#ifndef KVLAB_PEERS_JUDYL_STORE_H_
#define KVLAB_PEERS_JUDYL_STORE_H_

#include <Judy.h>

#include "absl/functional/function_ref.h"
#include "escaped_judy_sl.h"
#include "kvlab/kv_store.h"
#include "word_values.h"

namespace kvlab::peers {

class JudyLStore final : public KVStore {
 public:
  JudyLStore() = default;
  ~JudyLStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return int_count_ + others_.size(); }
  std::string_view Name() const override { return "judyl"; }
  std::optional<size_t> MemoryUsage() const override;

  // True while the values are the Judy words themselves (all 8 bytes).
  bool InlineValues() const { return values_.inline_mode(); }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // The slot of `key` (null if absent), in whichever side holds its kind.
  Word_t* FindSlot(std::string_view key) const;
  // EscapedJudySL::Insert for an 8-byte key, on the JudyL side.
  Word_t* InsertInt(std::string_view key, bool may_hold_zero, bool* inserted);
  // One pair met by Merge. The key of a JudySL pair is decoded only when
  // asked for, so counting walks (GetNth) decode nothing.
  struct Item {
    const char* int_key;     // 8 bytes, or null on the JudySL side
    const uint8_t* escaped;  // the escaped key on the JudySL side
    const Word_t* slot;      // the value's word
    std::string_view Key(std::string* buffer) const;
  };
  // Calls `visit` with every slot of both sides.
  void ForEachSlot(WordValues::SlotVisitor visit);
  // Back to inline values once the last key is gone.
  void AfterErase();
  // Visits the pairs with key >= `start` in key order, merging both sides,
  // until `visit` returns false; returns the number visited.
  uint64_t Merge(std::string_view start,
                 absl::FunctionRef<bool(const Item&)> visit) const;

  Pvoid_t ints_ = nullptr;  // JudyL: big-endian key -> value word
  uint64_t int_count_ = 0;
  EscapedJudySL others_;  // keys of any other length -> value word
  WordValues values_;     // the words of both sides
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_JUDYL_STORE_H_
