// T-node jump tables (paper, section 3.3): a T-node of a real container
// with many S-children carries a table of 15 entries, so that finding one
// of its S-children, or the n-th key below them, starts near the target
// instead of at the first child.
//
// The table sits between the T-node's jump successor and its value (node.h)
// and is kTNodeTableBytes long. Entry i (0..14) belongs to the key byte
// boundary 16 * (i + 1): it names the first S-child whose key byte is at
// least that boundary, in 8 bytes:
//
//   [offset: 2 bytes]  little-endian, from the T-node's first S-child (the
//                      T-node's `end`)
//   [key: 1 byte]      that child's key byte: the base its delta decodes
//                      against is not known when a search lands on it
//   [keys: 5 bytes]    the keys below the S-children before it,
//                      little-endian: kvlab's extension for GetNth, like the
//                      jump successor's key count
//
// An entry is unused, all 8 bytes zero, when no child reaches its
// boundary, when the first child does (there is nothing to skip), or when
// the child lies more than 65,535 bytes past the first.
//
// The paper points entry i at the S-node with exactly key byte 16*(i+1)
// and inserts empty placeholder S-nodes where no such key exists. Storing
// the landing key byte instead keeps every node a real one (no node that
// leads to no key), at one byte per entry.
//
// Offsets count from the first child, so a change to the T-node's own
// head or value leaves the table valid; a change to its children does not,
// and the upkeep (FinishJumpSuccessors, jump_upkeep.cc) moves its
// entries in place or rebuilds it.

#ifndef KVLAB_STAGE5_TNODE_TABLE_H_
#define KVLAB_STAGE5_TNODE_TABLE_H_

#include <cstdint>
#include <string>

#include "node.h"

namespace kvlab::stage5::hyperion {

struct TNodeTableEntry {
  uint32_t offset = 0;  // 0: unused (and the other fields 0)
  uint8_t key = 0;
  uint64_t keys_before = 0;
  bool used() const { return offset != 0; }
};

// The boundary of entry i: the smallest key byte it may name.
constexpr uint32_t TNodeTableBoundary(uint32_t i) { return 16 * (i + 1); }

TNodeTableEntry LoadTNodeTableEntry(const uint8_t* table, uint32_t i);
void StoreTNodeTableEntry(uint8_t* table, uint32_t i,
                          const TNodeTableEntry& entry);

// Where a walk over the S-children of T-node `t` (decoded from `buf`, with
// a table) may start: the child an entry names, its position in `buf`, the
// base its delta decodes against, and the keys below the children before
// it. found is false when no entry helps: start at the first child.
struct SChildStart {
  bool found = false;
  uint32_t pos = 0;
  uint8_t prev = 0;
  uint64_t keys_before = 0;
};

// The last used entry naming a key byte smaller than `key` (never equal,
// so that the walk passes the child before the one it stops at and knows
// its key byte).
SChildStart SChildBefore(const uint8_t* buf, const Node& t, uint8_t key);

// The last used entry with at most `n` keys before it.
SChildStart SChildBeforeNth(const uint8_t* buf, const Node& t, uint64_t n);

// Builds a table while the S-children are walked in order: Add each child
// (its position relative to the first child, key byte, and the keys at and
// below it), then Finish.
class TNodeTableBuilder {
 public:
  void Add(uint32_t offset, uint8_t key, uint64_t keys);
  // The table's kTNodeTableBytes bytes.
  std::string Finish() const;

 private:
  TNodeTableEntry entries_[kTNodeTableEntries];
  uint32_t next_ = 0;  // the first entry not yet assigned
  uint64_t keys_ = 0;  // below the children added so far
};

// The table for the S-children at [begin, end) of `buf`.
std::string TNodeTableFor(const uint8_t* buf, uint32_t begin, uint32_t end);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_TNODE_TABLE_H_
