// Container jump tables (paper, section 3.3): a list of a container's
// T-nodes, stored between its header and its nodes, that lets a scan start
// near the T-node it wants instead of at the first one.
//
// The header's 3 J bits give the table 7*J entries (0..49), 8 bytes each,
// little-endian:
//
//   bytes 0..2   offset of the T-node from the container's base (0: unused)
//   byte  3      the T-node's key byte
//   bytes 4..7   keys stored before that T-node in this container
//
// The paper's entries are the first 4 bytes (a 24-bit offset and the key
// byte); the key count is kvlab's own extension for GetNth, as in the jump
// successors. Used entries come first, sorted by key byte and strictly
// increasing; unused ones (offset 0) fill the rest. An entry may name any
// T-node of the container: which ones is the builder's choice
// (HyperionTrie::RebuildJumpTable), correctness only needs each entry to
// be true.

#ifndef KVLAB_STAGE5_JUMP_TABLE_H_
#define KVLAB_STAGE5_JUMP_TABLE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "container_scan.h"
#include "kvlab/coding.h"

namespace kvlab::stage5::hyperion {

struct JumpTableEntry {
  uint32_t offset = 0;  // 0: an unused slot
  uint8_t key = 0;
  uint32_t keys_before = 0;
};

JumpTableEntry LoadJumpTableEntry(const uint8_t* c, uint32_t i);
// Entry i's fields read in place, for the loops that test many entries
// and decode one.
inline const uint8_t* JumpTableSlot(const uint8_t* c, uint32_t i) {
  return c + kHeaderBytes + i * kJumpTableEntryBytes;
}
inline bool JumpTableSlotUsed(const uint8_t* c, uint32_t i) {
  const uint8_t* p = JumpTableSlot(c, i);
  return (p[0] | p[1] | p[2]) != 0;
}
inline uint8_t JumpTableKeyAt(const uint8_t* c, uint32_t i) {
  return JumpTableSlot(c, i)[3];
}
inline uint32_t JumpTableKeysBeforeAt(const uint8_t* c, uint32_t i) {
  return LoadLE32(JumpTableSlot(c, i) + 4);
}
void StoreJumpTableEntry(uint8_t* c, uint32_t i, const JumpTableEntry& e);

// Adds `bytes` to the offset and `keys` to the keys before of every used
// entry from slot `from` on (the entries after a change), in place. The
// results must fit: offsets in 1..2^24-1, counts in 0..2^32-1.
void ShiftJumpTableEntries(uint8_t* c, uint32_t from, int64_t bytes,
                           int64_t keys);
// Removes the used entry in slot `i`: the used entries after it move down
// one slot and the last slot becomes unused.
void DropJumpTableEntry(uint8_t* c, uint32_t i);

// The table bytes for `entries` (sorted) in a table of `slots` entries.
std::string JumpTableBytes(const std::vector<JumpTableEntry>& entries,
                           uint32_t slots);

// The base to pass DecodeNode for the node at `p`, known to have key byte
// `key`, when its previous sibling is unknown: a delta-encoded node's key
// is its base plus the delta; an explicit one ignores the base.
inline uint8_t DecodeBaseFor(const uint8_t* p, uint8_t key) {
  return uint8_t(key - DeltaOf(p[0]));
}

// Where a scan of `region` may start: the T-node of the last used entry
// satisfying a condition, or nowhere (found false) if none does.
struct JumpStart {
  bool found = false;
  JumpTableEntry entry;
};
// The last entry whose key byte is below `key`.
JumpStart JumpBeforeKey(const Region& region, uint8_t key);
// The last entry with at most `n` keys before it.
JumpStart JumpBeforeNth(const Region& region, uint64_t n);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_JUMP_TABLE_H_
