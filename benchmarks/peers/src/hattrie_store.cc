#include "hattrie_store.h"

#include <hat-trie/hat-trie.h>

#include <cstring>
#include <new>

#include "value_blob.h"

namespace kvlab::peers {
namespace {

// libhat-trie's lookups take a non-const trie but only read it.
hattrie_t* Mutable(const hattrie_t* trie) {
  return const_cast<hattrie_t*>(trie);
}

// A slot sits right after its key inside a bucket's byte array, so it is
// often misaligned: read and write it with memcpy, never through the
// pointer's type.
value_t Load(const value_t* slot) {
  value_t word;
  std::memcpy(&word, slot, sizeof(word));
  return word;
}
void Store(value_t* slot, value_t word) {
  std::memcpy(slot, &word, sizeof(word));
}

}  // namespace

// libhat-trie has no lower-bound search: the walk starts at the first key
// and skips those below `start`.
template <typename Visit>
uint64_t HatTrieStore::Walk(std::string_view start, Visit visit) const {
  uint64_t visited = 0;
  if (empty_key_blob_ != nullptr && start.empty()) {
    ++visited;
    if (!visit(std::string_view(), empty_key_blob_)) return visited;
  }
  hattrie_iter_t* it = hattrie_iter_begin(trie_, /*sorted=*/true);
  for (; !hattrie_iter_finished(it); hattrie_iter_next(it)) {
    size_t length = 0;
    const char* bytes = hattrie_iter_key(it, &length);
    const std::string_view key(bytes, length);
    if (key < start) continue;
    ++visited;
    if (!visit(key, ValueBlob::FromWord(Load(hattrie_iter_val(it))))) break;
  }
  hattrie_iter_free(it);
  return visited;
}

HatTrieStore::HatTrieStore() : trie_(hattrie_create()) {
  if (trie_ == nullptr) throw std::bad_alloc();
}

HatTrieStore::~HatTrieStore() {
  hattrie_iter_t* it = hattrie_iter_begin(trie_, /*sorted=*/false);
  for (; !hattrie_iter_finished(it); hattrie_iter_next(it)) {
    ValueBlob::Delete(ValueBlob::FromWord(Load(hattrie_iter_val(it))));
  }
  hattrie_iter_free(it);
  hattrie_free(trie_);
  ValueBlob::Delete(empty_key_blob_);
}

uint64_t HatTrieStore::Size() const {
  return hattrie_size(trie_) + (empty_key_blob_ != nullptr ? 1 : 0);
}

std::optional<size_t> HatTrieStore::MemoryUsage() const {
  return hattrie_sizeof(trie_) + blob_bytes_;
}

bool HatTrieStore::PutImpl(std::string_view key, std::string_view value) {
  void* blob = ValueBlob::New(value);
  blob_bytes_ += ValueBlob::Footprint(blob);
  void* old;
  if (key.empty()) {
    old = empty_key_blob_;
    empty_key_blob_ = blob;
  } else {
    // hattrie_get inserts a zero slot for a new key; blobs are never null.
    value_t* slot = hattrie_get(trie_, key.data(), key.size());
    old = ValueBlob::FromWord(Load(slot));
    Store(slot, ValueBlob::ToWord(blob));
  }
  if (old == nullptr) return false;
  blob_bytes_ -= ValueBlob::Footprint(old);
  ValueBlob::Delete(old);
  return true;
}

bool HatTrieStore::GetImpl(std::string_view key, std::string* value) const {
  const void* blob = empty_key_blob_;
  if (!key.empty()) {
    value_t* slot = hattrie_tryget(Mutable(trie_), key.data(), key.size());
    blob = slot == nullptr ? nullptr : ValueBlob::FromWord(Load(slot));
  }
  if (blob == nullptr) return false;
  if (value != nullptr) value->assign(ValueBlob::View(blob));
  return true;
}

bool HatTrieStore::DeleteImpl(std::string_view key) {
  void* blob;
  if (key.empty()) {
    blob = empty_key_blob_;
    empty_key_blob_ = nullptr;
  } else {
    value_t* slot = hattrie_tryget(trie_, key.data(), key.size());
    if (slot == nullptr) return false;
    blob = ValueBlob::FromWord(Load(slot));
    hattrie_del(trie_, key.data(), key.size());
  }
  if (blob == nullptr) return false;
  blob_bytes_ -= ValueBlob::Footprint(blob);
  ValueBlob::Delete(blob);
  return true;
}

bool HatTrieStore::GetNth(uint64_t n, std::string* key,
                          std::string* value) const {
  if (n >= Size()) return false;
  uint64_t i = 0;
  Walk("", [&](std::string_view k, const void* blob) {
    if (i++ < n) return true;
    if (key != nullptr) key->assign(k);
    if (value != nullptr) value->assign(ValueBlob::View(blob));
    return false;
  });
  return true;
}

bool HatTrieStore::DeleteNth(uint64_t n) { return DeleteNthByKey(n); }

uint64_t HatTrieStore::Scan(std::string_view start, ScanVisitor visitor) const {
  return Walk(start, [&](std::string_view key, const void* blob) {
    return visitor(key, ValueBlob::View(blob));
  });
}

}  // namespace kvlab::peers
