#include "judy_store.h"

#include "value_blob.h"

namespace kvlab::peers {

JudyStore::~JudyStore() {
  for (EscapedJudySL::Cursor c(map_, ""); !c.Done(); c.Next()) {
    ValueBlob::Delete(ValueBlob::FromWord(c.Value()));
  }
}

bool JudyStore::PutImpl(std::string_view key, std::string_view value) {
  // The blob is made first: a failed allocation then leaves the store
  // unchanged, rather than a new key with an empty slot.
  void* blob = ValueBlob::New(value);
  Word_t* slot = map_.Insert(key);
  const bool replaced = *slot != 0;
  if (replaced) ValueBlob::Delete(ValueBlob::FromWord(*slot));
  *slot = ValueBlob::ToWord(blob);
  return replaced;
}

bool JudyStore::GetImpl(std::string_view key, std::string* value) const {
  const Word_t* slot = map_.Find(key);
  if (slot == nullptr) return false;
  if (value != nullptr)
    value->assign(ValueBlob::View(ValueBlob::FromWord(*slot)));
  return true;
}

bool JudyStore::DeleteImpl(std::string_view key) {
  Word_t* slot = map_.Find(key);
  if (slot == nullptr) return false;
  ValueBlob::Delete(ValueBlob::FromWord(*slot));
  map_.Erase(key);
  return true;
}

bool JudyStore::GetNth(uint64_t n, std::string* key, std::string* value) const {
  if (n >= map_.size()) return false;
  EscapedJudySL::Cursor c(map_, "");
  for (uint64_t i = 0; i < n; ++i) c.Next();
  if (key != nullptr) *key = c.Key();
  if (value != nullptr)
    value->assign(ValueBlob::View(ValueBlob::FromWord(c.Value())));
  return true;
}

bool JudyStore::DeleteNth(uint64_t n) {
  if (n >= map_.size()) return false;
  EscapedJudySL::Cursor c(map_, "");
  for (uint64_t i = 0; i < n; ++i) c.Next();
  ValueBlob::Delete(ValueBlob::FromWord(c.Value()));
  map_.EraseEscaped(c.EscapedKey());
  return true;
}

uint64_t JudyStore::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  std::string key;
  for (EscapedJudySL::Cursor c(map_, start); !c.Done(); c.Next()) {
    ++visited;
    if (!visitor(c.Key(&key), ValueBlob::View(ValueBlob::FromWord(c.Value()))))
      break;
  }
  return visited;
}

}  // namespace kvlab::peers
