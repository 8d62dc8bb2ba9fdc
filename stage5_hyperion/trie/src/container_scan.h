// A Hyperion container's header and the one scan loop every operation uses
// to find a key byte among sibling nodes (paper, sections 3.1 and 3.3).
//
// A container is a byte array from the memory manager:
//
//   [4-byte header][jump table: 7*J entries][nodes in pre-order][zeros]
//
// The header is a little-endian 32-bit word:
//
//   bits 18..0   size in 32-byte units (the chunk's size / 32)
//   bits 26..19  free: unused bytes at the end, 0..31 after every operation
//   bits 29..27  J: the container jump table has 7*J entries (jump_table.h)
//   bits 31..30  split delay: failed attempts to split (split.h), 0..3
//
// The paper stores the size in bytes; counting 32-byte units lets a root
// container of 65,536 pointer children (with their key counts) exceed
// 512 KiB. The free tail is all zero: a zero byte is an invalid node and
// ends every scan. An embedded container is a region [size byte][nodes]
// inside its parent with no header of its own; a Region names either.

#ifndef KVLAB_STAGE5_CONTAINER_SCAN_H_
#define KVLAB_STAGE5_CONTAINER_SCAN_H_

#include <cstddef>
#include <cstdint>

#include "kvlab/coding.h"
#include "node.h"

namespace kvlab::stage5::hyperion {

inline constexpr uint32_t kHeaderBytes = 4;
inline constexpr uint32_t kContainerStep = 32;
// A container jump table grows in groups of 7 entries of 8 bytes, up to 7
// groups (the header's 3 J bits).
inline constexpr uint32_t kJumpTableGroup = 7;
inline constexpr uint32_t kMaxJumpTableGroups = 7;
inline constexpr uint32_t kJumpTableEntryBytes = 8;

inline uint32_t RoundUpToStep(uint32_t n) {
  return (n + kContainerStep - 1) / kContainerStep * kContainerStep;
}

inline uint32_t LoadHeader(const uint8_t* c) { return LoadLE32(c); }
inline uint32_t ContainerSize(const uint8_t* c) {
  return (LoadHeader(c) & 0x7ffff) * kContainerStep;
}
inline uint32_t ContainerFree(const uint8_t* c) {
  return (LoadHeader(c) >> 19) & 0xff;
}
inline uint32_t ContainerUsed(const uint8_t* c) {
  return ContainerSize(c) - ContainerFree(c);
}
inline uint32_t ContainerJumpBits(const uint8_t* c) {
  return (LoadHeader(c) >> 27) & 0x7;
}
inline uint32_t ContainerSplitDelay(const uint8_t* c) {
  return LoadHeader(c) >> 30;
}
// Entries of the container's jump table (used or not).
inline uint32_t JumpTableEntries(const uint8_t* c) {
  return ContainerJumpBits(c) * kJumpTableGroup;
}
// Where the container's nodes start: after the header and jump table.
inline uint32_t NodesBegin(const uint8_t* c) {
  return kHeaderBytes + JumpTableEntries(c) * kJumpTableEntryBytes;
}
// Writes a header for a container of `size` bytes (a multiple of 32) with
// `free` unused bytes (< 256), a jump table of `jump_groups` groups (< 8)
// and split delay `split_delay` (< 4).
inline void StoreHeader(uint8_t* c, uint32_t size, uint32_t free,
                        uint32_t jump_groups = 0, uint32_t split_delay = 0) {
  const uint32_t word = (size / kContainerStep) | (free << 19) |
                        (jump_groups << 27) | (split_delay << 30);
  StoreLE32(c, word);
}

// The nodes of one container level: bytes [begin, end) of `buf`, which is
// the real container's base address. For a real container begin is
// NodesBegin and end its used size, and `table_entries` says how many
// jump-table entries follow its header; for an embedded one begin is one
// past its size byte and there is no table.
struct Region {
  const uint8_t* buf = nullptr;
  uint32_t begin = 0;
  uint32_t end = 0;
  uint32_t table_entries = 0;
  bool empty() const { return begin >= end || buf[begin] == 0; }
};

inline Region WholeContainer(const uint8_t* c) {
  return Region{c, NodesBegin(c), ContainerUsed(c), JumpTableEntries(c)};
}
// The region of the embedded container whose size byte is at `size_pos`.
inline Region EmbeddedRegion(const uint8_t* buf, uint32_t size_pos) {
  return Region{buf, size_pos + 1, size_pos + buf[size_pos]};
}

// Where a key byte is, or would go, among siblings.
struct SiblingSearch {
  bool found = false;
  // The node with the key byte if found, otherwise the insertion point:
  // the first sibling with a larger key byte, or one past the last sibling.
  uint32_t pos = 0;
  // The key byte of the sibling before `pos` (0 if none): the base of the
  // delta of a node placed at pos.
  uint8_t prev = 0;
  bool has_next = false;  // a sibling starts at pos (always true if found)
  Node node;              // that sibling, if has_next
  uint32_t steps = 0;     // siblings walked past (after any jump table)
};

// Decodes the nodes of a region one after another in pre-order, T- and
// S-nodes alike, each against the previous sibling of its kind. RegionCursor
// walks with it; NthInRegion uses it alone, since it jumps ahead.
struct PreorderDecoder {
  uint8_t prev_t = 0;  // key byte of the last T-node
  uint8_t prev_s = 0;  // of the last S-node under it (0: none yet)

  Node Decode(const uint8_t* buf, uint32_t pos) {
    const bool s = IsS(buf[pos]);
    const Node n = DecodeNode(buf, pos, s ? prev_s : prev_t);
    if (s) {
      prev_s = n.key;
    } else {
      prev_t = n.key;
      prev_s = 0;
    }
    return n;
  }
};

// One past the S-nodes starting at `pos` (a T-node's children), walking
// them one by one; stops at `end`, a zero byte or a T-node.
uint32_t SkipSChildren(const uint8_t* buf, uint32_t pos, uint32_t end);

// True if a T-node starts at `pos` (not a zero byte, not an S-node).
inline bool IsTNodeAt(const uint8_t* buf, uint32_t pos) {
  return buf[pos] != 0 && !IsS(buf[pos]);
}

// The S-children of T-node `t`, walked: how many, and one past the last.
struct SChildren {
  uint32_t count = 0;
  uint32_t end = 0;
};
SChildren MeasureSChildren(const uint8_t* buf, const Node& t, uint32_t end);

// One past the T-node at `t` and all its S-node children: one addition if
// `t` has a jump successor, else a walk over the children.
uint32_t SkipTNode(const uint8_t* buf, const Node& t, uint32_t end);

// Walks the nodes of a region in pre-order: the walk that counts, checks,
// dumps, exports or forwards everything below a region.
//
//   for (RegionCursor it(region); !it.done(); it.Next()) { ... it.node() }
//
// NextT instead steps over a T-node's S-children, for walks over T-nodes.
// The hot walks go by hand: Scan keeps its place in registers, and
// NthInRegion and the descent jump ahead by the jump structures.
class RegionCursor {
 public:
  explicit RegionCursor(const Region& region)
      : region_(region), pos_(region.begin) {
    Load();
  }
  bool done() const { return done_; }
  const Node& node() const { return node_; }
  // The key byte of the T-node the current node is or lies under.
  uint8_t t_key() const { return decoder_.prev_t; }
  // To the next node in pre-order.
  void Next() {
    pos_ = node_.end;
    Load();
  }
  // From a T-node to the next T-node, past its S-children.
  void NextT() {
    pos_ = SkipTNode(region_.buf, node_, region_.end);
    Load();
  }

 private:
  void Load() {
    done_ = pos_ >= region_.end || region_.buf[pos_] == 0;
    if (!done_) node_ = decoder_.Decode(region_.buf, pos_);
  }

  Region region_;
  uint32_t pos_;
  bool done_ = false;
  PreorderDecoder decoder_;
  Node node_;
};

// The S-children of T-node `t` are walked node by node, each header read
// before the next one's address is known: a cache miss per line. Where a
// jump successor says where they end, the lines can be asked for at once.
//
// The bytes [begin, end) of `buf` holding `t`'s S-children from offset
// `from` on, at most kMaxPrefetchBytes of them; empty if `t` has no jump
// successor or its jump does not fit (0).
inline constexpr uint32_t kMaxPrefetchBytes = 2048;
// Starts loading the cache lines of bytes [p, p + bytes) after the first
// (which the caller reads at once).
void PrefetchBytes(const uint8_t* p, size_t bytes);
struct ByteSpan {
  uint32_t begin = 0;
  uint32_t end = 0;
};
ByteSpan SChildrenAhead(const uint8_t* buf, const Node& t, uint32_t from);
// Starts loading the cache lines of SChildrenAhead(buf, t, from) after the
// first (which the caller reads at once).
void PrefetchSChildren(const uint8_t* buf, const Node& t, uint32_t from);

// The scan loop: walks the T-nodes of `region` in order, skipping each one's
// S-children, until it meets `key` or a larger key byte. A container's jump
// table lets it start at the last entry with a smaller key byte.
SiblingSearch FindT(const Region& region, uint8_t key);

// The same for the S-children of T-node `t` (decoded from `region`),
// starting from its T-node jump table's entry if it has one.
SiblingSearch FindS(const Region& region, const Node& t, uint8_t key);

// Keys below `region`, counting pointer children by their stored counts.
// Defined in read.cc: one more caller of DecodeNode in container_scan.cc
// makes g++ stop inlining it into FindSibling, the scan loop, and a Get
// then runs 10-20% more instructions.
uint64_t CountKeys(const Region& region);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_CONTAINER_SCAN_H_
