#include "jump_table.h"

#include <cstring>
#include <string>

#include "kvlab/coding.h"

namespace kvlab::stage5::hyperion {
namespace {

void StoreEntryBytes(uint8_t* p, const JumpTableEntry& e) {
  StoreLE24(p, e.offset);
  p[3] = e.key;
  StoreLE32(p + 4, e.keys_before);
}

}  // namespace

JumpTableEntry LoadJumpTableEntry(const uint8_t* c, uint32_t i) {
  const uint8_t* p = JumpTableSlot(c, i);
  JumpTableEntry e;
  e.offset = LoadLE24(p);
  e.key = JumpTableKeyAt(c, i);
  e.keys_before = JumpTableKeysBeforeAt(c, i);
  return e;
}

void StoreJumpTableEntry(uint8_t* c, uint32_t i, const JumpTableEntry& e) {
  StoreEntryBytes(c + kHeaderBytes + i * kJumpTableEntryBytes, e);
}

// The three fields of an entry, read as one little-endian 64-bit word,
// are offset + key << 24 + keys_before << 32. Adding bytes + keys << 32 to
// the word adds to both counts at once: no carry or borrow crosses from the
// offset into the key byte while the offset stays in range, and a negative
// addend's sign bits, added to the count, fall off the top.
void ShiftJumpTableEntries(uint8_t* c, uint32_t from, int64_t bytes,
                           int64_t keys) {
  const uint64_t add = uint64_t(bytes) + (uint64_t(keys) << 32);
  const uint32_t slots = JumpTableEntries(c);
  for (uint32_t i = from; i < slots && JumpTableSlotUsed(c, i); ++i) {
    uint8_t* p = c + kHeaderBytes + i * kJumpTableEntryBytes;
    StoreLE64(p, LoadLE64(p) + add);
  }
}

void DropJumpTableEntry(uint8_t* c, uint32_t i) {
  const uint32_t slots = JumpTableEntries(c);
  uint8_t* p = c + kHeaderBytes + i * kJumpTableEntryBytes;
  std::memmove(p, p + kJumpTableEntryBytes,
               (slots - i - 1) * kJumpTableEntryBytes);
  std::memset(c + kHeaderBytes + (slots - 1) * kJumpTableEntryBytes, 0,
              kJumpTableEntryBytes);
}

std::string JumpTableBytes(const std::vector<JumpTableEntry>& entries,
                           uint32_t slots) {
  std::string out(slots * kJumpTableEntryBytes, '\0');
  for (size_t i = 0; i < entries.size() && i < slots; ++i) {
    StoreEntryBytes(reinterpret_cast<uint8_t*>(&out[i * kJumpTableEntryBytes]),
                    entries[i]);
  }
  return out;
}

namespace {

// The start at the entry before slot i, if any.
JumpStart StartBefore(const Region& region, uint32_t i) {
  JumpStart start;
  if (i != 0) {
    start.found = true;
    start.entry = LoadJumpTableEntry(region.buf, i - 1);
  }
  return start;
}

}  // namespace

// The lookups run on every descent: they test the fields in place and
// decode only the entry they stop at.
JumpStart JumpBeforeKey(const Region& region, uint8_t key) {
  uint32_t i = 0;
  while (i < region.table_entries && JumpTableSlotUsed(region.buf, i) &&
         JumpTableKeyAt(region.buf, i) < key) {
    ++i;
  }
  return StartBefore(region, i);
}

JumpStart JumpBeforeNth(const Region& region, uint64_t n) {
  uint32_t i = 0;
  while (i < region.table_entries && JumpTableSlotUsed(region.buf, i) &&
         JumpTableKeysBeforeAt(region.buf, i) <= n) {
    ++i;
  }
  return StartBefore(region, i);
}

}  // namespace kvlab::stage5::hyperion
