// HatTrieStore: the peer `hattrie`, the HAT-trie of Askitis and Sinha
// (2007) from Debian's libhat-trie: a trie whose leaves are array hash
// tables of key suffixes (bursting into trie nodes as they fill).
//
// libhat-trie iterates in key order on request (it sorts each bucket as the
// iterator reaches it), so this peer is ordered; it keeps no counts and no
// lower-bound search, so GetNth, DeleteNth and the start of a Scan walk the
// keys in order, O(n). Each slot (one word) points to a ValueBlob the store
// owns. MemoryUsage is libhat-trie's own hattrie_sizeof plus the blobs. Not
// thread-safe; concurrent reads are safe.
//
// libhat-trie allocates through a wrapper that calls exit(1) when malloc
// fails, in inserts and in every iteration (GetNth, Scan), so this kind
// cannot keep the out-of-memory contract of kv_store.h (StoreInfo says so).
//
// libhat-trie 0.1.2 reports the empty key present in a trie that never held
// it (its lookup of a zero-length key returns the root's slot unchecked), so
// the empty key is kept here, beside the trie, and visited first.

#ifndef KVLAB_PEERS_HATTRIE_STORE_H_
#define KVLAB_PEERS_HATTRIE_STORE_H_

#include "kvlab/kv_store.h"

extern "C" {
typedef struct hattrie_t_ hattrie_t;
}

namespace kvlab::peers {

class HatTrieStore final : public KVStore {
 public:
  HatTrieStore();
  ~HatTrieStore() override;

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override { return "hattrie"; }
  std::optional<size_t> MemoryUsage() const override;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Walks the pairs >= `start` in key order, the empty key first, until
  // `visit` returns false; returns the number visited.
  template <typename Visit>
  uint64_t Walk(std::string_view start, Visit visit) const;

  hattrie_t* trie_;
  void* empty_key_blob_ = nullptr;  // the empty key's value, if present
  size_t blob_bytes_ = 0;           // ValueBlob::Footprint of every value
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_HATTRIE_STORE_H_
