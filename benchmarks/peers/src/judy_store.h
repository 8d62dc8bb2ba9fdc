// JudyStore: the peer `judy`, libJudy's JudySL ordered string map, the
// Hyperion paper's main competitor.
//
// Keys go through EscapedJudySL (order-preserving escape, so NUL bytes
// work). Values live in the JudySL word as WordValues keeps them: while
// every value is 8 bytes (the paper's setup, and every data set but course)
// the word is the value itself; the first value of another length turns
// every word into a ValueBlob the store owns, until the store is empty
// again (word_values.h). JudySL keeps no counts, so GetNth/DeleteNth walk
// the keys in order, O(n). MemoryUsage is unknown (JudySL reports no figure
// of its own, in either mode); kvbench measures the process. Not
// thread-safe; concurrent reads are safe.
//
// Out of memory: a Put or Delete that JudySL cannot finish reports it as
// kv_store.h says, but JudySL may have lost another key on the way, or left
// an empty level that ends its ordered walks there (escaped_judy_sl.h), so
// this kind does not keep the contract (StoreInfo says so).

#ifndef KVLAB_PEERS_JUDY_STORE_H_
#define KVLAB_PEERS_JUDY_STORE_H_

#include "escaped_judy_sl.h"
#include "kvlab/kv_store.h"
#include "word_values.h"

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

  // True while the values are the JudySL words themselves (all 8 bytes).
  bool InlineValues() const { return values_.inline_mode(); }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Back to inline values once the last key is gone.
  void AfterErase();

  EscapedJudySL map_;
  WordValues values_;
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_JUDY_STORE_H_
