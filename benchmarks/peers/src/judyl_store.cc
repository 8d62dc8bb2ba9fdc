#include "judyl_store.h"

#include <cstring>
#include <limits>
#include <new>

namespace kvlab::peers {
namespace {

constexpr size_t kIntKey = sizeof(Word_t);
static_assert(kIntKey == 8, "judyl needs 64-bit words");

// `key` (at most 8 bytes) as a big-endian integer, zero-padded on the right.
Word_t FromBigEndian(std::string_view key) {
  Word_t word = 0;
  for (size_t i = 0; i < kIntKey; ++i) {
    word = (word << 8) | (i < key.size() ? static_cast<uint8_t>(key[i]) : 0);
  }
  return word;
}

void ToBigEndian(Word_t word, char* out) {
  for (int i = kIntKey - 1; i >= 0; --i) {
    out[i] = static_cast<char>(word & 0xff);
    word >>= 8;
  }
}

// The smallest 8-byte key >= `start`, as an integer; false if none.
bool IntLowerBound(std::string_view start, Word_t* word) {
  if (start.size() <= kIntKey) {
    // Padding with zeros gives the smallest 8-byte key that start prefixes.
    *word = FromBigEndian(start);
    return true;
  }
  // A longer start is greater than the 8-byte key equal to its prefix.
  const Word_t prefix = FromBigEndian(start.substr(0, kIntKey));
  if (prefix == std::numeric_limits<Word_t>::max()) return false;
  *word = prefix + 1;
  return true;
}

}  // namespace

JudyLStore::~JudyLStore() {
  // Inline words own nothing; blobs are freed one by one.
  if (!values_.inline_mode()) {
    ForEachSlot([&](Word_t* slot) { values_.Release(*slot); });
  }
  JudyLFreeArray(&ints_, PJE0);
}

void JudyLStore::ForEachSlot(WordValues::SlotVisitor visit) {
  Word_t index = 0;
  for (PPvoid_t p = JudyLFirst(ints_, &index, PJE0); p != nullptr;
       p = JudyLNext(ints_, &index, PJE0)) {
    visit(reinterpret_cast<Word_t*>(p));
  }
  others_.ForEachSlot(visit);
}

void JudyLStore::AfterErase() {
  if (Size() == 0) values_.Emptied();
}

std::optional<size_t> JudyLStore::MemoryUsage() const {
  if (!others_.empty()) return std::nullopt;
  return JudyLMemUsed(ints_) + values_.blob_bytes();
}

Word_t* JudyLStore::FindSlot(std::string_view key) const {
  if (key.size() == kIntKey) {
    return reinterpret_cast<Word_t*>(JudyLGet(ints_, FromBigEndian(key), PJE0));
  }
  return others_.Find(key);
}

bool JudyLStore::PutImpl(std::string_view key, std::string_view value) {
  return values_.Store(
      value, [&](WordValues::SlotVisitor visit) { ForEachSlot(visit); },
      [&](bool may_hold_zero, bool* inserted) {
        return key.size() == kIntKey
                   ? InsertInt(key, may_hold_zero, inserted)
                   : others_.Insert(key, may_hold_zero, inserted);
      });
}

Word_t* JudyLStore::InsertInt(std::string_view key, bool may_hold_zero,
                              bool* inserted) {
  const Word_t index = FromBigEndian(key);
  // A stored zero word looks like a new key's slot: look first then.
  const bool existed = may_hold_zero && JudyLGet(ints_, index, PJE0) != nullptr;
  PPvoid_t slot = JudyLIns(&ints_, index, PJE0);
  // JudyLIns fails only when malloc does, leaving the array as it was.
  if (slot == PPJERR) throw std::bad_alloc();
  *inserted = may_hold_zero ? !existed : *reinterpret_cast<Word_t*>(slot) == 0;
  if (*inserted) ++int_count_;
  return reinterpret_cast<Word_t*>(slot);
}

bool JudyLStore::GetImpl(std::string_view key, std::string* value) const {
  const Word_t* slot = FindSlot(key);
  if (slot == nullptr) return false;
  if (value != nullptr) value->assign(values_.View(slot));
  return true;
}

bool JudyLStore::DeleteImpl(std::string_view key) {
  const Word_t* slot = FindSlot(key);
  if (slot == nullptr) return false;
  const Word_t word = *slot;
  // The key goes first: if that throws, its value is still needed.
  if (key.size() == kIntKey) {
    // JudyLDel fails only when malloc does, leaving the array as it was.
    if (JudyLDel(&ints_, FromBigEndian(key), PJE0) == JERR) {
      throw std::bad_alloc();
    }
    --int_count_;
  } else {
    others_.Erase(key);
  }
  values_.Release(word);
  AfterErase();
  return true;
}

std::string_view JudyLStore::Item::Key(std::string* buffer) const {
  if (int_key != nullptr) return std::string_view(int_key, kIntKey);
  return UnescapeKey(escaped, buffer);
}

uint64_t JudyLStore::Merge(std::string_view start,
                           absl::FunctionRef<bool(const Item&)> visit) const {
  Word_t index = 0;
  PPvoid_t int_slot = nullptr;
  if (IntLowerBound(start, &index)) {
    int_slot = JudyLFirst(ints_, &index, PJE0);
  }
  // The integer side's current key, raw and escaped: the sides are compared
  // in escaped form, which orders exactly as the raw keys do.
  char int_key[kIntKey] = {};
  uint8_t int_escaped[2 * kIntKey + 1];
  auto load_int_key = [&] {
    ToBigEndian(index, int_key);
    EscapeKey(std::string_view(int_key, kIntKey), int_escaped);
  };
  if (int_slot != nullptr) load_int_key();
  EscapedJudySL::Cursor other(others_, start);

  uint64_t visited = 0;
  while (int_slot != nullptr || !other.Done()) {
    // Keys of different lengths are never equal, so one side is smaller;
    // strcmp compares as unsigned bytes.
    const bool take_int =
        int_slot != nullptr &&
        (other.Done() ||
         std::strcmp(reinterpret_cast<const char*>(int_escaped),
                     reinterpret_cast<const char*>(other.EscapedKey())) < 0);
    ++visited;
    if (take_int) {
      if (!visit(Item{int_key, nullptr,
                      reinterpret_cast<const Word_t*>(int_slot)})) {
        break;
      }
      int_slot = JudyLNext(ints_, &index, PJE0);
      if (int_slot != nullptr) load_int_key();
    } else {
      if (!visit(Item{nullptr, other.EscapedKey(), other.Slot()})) {
        break;
      }
      other.Next();
    }
  }
  return visited;
}

uint64_t JudyLStore::Scan(std::string_view start, ScanVisitor visitor) const {
  std::string buffer;
  return Merge(start, [&](const Item& item) {
    return visitor(item.Key(&buffer), values_.View(item.slot));
  });
}

bool JudyLStore::GetNth(uint64_t n, std::string* key,
                        std::string* value) const {
  if (n >= Size()) return false;
  if (others_.empty()) {
    // JudyLByCount counts from 1.
    Word_t index = 0;
    PPvoid_t slot = JudyLByCount(ints_, n + 1, &index, PJE0);
    if (key != nullptr) {
      key->resize(kIntKey);
      ToBigEndian(index, key->data());
    }
    if (value != nullptr) {
      value->assign(values_.View(reinterpret_cast<const Word_t*>(slot)));
    }
    return true;
  }
  uint64_t i = 0;
  Merge("", [&](const Item& item) {
    if (i++ < n) return true;
    if (key != nullptr) {
      std::string buffer;
      key->assign(item.Key(&buffer));
    }
    if (value != nullptr) value->assign(values_.View(item.slot));
    return false;
  });
  return true;
}

bool JudyLStore::DeleteNth(uint64_t n) { return DeleteNthByKey(n); }

}  // namespace kvlab::peers
