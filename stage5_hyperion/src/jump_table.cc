#include "jump_table.h"

#include <string>

namespace kvlab::stage5::hyperion {
namespace {

uint32_t EntryOffset(uint32_t i) {
  return kHeaderBytes + i * kJumpTableEntryBytes;
}

void StoreEntryBytes(uint8_t* p, const JumpTableEntry& e) {
  for (int b = 0; b < 3; ++b) p[b] = uint8_t(e.offset >> (8 * b));
  p[3] = e.key;
  for (int b = 0; b < 4; ++b) p[4 + b] = uint8_t(e.keys_before >> (8 * b));
}

}  // namespace

JumpTableEntry LoadJumpTableEntry(const uint8_t* c, uint32_t i) {
  const uint8_t* p = c + EntryOffset(i);
  JumpTableEntry e;
  e.offset = uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16;
  e.key = p[3];
  e.keys_before = uint32_t{p[4]} | uint32_t{p[5]} << 8 | uint32_t{p[6]} << 16 |
                  uint32_t{p[7]} << 24;
  return e;
}

void StoreJumpTableEntry(uint8_t* c, uint32_t i, const JumpTableEntry& e) {
  StoreEntryBytes(c + EntryOffset(i), e);
}

std::vector<JumpTableEntry> LoadJumpTable(const uint8_t* c) {
  std::vector<JumpTableEntry> entries;
  const uint32_t slots = JumpTableEntries(c);
  for (uint32_t i = 0; i < slots; ++i) {
    const JumpTableEntry e = LoadJumpTableEntry(c, i);
    if (e.offset == 0) break;
    entries.push_back(e);
  }
  return entries;
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

// The lookups run on every descent: they test the fields in place and
// decode only the entry they stop at.
namespace {

bool Unused(const uint8_t* p) { return (p[0] | p[1] | p[2]) == 0; }

uint32_t KeysBefore(const uint8_t* p) {
  return uint32_t{p[4]} | uint32_t{p[5]} << 8 | uint32_t{p[6]} << 16 |
         uint32_t{p[7]} << 24;
}

JumpStart StartAt(const Region& region, uint32_t i) {
  JumpStart start;
  if (i != 0) {
    start.found = true;
    start.entry = LoadJumpTableEntry(region.buf, i - 1);
  }
  return start;
}

}  // namespace

JumpStart JumpBeforeKey(const Region& region, uint8_t key) {
  const uint8_t* p = region.buf + kHeaderBytes;
  uint32_t i = 0;
  while (i < region.table_entries && !Unused(p) && p[3] < key) {
    ++i;
    p += kJumpTableEntryBytes;
  }
  return StartAt(region, i);
}

JumpStart JumpBeforeNth(const Region& region, uint64_t n) {
  const uint8_t* p = region.buf + kHeaderBytes;
  uint32_t i = 0;
  while (i < region.table_entries && !Unused(p) && KeysBefore(p) <= n) {
    ++i;
    p += kJumpTableEntryBytes;
  }
  return StartAt(region, i);
}

}  // namespace kvlab::stage5::hyperion
