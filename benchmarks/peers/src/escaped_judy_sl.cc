#include "escaped_judy_sl.h"

#include <cassert>
#include <new>

namespace kvlab::peers {

void EscapeKey(std::string_view key, uint8_t* out) {
  assert(key.size() <= kMaxKeySize);
  for (char c : key) {
    const uint8_t byte = static_cast<uint8_t>(c);
    if (byte <= 1) {
      *out++ = 1;
      *out++ = byte + 1;
    } else {
      *out++ = byte;
    }
  }
  *out = 0;
}

std::string UnescapeKey(const uint8_t* escaped) {
  std::string key;
  UnescapeKey(escaped, &key);
  return key;
}

std::string_view UnescapeKey(const uint8_t* escaped, std::string* key) {
  key->clear();
  for (const uint8_t* p = escaped; *p != 0; ++p) {
    if (*p == 1) {
      ++p;  // the escape's second byte is 1 or 2: never the terminator
      key->push_back(static_cast<char>(*p - 1));
    } else {
      key->push_back(static_cast<char>(*p));
    }
  }
  return *key;
}

EscapedJudySL::~EscapedJudySL() { JudySLFreeArray(&array_, PJE0); }

Word_t* EscapedJudySL::Insert(std::string_view key, bool may_hold_zero,
                              bool* inserted) {
  uint8_t escaped[kEscapedKeyBuffer];
  EscapeKey(key, escaped);
  const bool existed =
      may_hold_zero && JudySLGet(array_, escaped, PJE0) != nullptr;
  PPvoid_t inserted_slot = JudySLIns(&array_, escaped, PJE0);
  // With valid arguments JudySLIns fails only when malloc does.
  if (inserted_slot == PPJERR) throw std::bad_alloc();
  Word_t* slot = reinterpret_cast<Word_t*>(inserted_slot);
  // Judy zeroes a new key's slot, and otherwise no slot holds 0.
  *inserted = may_hold_zero ? !existed : *slot == 0;
  if (*inserted) ++size_;
  return slot;
}

Word_t* EscapedJudySL::Find(std::string_view key) const {
  uint8_t escaped[kEscapedKeyBuffer];
  EscapeKey(key, escaped);
  return reinterpret_cast<Word_t*>(JudySLGet(array_, escaped, PJE0));
}

bool EscapedJudySL::Erase(std::string_view key) {
  uint8_t escaped[kEscapedKeyBuffer];
  EscapeKey(key, escaped);
  return EraseEscaped(escaped);
}

bool EscapedJudySL::EraseEscaped(const uint8_t* escaped) {
  const int result = JudySLDel(&array_, escaped, PJE0);
  if (result == JERR) {
    // malloc failed in a JudyL level. Either it failed before the key went
    // (the array is as it was) or while it emptied a level above the key
    // (the key is gone, and only an empty level is left behind): look.
    if (JudySLGet(array_, escaped, PJE0) != nullptr) throw std::bad_alloc();
  } else if (result != 1) {
    return false;
  }
  --size_;
  return true;
}

void EscapedJudySL::ForEachSlot(absl::FunctionRef<void(Word_t* slot)> visit) {
  uint8_t escaped[kEscapedKeyBuffer] = {};
  for (PPvoid_t p = JudySLFirst(array_, escaped, PJE0); p != nullptr;
       p = JudySLNext(array_, escaped, PJE0)) {
    visit(reinterpret_cast<Word_t*>(p));
  }
}

EscapedJudySL::Cursor::Cursor(const EscapedJudySL& map, std::string_view start)
    : array_(map.array_) {
  if (start.size() <= kMaxKeySize) {
    EscapeKey(start, escaped_);
    // JudySLFirst: the first key >= the buffer's, written back into it.
    slot_ = reinterpret_cast<Word_t*>(JudySLFirst(array_, escaped_, PJE0));
    return;
  }
  // No stored key is as long as `start`. Such a key is >= start exactly
  // when it is > start's first kMaxKeySize bytes (equal to them, it is a
  // proper prefix of start), so start from the key after those bytes.
  EscapeKey(start.substr(0, kMaxKeySize), escaped_);
  slot_ = reinterpret_cast<Word_t*>(JudySLNext(array_, escaped_, PJE0));
}

void EscapedJudySL::Cursor::Next() {
  slot_ = reinterpret_cast<Word_t*>(JudySLNext(array_, escaped_, PJE0));
}

}  // namespace kvlab::peers
