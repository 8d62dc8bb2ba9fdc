// Keeping container jump tables true (the layout is in jump_table.h).
//
// Like the jump successors, the table is not patched splice by splice.
// Every change an operation makes in a real container lies in the subtree
// of the T-node on the key's path, plus the re-encoded head of the T-node
// after it. So once the operation is done, the entries before the path's
// T-node are still true, the path's own entry too unless its T-node went,
// and every entry after it has moved by the container's change in bytes
// and keys, except the one for the next T-node, which is found directly.
//
// Which T-nodes have entries is decided only when a Put's or Delete's
// lookup walked past too many T-nodes (options.jump_table) of a container
// that is not small (options.jump_table_min): that operation then rebuilds
// the container's table, sized for its T-nodes and spread evenly over them.

#include <cstring>

#include "hyperion_trie.h"
#include "jump_table.h"

namespace kvlab::stage5 {

using hyperion::DecodeNode;
using hyperion::JumpTableEntry;
using hyperion::kHeaderBytes;
using hyperion::kJumpTableEntryBytes;
using hyperion::kJumpTableGroup;
using hyperion::Node;

namespace {

// A table for `t_nodes` T-nodes: about one entry per four, in groups of 7,
// at most kMaxJumpTableGroups groups; none for a single T-node.
uint32_t JumpTableGroupsFor(size_t t_nodes) {
  if (t_nodes < 2) return 0;
  const size_t entries = (t_nodes + 3) / 4;
  const size_t groups = (entries + kJumpTableGroup - 1) / kJumpTableGroup;
  return uint32_t(std::min<size_t>(groups, hyperion::kMaxJumpTableGroups));
}

}  // namespace

void HyperionTrie::FinishJumpTable(LevelPath* levels, size_t i,
                                   std::string_view key, int key_delta) {
  const Level& level = (*levels)[i];
  // A container this operation ejected is new: no table, no lookup in it.
  if (level.ejected) return;
  uint8_t* c = Base(*levels, i);
  const uint32_t slots = hyperion::JumpTableEntries(c);
  const uint32_t used = hyperion::ContainerUsed(c);
  const int64_t shift =
      level.changed ? int64_t{used} - int64_t{level.used_before} : 0;
  const uint8_t t_key = uint8_t(key[level.depth]);
  // Entries before the path's T-node stay as they are; often that is all.
  uint32_t slot = 0;
  while (slot < slots && hyperion::JumpTableSlotUsed(c, slot) &&
         hyperion::JumpTableKeyAt(c, slot) < t_key) {
    ++slot;
  }
  if (slot < slots && hyperion::JumpTableSlotUsed(c, slot) &&
      (shift != 0 || key_delta != 0)) {
    // What follows changes entries from this slot on, and no others.
    undo_.SaveBytes(c + kHeaderBytes + slot * kJumpTableEntryBytes,
                    (slots - slot) * kJumpTableEntryBytes);
    // The path's T-node is at t_pos unless the operation removed it; then
    // the T-node after it took its place.
    bool t_kept = false;
    uint32_t next_pos = level.t_pos;
    uint8_t next_prev = level.t_prev;
    if (level.t_pos < used && hyperion::IsTNodeAt(c, level.t_pos)) {
      const Node t = DecodeNode(c, level.t_pos, level.t_prev);
      if (t.key == t_key) {
        t_kept = true;
        next_pos = hyperion::SkipTNode(c, t, used);
        next_prev = t_key;
      }
    }
    if (hyperion::JumpTableKeyAt(c, slot) == t_key) {
      if (t_kept) {
        ++slot;  // the path's own entry is still true
      } else {
        hyperion::DropJumpTableEntry(c, slot);
      }
    }
    if (slot < slots && hyperion::JumpTableSlotUsed(c, slot)) {
      // Only the T-node right after the path's may have been re-encoded:
      // the first later entry is set where it is, the rest moved.
      JumpTableEntry e = hyperion::LoadJumpTableEntry(c, slot);
      e.keys_before = uint32_t(int64_t{e.keys_before} + key_delta);
      const bool is_next = next_pos < used &&
                           hyperion::IsTNodeAt(c, next_pos) &&
                           DecodeNode(c, next_pos, next_prev).key == e.key;
      e.offset = is_next ? next_pos : uint32_t(e.offset + shift);
      hyperion::StoreJumpTableEntry(c, slot, e);
      hyperion::ShiftJumpTableEntries(c, slot + 1, shift, key_delta);
    }
  }
  if (options_.jump_table != 0 && level.t_steps > options_.jump_table &&
      used >= options_.jump_table_min) {
    RebuildJumpTable(levels, i);
  }
}

void HyperionTrie::RebuildJumpTable(LevelPath* levels, size_t i) {
  const uint8_t* c = Base(*levels, i);
  const uint32_t used = hyperion::ContainerUsed(c);
  std::vector<JumpTableEntry> t_nodes;
  // keys_before has 32 bits: 2^32 keys would take far more memory than
  // kvlab is built for (its benchmarks stop at 2 x 10^8 pairs).
  uint64_t keys = 0;
  uint32_t pos = hyperion::NodesBegin(c);
  uint8_t prev = 0;
  while (pos < used && c[pos] != 0) {
    const Node t = DecodeNode(c, pos, prev);
    const uint32_t end = hyperion::SkipTNode(c, t, used);
    t_nodes.push_back(JumpTableEntry{pos, t.key, uint32_t(keys)});
    keys += hyperion::HasJumpSuccessor(t.header)
                ? hyperion::LoadJumpKeys(c + t.jump_pos)
                : CountKeys(Region{c, pos, end, 0});
    prev = t.key;
    pos = end;
  }
  const uint32_t old_slots = hyperion::JumpTableEntries(c);
  const uint32_t groups = JumpTableGroupsFor(t_nodes.size());
  const uint32_t slots = groups * kJumpTableGroup;
  // The nodes move by the change in table size.
  const int64_t shift = (int64_t{slots} - old_slots) * kJumpTableEntryBytes;
  const size_t chosen = std::min<size_t>(slots, t_nodes.size());
  std::vector<JumpTableEntry> entries;
  for (size_t j = 0; j < chosen; ++j) {
    JumpTableEntry e = t_nodes[j * t_nodes.size() / chosen];
    e.offset = uint32_t(e.offset + shift);
    entries.push_back(e);
  }
  const std::string table = hyperion::JumpTableBytes(entries, slots);
  if (slots == old_slots) {  // the nodes stay where they are
    undo_.SaveBytes(Base(*levels, i) + kHeaderBytes, table.size());
    std::memcpy(Base(*levels, i) + kHeaderBytes, table.data(), table.size());
    return;
  }
  RawSpliceAt(levels, i, kHeaderBytes, old_slots * kJumpTableEntryBytes, table);
  uint8_t* moved = Base(*levels, i);
  undo_.SaveBytes(moved, kHeaderBytes);
  hyperion::StoreHeader(moved, hyperion::ContainerSize(moved),
                        hyperion::ContainerFree(moved), groups,
                        hyperion::ContainerSplitDelay(moved));
}

}  // namespace kvlab::stage5
