// JudyLStore: the peer `judyl`, libJudy's JudyL integer map used for 8-byte
// keys, as the Hyperion paper compared it on integer data.
//
// An 8-byte key is read as a big-endian integer, so JudyL's numeric order is
// the keys' unsigned byte order, and JudyL's counts give GetNth/DeleteNth in
// O(log n). Every other key goes to an EscapedJudySL beside it, so the store
// passes the conformance suite with any key; the two are merged in key
// order for Scan, and while that side holds any key GetNth/DeleteNth walk
// the merge, O(n). On the integer data sets the fallback stays empty and
// kvbench measures JudyL alone. Values are ValueBlobs the store owns.
// MemoryUsage is JudyL's own figure plus the blobs, and unknown while the
// JudySL side is in use. Not thread-safe; concurrent reads are safe.

#ifndef KVLAB_PEERS_JUDYL_STORE_H_
#define KVLAB_PEERS_JUDYL_STORE_H_

#include <Judy.h>

#include "absl/functional/function_ref.h"
#include "escaped_judy_sl.h"
#include "kvlab/kv_store.h"

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

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // The slot of `key` (null if absent), in whichever side holds its kind.
  Word_t* FindSlot(std::string_view key) const;
  // One pair met by Merge. The key of a JudySL pair is decoded only when
  // asked for, so counting walks (GetNth) decode nothing.
  struct Item {
    const char* int_key;     // 8 bytes, or null on the JudySL side
    const uint8_t* escaped;  // the escaped key on the JudySL side
    const void* blob;
    std::string_view Key(std::string* buffer) const;
  };
  // Visits the pairs with key >= `start` in key order, merging both sides,
  // until `visit` returns false; returns the number visited.
  uint64_t Merge(std::string_view start,
                 absl::FunctionRef<bool(const Item&)> visit) const;

  Pvoid_t ints_ = nullptr;  // JudyL: big-endian key -> ValueBlob
  uint64_t int_count_ = 0;
  EscapedJudySL others_;   // keys of any other length -> ValueBlob
  size_t blob_bytes_ = 0;  // ValueBlob::Footprint of every value
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_JUDYL_STORE_H_
