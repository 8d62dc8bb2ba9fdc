#include "tnode_table.h"

#include <cassert>

#include "container_scan.h"
#include "jump_table.h"
#include "kvlab/coding.h"

namespace kvlab::stage5::hyperion {

TNodeTableEntry LoadTNodeTableEntry(const uint8_t* table, uint32_t i) {
  const uint8_t* p = table + i * kTNodeTableEntryBytes;
  TNodeTableEntry e;
  e.offset = LoadLE16(p);
  e.key = p[2];
  e.keys_before = LoadCount(p + 3);
  return e;
}

void StoreTNodeTableEntry(uint8_t* table, uint32_t i,
                          const TNodeTableEntry& entry) {
  assert(entry.offset <= 0xffff);
  uint8_t* p = table + i * kTNodeTableEntryBytes;
  StoreLE16(p, uint16_t(entry.offset));
  p[2] = entry.key;
  StoreCount(p + 3, entry.keys_before);
}

namespace {

SChildStart StartAt(const uint8_t* buf, const Node& t,
                    const TNodeTableEntry& e) {
  const uint32_t pos = t.end + e.offset;
  return SChildStart{true, pos, DecodeBaseFor(buf + pos, e.key), e.keys_before};
}

}  // namespace

SChildStart SChildBefore(const uint8_t* buf, const Node& t, uint8_t key) {
  assert(HasTNodeTable(t.header));
  const uint8_t* table = buf + t.table_pos;
  // Entry i names a key byte of at least 16 * (i + 1), so only entries
  // below `key`'s own boundary can name a smaller one.
  for (uint32_t i = key >> 4; i-- > 0;) {
    const TNodeTableEntry e = LoadTNodeTableEntry(table, i);
    if (e.used() && e.key < key) return StartAt(buf, t, e);
  }
  return SChildStart{};
}

SChildStart SChildBeforeNth(const uint8_t* buf, const Node& t, uint64_t n) {
  assert(HasTNodeTable(t.header));
  const uint8_t* table = buf + t.table_pos;
  for (uint32_t i = kTNodeTableEntries; i-- > 0;) {
    const TNodeTableEntry e = LoadTNodeTableEntry(table, i);
    if (e.used() && e.keys_before <= n) return StartAt(buf, t, e);
  }
  return SChildStart{};
}

void TNodeTableBuilder::Add(uint32_t offset, uint8_t key, uint64_t keys) {
  while (next_ < kTNodeTableEntries && key >= TNodeTableBoundary(next_)) {
    // The first child needs no entry, and a 16-bit offset reaches no
    // further: those entries stay unused.
    if (offset != 0 && offset <= 0xffff) {
      entries_[next_] = TNodeTableEntry{offset, key, keys_};
    }
    ++next_;
  }
  keys_ += keys;
}

std::string TNodeTableBuilder::Finish() const {
  std::string table(kTNodeTableBytes, '\0');
  auto* p = reinterpret_cast<uint8_t*>(table.data());
  for (uint32_t i = 0; i < kTNodeTableEntries; ++i) {
    StoreTNodeTableEntry(p, i, entries_[i]);
  }
  return table;
}

std::string TNodeTableFor(const uint8_t* buf, uint32_t begin, uint32_t end) {
  TNodeTableBuilder table;
  for (RegionCursor it(Region{buf, begin, end}); !it.done(); it.Next()) {
    const Node& s = it.node();
    table.Add(s.pos - begin, s.key, CountKeys(Region{buf, s.pos, s.end}));
  }
  return table.Finish();
}

}  // namespace kvlab::stage5::hyperion
