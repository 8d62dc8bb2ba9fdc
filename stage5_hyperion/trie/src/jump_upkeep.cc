// Keeping the jump structures true after a write. A Put or Delete does not
// patch them splice by splice; once its change to a container is done,
// FinishLevel calls the two kinds of upkeep here, in this order:
//   1. jump successors and T-node jump tables (FinishJumpSuccessors);
//   2. the container jump table (FinishJumpTable, RebuildJumpTable).

#include <cstring>

#include "hyperion_trie.h"
#include "jump_table.h"
#include "tnode_table.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::DecodeNode;
using hyperion::JumpTableEntry;
using hyperion::kHeaderBytes;
using hyperion::kJumpSuccessorFlag;
using hyperion::kJumpTableEntryBytes;
using hyperion::kJumpTableGroup;
using hyperion::kTNodeTableFlag;
using hyperion::Node;

// ---------------------------------------------------------------------------
// 1. Jump successors and T-node jump tables.
//
// Jump successors (paper, section 3.3): a T-node with many S-children
// records how many bytes follow it up to its next sibling T-node, so the
// scan for a T-node steps over each smaller one with one addition instead
// of decoding every S-node below it. Without them, finding the last T-node
// of a full container decodes all its (up to 65,536) S-nodes.
//
// Operations never keep them up to date splice by splice. A change inside
// a real container only ever touches the subtree of one top-level T-node,
// the one holding the key's byte at that level, so once the operation is
// done FinishLevel takes that T-node where the descent met it (no splice
// starts before it), measures its children and rewrites, adds or removes
// its 3-7 bytes, and its T-node jump table (tnode_table.h) with them. An
// operation that removed no S-child skips the measuring when the T-node
// already has a jump successor: its jump moves by the container's change
// in size, and so do the table's entries after the key's S-child; a child
// a Put added (unless it is the first) is given to the entries it now
// stands first for. In a container the operation only passed through, it
// adds the change in keys to the T-node's count and to those entries. A
// container just ejected from an embedded one (which has no jump
// structures) is normalised as a whole; it is small.

namespace {

// The stored form of a jump of `bytes`: 0 when 16 bits cannot hold it.
uint32_t JumpValue(uint32_t bytes) { return bytes > 0xffff ? 0 : bytes; }

// Appends T-node `t`'s header and key byte with the jump-successor and
// T-node-table flags set or cleared, the jump successor itself if set
// (stored jump `jump` (JumpValue) over `keys` keys), and `table` (empty:
// none).
void AppendTHead(const uint8_t* buf, const Node& t, bool with_jump,
                 uint32_t jump, uint64_t keys, std::string_view table,
                 std::string* out) {
  uint8_t header = t.header & ~(kJumpSuccessorFlag | kTNodeTableFlag);
  if (with_jump) header |= kJumpSuccessorFlag;
  if (!table.empty()) header |= kTNodeTableFlag;
  out->push_back(char(header));
  out->append(reinterpret_cast<const char*>(buf + t.pos + 1),
              t.head_bytes() - 1);
  if (with_jump) {
    uint8_t field[hyperion::kMaxJumpSuccessorBytes];
    const uint32_t n = hyperion::StoreJumpSuccessor(field, jump, keys);
    out->append(reinterpret_cast<const char*>(field), n);
  }
  out->append(table);
}

// Entry `e` moved to `offset` with `key_delta` more keys before it: all
// zero (unused) once a 16-bit offset cannot reach it, as a rebuilt table
// leaves it.
hyperion::TNodeTableEntry MovedEntry(const hyperion::TNodeTableEntry& e,
                                     int64_t offset, int key_delta) {
  if (offset > 0xffff) return hyperion::TNodeTableEntry{};
  return hyperion::TNodeTableEntry{
      uint32_t(offset), e.key, uint64_t(int64_t(e.keys_before) + key_delta)};
}

// T-node `t`'s table bytes as stored (empty if it has none).
std::string_view TableOf(const uint8_t* buf, const Node& t) {
  if (!hyperion::HasTNodeTable(t.header)) return {};
  return std::string_view(reinterpret_cast<const char*>(buf + t.table_pos),
                          hyperion::kTNodeTableBytes);
}

// Moves the entries of T-node `t`'s table (if any) naming a key byte after
// `s` by `bytes` and `key_delta` keys, in place.
void ShiftTNodeTable(uint8_t* buf, const Node& t, uint8_t s, int64_t bytes,
                     int key_delta) {
  if (!hyperion::HasTNodeTable(t.header)) return;
  uint8_t* table = buf + t.table_pos;
  for (uint32_t e = 0; e < hyperion::kTNodeTableEntries; ++e) {
    hyperion::TNodeTableEntry entry = hyperion::LoadTNodeTableEntry(table, e);
    if (!entry.used() || entry.key <= s) continue;
    hyperion::StoreTNodeTableEntry(
        table, e, MovedEntry(entry, int64_t{entry.offset} + bytes, key_delta));
  }
}

}  // namespace

std::string TrieWrite::WithJumpSuccessors(std::string_view nodes) const {
  const auto* buf = reinterpret_cast<const uint8_t*>(nodes.data());
  const uint32_t end = uint32_t(nodes.size());
  std::string out;
  out.reserve(nodes.size());
  uint32_t pos = 0;
  uint8_t prev = 0;
  while (pos < end && buf[pos] != 0) {
    const Node t = DecodeNode(buf, pos, prev);
    const hyperion::SChildren children =
        hyperion::MeasureSChildren(buf, t, end);
    const bool jump = children.count > options_.jump_successor;
    const uint64_t keys =
        jump ? hyperion::CountKeys(Region{buf, t.pos, children.end}) : 0;
    const std::string table =
        WantsTNodeTable(options_, children.count, keys)
            ? hyperion::TNodeTableFor(buf, t.end, children.end)
            : std::string();
    AppendTHead(buf, t, jump, JumpValue(children.end - t.value_pos), keys,
                table, &out);
    out.append(nodes.substr(t.value_pos, children.end - t.value_pos));
    prev = t.key;
    pos = children.end;
  }
  return out;
}

void TrieWrite::SetJumpSuccessor(size_t i, const Node& t, uint32_t jump,
                                 uint64_t keys) {
  uint8_t* c = Base(i);
  // The varint may change length; then the T-node's head is respliced.
  if (hyperion::kJumpBytes + hyperion::VarintSize(keys) ==
      t.table_pos - t.jump_pos) {
    undo_.SaveBytes(c + t.jump_pos, t.table_pos - t.jump_pos);
    hyperion::StoreJumpSuccessor(c + t.jump_pos, jump, keys);
    return;
  }
  std::string head;
  AppendTHead(c, t, true, jump, keys, std::string(TableOf(c, t)), &head);
  RawSpliceAt(i, t.pos, t.value_pos - t.pos, head);
}

void TrieWrite::FinishJumpSuccessors(size_t i, std::string_view key,
                                     int key_delta) {
  const Level& level = levels_[i];
  uint8_t* c = Base(i);
  if (level.changed && level.ejected) {
    const uint32_t used = hyperion::ContainerUsed(c);
    const uint32_t begin = hyperion::NodesBegin(c);
    const std::string_view nodes(reinterpret_cast<const char*>(c + begin),
                                 used - begin);
    const std::string normalised = WithJumpSuccessors(nodes);
    if (normalised != nodes) {
      RawSpliceAt(i, begin, uint32_t(nodes.size()), normalised);
    }
    return;
  }
  if (!level.changed && key_delta == 0) return;
  // Every splice of the operation in this container started at the
  // path's T-node or after it, so it still starts at t_pos: unless the
  // operation removed it, and the next T-node (re-encoded against the same
  // predecessor, t_prev) or the end took its place. An untouched
  // container holds it where the descent met it.
  const uint32_t used = hyperion::ContainerUsed(c);
  if (level.t_pos >= used || !hyperion::IsTNodeAt(c, level.t_pos)) return;
  const Node t = DecodeNode(c, level.t_pos, level.t_prev);
  if (t.key != uint8_t(key[level.depth])) return;
  const bool present = hyperion::HasJumpSuccessor(t.header);
  if (!level.changed && !present) return;
  // An operation that removed no S-child here kept the T-node's children
  // (a Put may add one), so a T-node that had a jump successor still needs
  // one, and every change in size lies between its value and its next
  // sibling: the jump moves by the container's change in size, and the
  // table's entries after the key's S-child with it, without walking the
  // children (unless the jump had overflowed, or the table must come or
  // go).
  if (present && !level.s_removed) {
    const uint8_t* field = c + t.jump_pos;
    const uint32_t stored = hyperion::LoadJump(field);
    const uint64_t keys = hyperion::LoadJumpKeys(field) + key_delta;
    const int64_t bytes = level.changed ? int64_t{used} - level.used_before : 0;
    if ((stored != 0 || !level.changed) &&
        !TNodeTableMayFlip(t, level.s_added, keys, key_delta)) {
      if (hyperion::HasTNodeTable(t.header)) {
        undo_.SaveBytes(c + t.table_pos, hyperion::kTNodeTableBytes);
      }
      if (UpdateTNodeTable(c, t, level, key, bytes, key_delta)) {
        SetJumpSuccessor(i, t, JumpValue(uint32_t(stored + bytes)), keys);
        return;
      }
    }
  }
  // Otherwise measure the children and rewrite the head whole.
  const hyperion::SChildren children = hyperion::MeasureSChildren(c, t, used);
  const bool wanted = children.count > options_.jump_successor;
  uint64_t keys = 0;
  if (wanted) {
    // A jump successor's key count was right before the operation.
    keys = present ? hyperion::LoadJumpKeys(c + t.jump_pos) + key_delta
                   : hyperion::CountKeys(Region{c, t.pos, children.end});
  }
  const std::string table =
      WantsTNodeTable(options_, children.count, keys)
          ? hyperion::TNodeTableFor(c, t.end, children.end)
          : std::string();
  std::string head;
  AppendTHead(c, t, wanted, JumpValue(children.end - t.value_pos), keys, table,
              &head);
  if (head != std::string_view(reinterpret_cast<const char*>(c + t.pos),
                               t.value_pos - t.pos)) {
    RawSpliceAt(i, t.pos, t.value_pos - t.pos, head);
  }
}

bool TrieWrite::TNodeTableMayFlip(const Node& t, bool s_added, uint64_t keys,
                                  int key_delta) const {
  const uint64_t min_keys = options_.tnode_table_keys;
  if (hyperion::HasTNodeTable(t.header)) return keys < min_keys;
  // No table: its children were too few or its keys too few. Only more
  // children, or keys just reaching the minimum, can change that.
  return keys >= min_keys &&
         (s_added || (key_delta > 0 && keys - key_delta < min_keys));
}

bool TrieWrite::UpdateTNodeTable(uint8_t* buf, const Node& t,
                                 const Level& level, std::string_view key,
                                 int64_t bytes, int key_delta) {
  if (!hyperion::HasTNodeTable(t.header)) return true;
  // A key ending at the T-node changed its value, not its children.
  if (key.size() == level.depth + 1) return true;
  const uint8_t s = uint8_t(key[level.depth + 1]);
  if (!level.s_added) {
    ShiftTNodeTable(buf, t, s, bytes, key_delta);
    return true;
  }
  // A new first child takes the place entries may not name; rebuild.
  if (level.s_offset == 0) return false;
  // The keys before the new child: from the entry before it, as the
  // descent's FindS walked.
  const hyperion::SChildStart start = hyperion::SChildBefore(buf, t, s);
  uint32_t pos = start.found ? start.pos : t.end;
  uint8_t prev = start.found ? start.prev : 0;
  uint64_t keys_before = start.found ? start.keys_before : 0;
  while (pos < t.end + level.s_offset) {
    const Node n = DecodeNode(buf, pos, prev);
    keys_before += hyperion::CountKeys(Region{buf, pos, n.end});
    prev = n.key;
    pos = n.end;
  }
  // The sibling after the new child sat where it now is; the re-encoding
  // of its head moved only the children after it.
  const uint32_t next_offset = DecodeNode(buf, pos, prev).end - t.end;
  const uint8_t first = DecodeNode(buf, t.end, 0).key;
  uint8_t* table = buf + t.table_pos;
  for (uint32_t e = 0; e < hyperion::kTNodeTableEntries; ++e) {
    hyperion::TNodeTableEntry entry = hyperion::LoadTNodeTableEntry(table, e);
    const uint32_t boundary = hyperion::TNodeTableBoundary(e);
    if (boundary <= s && first < boundary && (!entry.used() || entry.key > s)) {
      // The new child is now the first at or past the boundary.
      entry = level.s_offset <= 0xffff
                  ? hyperion::TNodeTableEntry{level.s_offset, s, keys_before}
                  : hyperion::TNodeTableEntry{};
    } else if (entry.used() && entry.key > s) {
      const int64_t offset = entry.offset == level.s_offset
                                 ? int64_t{next_offset}
                                 : int64_t{entry.offset} + bytes;
      entry = MovedEntry(entry, offset, key_delta);
    }
    hyperion::StoreTNodeTableEntry(table, e, entry);
  }
  return true;
}

// ---------------------------------------------------------------------------
// 2. Container jump tables.
//
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

void TrieWrite::FinishJumpTable(size_t i, std::string_view key, int key_delta) {
  const Level& level = levels_[i];
  // A container this operation ejected is new: no table, no lookup in it.
  if (level.ejected) return;
  uint8_t* c = Base(i);
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
    RebuildJumpTable(i);
  }
}

void TrieWrite::RebuildJumpTable(size_t i) {
  const uint8_t* c = Base(i);
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
                : hyperion::CountKeys(Region{c, pos, end, 0});
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
    undo_.SaveBytes(Base(i) + kHeaderBytes, table.size());
    std::memcpy(Base(i) + kHeaderBytes, table.data(), table.size());
    return;
  }
  RawSpliceAt(i, kHeaderBytes, old_slots * kJumpTableEntryBytes, table);
  uint8_t* moved = Base(i);
  undo_.SaveBytes(moved, kHeaderBytes);
  hyperion::StoreHeader(moved, hyperion::ContainerSize(moved),
                        hyperion::ContainerFree(moved), groups,
                        hyperion::ContainerSplitDelay(moved));
}

}  // namespace kvlab::stage5
