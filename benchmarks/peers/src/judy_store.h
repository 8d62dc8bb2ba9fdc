// JudyStore: the peer `judy`, libJudy's JudySL ordered string map, the
// Hyperion paper's main competitor.
//
// Keys go through EscapedJudySL (order-preserving escape, so NUL bytes
// work); each slot points to a ValueBlob the store owns. JudySL keeps no
// counts, so GetNth/DeleteNth walk the keys in order, O(n). MemoryUsage is
// unknown (JudySL reports no figure of its own); kvbench measures the
// process. Not thread-safe; concurrent reads are safe.

#ifndef KVLAB_PEERS_JUDY_STORE_H_
#define KVLAB_PEERS_JUDY_STORE_H_

#include "escaped_judy_sl.h"
#include "kvlab/kv_store.h"

namespace kvlab::peers {

class JudyStore final : public KVStore {
 public:
  JudyStore() = default;
  ~JudyStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return map_.size(); }
  std::string_view Name() const override { return "judy"; }
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  EscapedJudySL map_;
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_JUDY_STORE_H_
