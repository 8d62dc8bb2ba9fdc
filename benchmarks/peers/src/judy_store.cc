#include "judy_store.h"

namespace kvlab::peers {

JudyStore::~JudyStore() {
  // Inline words own nothing; blobs are freed one by one.
  if (values_.inline_mode()) return;
  map_.ForEachSlot([&](Word_t* slot) { values_.Release(*slot); });
}

bool JudyStore::PutImpl(std::string_view key, std::string_view value) {
  return values_.Store(
      value, [&](WordValues::SlotVisitor visit) { map_.ForEachSlot(visit); },
      [&](bool may_hold_zero, bool* inserted) {
        return map_.Insert(key, may_hold_zero, inserted);
      });
}

bool JudyStore::GetImpl(std::string_view key, std::string* value) const {
  const Word_t* slot = map_.Find(key);
  if (slot == nullptr) return false;
  if (value != nullptr) value->assign(values_.View(slot));
  return true;
}

bool JudyStore::DeleteImpl(std::string_view key) {
  const Word_t* slot = map_.Find(key);
  if (slot == nullptr) return false;
  const Word_t word = *slot;
  map_.Erase(key);  // first: if it throws, the value is still needed
  values_.Release(word);
  AfterErase();
  return true;
}

void JudyStore::AfterErase() {
  if (map_.empty()) values_.Emptied();
}

bool JudyStore::GetNth(uint64_t n, std::string* key, std::string* value) const {
  if (n >= map_.size()) return false;
  EscapedJudySL::Cursor c(map_, "");
  for (uint64_t i = 0; i < n; ++i) c.Next();
  if (key != nullptr) *key = c.Key();
  if (value != nullptr) value->assign(values_.View(c.Slot()));
  return true;
}

bool JudyStore::DeleteNth(uint64_t n) {
  if (n >= map_.size()) return false;
  EscapedJudySL::Cursor c(map_, "");
  for (uint64_t i = 0; i < n; ++i) c.Next();
  const Word_t word = *c.Slot();
  map_.EraseEscaped(c.EscapedKey());  // first: it may throw
  values_.Release(word);
  AfterErase();
  return true;
}

uint64_t JudyStore::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  std::string key;
  for (EscapedJudySL::Cursor c(map_, start); !c.Done(); c.Next()) {
    ++visited;
    if (!visitor(c.Key(&key), values_.View(c.Slot()))) break;
  }
  return visited;
}

}  // namespace kvlab::peers
