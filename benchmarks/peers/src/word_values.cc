#include "word_values.h"

#include <cstdint>
#include <cstring>
#include <new>

#include "value_blob.h"

namespace kvlab::peers {
namespace {

std::string_view InlineView(const Word_t* slot) {
  return std::string_view(reinterpret_cast<const char*>(slot),
                          WordValues::kInlineSize);
}

}  // namespace

void WordValues::SwitchToBlobMode(SlotWalk walk) {
  uint64_t converted = 0;
  size_t bytes = 0;
  try {
    walk([&](Word_t* slot) {
      void* blob = ValueBlob::New(InlineView(slot));
      bytes += ValueBlob::Footprint(blob);
      *slot = ValueBlob::ToWord(blob);
      ++converted;
    });
  } catch (...) {
    // The walk meets the slots in the same order again: the first
    // `converted` of them hold blobs made from their inline words.
    BlobsToWords(walk, converted);
    throw;
  }
  inline_ = false;
  zero_words_ = 0;
  blob_bytes_ = bytes;
}

uint64_t WordValues::BlobsToWords(SlotWalk walk, uint64_t count) {
  uint64_t zeros = 0;
  walk([&](Word_t* slot) {
    if (count == 0) return;
    --count;
    void* blob = ValueBlob::FromWord(*slot);
    std::memcpy(slot, ValueBlob::View(blob).data(), kInlineSize);
    ValueBlob::Delete(blob);
    if (*slot == 0) ++zeros;
  });
  return zeros;
}

bool WordValues::Store(std::string_view value, SlotWalk walk,
                       SlotInsert insert) {
  const bool switched = NeedsSwitch(value);
  if (switched) SwitchToBlobMode(walk);
  bool made = false;
  Word_t word = 0;
  bool inserted = false;
  Word_t* slot;
  try {
    // The word is made first: a failed allocation then leaves no new key
    // with an empty slot behind.
    word = Make(value);
    made = true;
    slot = insert(MayHoldZero(), &inserted);
  } catch (const std::bad_alloc&) {
    if (made) Release(word);
    if (switched) {
      // Every stored value was 8 bytes a moment ago: inline again.
      zero_words_ = BlobsToWords(walk, UINT64_MAX);
      inline_ = true;
      blob_bytes_ = 0;
    }
    throw;
  }
  if (!inserted) Release(*slot);
  *slot = word;
  return !inserted;
}

Word_t WordValues::Make(std::string_view value) {
  if (inline_) {
    Word_t word;
    std::memcpy(&word, value.data(), kInlineSize);
    if (word == 0) ++zero_words_;
    return word;
  }
  void* blob = ValueBlob::New(value);
  blob_bytes_ += ValueBlob::Footprint(blob);
  return ValueBlob::ToWord(blob);
}

void WordValues::Release(Word_t word) {
  if (inline_) {
    if (word == 0) --zero_words_;
    return;
  }
  void* blob = ValueBlob::FromWord(word);
  blob_bytes_ -= ValueBlob::Footprint(blob);
  ValueBlob::Delete(blob);
}

std::string_view WordValues::View(const Word_t* slot) const {
  if (inline_) return InlineView(slot);
  return ValueBlob::View(ValueBlob::FromWord(*slot));
}

void WordValues::Emptied() {
  inline_ = true;
  zero_words_ = 0;
  blob_bytes_ = 0;
}

}  // namespace kvlab::peers
