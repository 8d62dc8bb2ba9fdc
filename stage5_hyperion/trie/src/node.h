// Hyperion's node encoding (paper, section 3.1, Figure 5): the header byte
// of T- and S-nodes, the 3-bit delta encoding of key bytes, inline and
// out-of-line values, and the path-compressed suffix header.
//
// A node header byte, bit 0 the least significant:
//
//   bits 1..0  type   0 invalid (a zero byte: end of the nodes), 1 inner
//                     (no key ends here), 2 a key ends here with an empty
//                     value, 3 a key ends here and a value follows
//   bit  2     k      0 T-node (first key byte of the container's 16 bits),
//                     1 S-node (second key byte)
//   bits 5..3  delta  1..7: key byte = previous sibling's key byte + delta
//                     (the first sibling counts from 0); 0: an explicit key
//                     byte follows the header
//   bits 7..6  T-node: bit 6 js, a jump successor follows the key byte;
//                     bit 7 jt, a T-node jump table (tnode_table.h) follows
//                     the jump successor; only T-nodes with one have it
//              S-node: child kind, 0 none, 1 pointer, 2 embedded container,
//                     3 path-compressed suffix
//
// An S-node of type 1 (inner) with child kind 0 (none) would lead nowhere,
// so that combination has a meaning of its own: a key ends here and its
// value is 8 bytes stored bare, without the length byte below (the paper's
// inline value; a "bare leaf"). TypeOf reports it as type 3. It is the
// commonest leaf of all: every key of an integer set ends in one.
//
// A T-node is  [header][key byte?][jump successor?][S-table?][value?]
// An S-node is [header][key byte?][value?][child?]
//
// The jump successor (paper, section 3.3) is 3 to 7 bytes:
//   [jump: 2 bytes]   little-endian, the bytes after the jump successor up
//                     to the next sibling T-node: the T-node's value and
//                     all its S-children. Scans step over the T-node with
//                     one addition instead of walking its children. 0
//                     means "too far to say" (more than 65,535 bytes): the
//                     scan walks.
//   [keys: 1-5 bytes] the keys at and below the T-node as a varint (below),
//                     kvlab's extension (the paper has no GetNth): GetNth
//                     steps over the T-node the same way.
// Only T-nodes of real containers carry one, never those of embedded
// containers (hyperion_trie.h says which). The jump counts from the
// value, so adding or dropping a T-node jump table leaves it unchanged.
//
// An S-node's child is one of
//   pointer    5-byte HyperionPointer to a container + 5-byte key count of
//              that container's subtree (little-endian), for GetNth
//   embedded   [size byte = 1 + payload bytes][payload: nodes]
//   suffix     [header: bits 6..0 length 1..127, bit 7 value flag]
//              [value?][suffix bytes]
// and a value (type 3, or a suffix with its flag set) is one of
//   inline     [length 1..255][bytes]
//   external   [0][5-byte HyperionPointer to a chunk of exactly the value]
//   bare       [8 bytes], in a bare leaf only: an inline value of 8 bytes
//              without its length byte (a "tagged" value is one of the two
//              others: ValueBytes and ValueAt read those)

#ifndef KVLAB_STAGE5_NODE_H_
#define KVLAB_STAGE5_NODE_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "kvlab/coding.h"
#include "kvlab/stage5/hyperion_pointer.h"

namespace kvlab::stage5::hyperion {

enum class NodeType : uint8_t {
  kInvalid = 0,
  kInner = 1,
  kLeaf = 2,       // a key ends here; its value is empty
  kLeafValue = 3,  // a key ends here; its value follows the node's key
};

enum class ChildKind : uint8_t {
  kNone = 0,
  kPointer = 1,
  kEmbedded = 2,
  kSuffix = 3,
};

inline constexpr uint8_t kTypeMask = 0x03;
inline constexpr uint8_t kSBit = 0x04;
inline constexpr int kDeltaShift = 3;
inline constexpr uint8_t kDeltaMask = 0x38;
inline constexpr int kFlagShift = 6;
inline constexpr uint8_t kMaxDelta = 7;
inline constexpr uint8_t kJumpSuccessorFlag = 0x40;  // T-nodes only
inline constexpr size_t kJumpBytes = 2;
inline constexpr uint8_t kTNodeTableFlag = 0x80;  // T-nodes only
// A T-node jump table: 15 entries of 8 bytes (tnode_table.h).
inline constexpr uint32_t kTNodeTableEntries = 15;
inline constexpr uint32_t kTNodeTableEntryBytes = 8;
inline constexpr uint32_t kTNodeTableBytes =
    kTNodeTableEntries * kTNodeTableEntryBytes;

// A key count (of a pointer child's subtree, of a piece of a split
// container): a 40-bit number.
inline constexpr size_t kCountBytes = 5;
// A varint: 7 bits per byte, least significant group first, the high bit
// set on every byte but the last; 1 byte below 128, 5 below 2^35.
inline constexpr size_t kMaxVarintBytes = 5;
inline constexpr size_t kMaxJumpSuccessorBytes = kJumpBytes + kMaxVarintBytes;
// Bytes of a pointer child: the pointer and the subtree's key count.
inline constexpr size_t kPointerChildBytes =
    HyperionPointer::kBytes + kCountBytes;
// The longest suffix one path-compressed node holds (7-bit length).
inline constexpr size_t kMaxSuffix = 127;
inline constexpr uint8_t kSuffixValueFlag = 0x80;
// An embedded container's size byte counts itself.
inline constexpr size_t kMaxEmbeddedSize = 255;
// The largest inline value (one length byte); longer ones go out of line.
inline constexpr size_t kMaxInlineValue = 255;
inline constexpr size_t kExternalValueBytes = 1 + HyperionPointer::kBytes;

constexpr bool IsS(uint8_t header) { return (header & kSBit) != 0; }
// Bytes of a bare value.
inline constexpr size_t kBareValueBytes = 8;
// A bare leaf: an S-node stored as inner with no child (see above).
constexpr bool IsBareLeaf(uint8_t header) {
  constexpr uint8_t kBits = kTypeMask | kSBit | (3u << kFlagShift);
  return (header & kBits) == (uint8_t(NodeType::kInner) | kSBit);
}
// The type a header stands for: a bare leaf ends a key with a value.
constexpr NodeType TypeOf(uint8_t header) {
  return IsBareLeaf(header) ? NodeType::kLeafValue
                            : NodeType(header & kTypeMask);
}
// The type bits as stored (a bare leaf's are kInner).
constexpr NodeType StoredTypeOf(uint8_t header) {
  return NodeType(header & kTypeMask);
}
constexpr uint8_t DeltaOf(uint8_t header) {
  return (header & kDeltaMask) >> kDeltaShift;
}
constexpr ChildKind ChildOf(uint8_t header) {
  return IsS(header) ? ChildKind(header >> kFlagShift) : ChildKind::kNone;
}
constexpr bool HasJumpSuccessor(uint8_t header) {
  return !IsS(header) && (header & kJumpSuccessorFlag) != 0;
}
constexpr bool HasTNodeTable(uint8_t header) {
  return !IsS(header) && (header & kTNodeTableFlag) != 0;
}
constexpr bool EndsKey(NodeType type) {
  return type == NodeType::kLeaf || type == NodeType::kLeafValue;
}

// The delta field for `key` after a sibling with key byte `prev` (0 for the
// first sibling): the difference if it is 1..7, else 0 (explicit byte).
constexpr uint8_t DeltaFor(uint8_t prev, uint8_t key) {
  const int diff = int(key) - int(prev);
  return diff >= 1 && diff <= kMaxDelta ? uint8_t(diff) : 0;
}

constexpr uint8_t MakeHeader(NodeType type, bool s, uint8_t delta,
                             uint8_t flags) {
  return uint8_t(uint8_t(type) | (s ? kSBit : 0) | (delta << kDeltaShift) |
                 (flags << kFlagShift));
}

// Appends a node's header and, when the delta does not fit, its key byte.
void AppendHeaderAndKey(std::string* out, NodeType type, bool s, uint8_t prev,
                        uint8_t key, uint8_t flags);

// Bytes of a tagged value encoding starting at `enc`.
inline size_t ValueBytes(const uint8_t* enc) {
  return enc[0] != 0 ? 1 + size_t{enc[0]} : kExternalValueBytes;
}
// Bytes of the value of a node with `header` that ends a key with a
// value, starting at `enc`: bare or tagged.
inline size_t NodeValueBytes(uint8_t header, const uint8_t* enc) {
  return IsBareLeaf(header) ? kBareValueBytes : ValueBytes(enc);
}
// Whether a tagged encoding may be stored bare: an inline 8-byte value.
inline bool IsBareable(std::string_view value_enc) {
  return value_enc.size() == 1 + kBareValueBytes &&
         uint8_t(value_enc[0]) == kBareValueBytes;
}

// Bytes of the suffix child at `p` (header, value, suffix bytes).
inline size_t SuffixBytes(const uint8_t* p) {
  const size_t length = p[0] & ~kSuffixValueFlag;
  return 1 + ((p[0] & kSuffixValueFlag) ? ValueBytes(p + 1) : 0) + length;
}

// Bytes of a child of `kind` starting at `p`.
inline size_t ChildBytes(ChildKind kind, const uint8_t* p) {
  switch (kind) {
    case ChildKind::kNone:
      return 0;
    case ChildKind::kPointer:
      return kPointerChildBytes;
    case ChildKind::kEmbedded:
      return p[0];
    case ChildKind::kSuffix:
      return SuffixBytes(p);
  }
  return 0;
}

// Varints (kMaxVarintBytes): the bytes of the one at `p`, the bytes `v`
// needs (v < 2^35), reading, and writing (returns the bytes written).
inline uint32_t VarintBytes(const uint8_t* p) {
  uint32_t n = 1;
  while (p[n - 1] & 0x80) ++n;
  return n;
}
uint32_t VarintSize(uint64_t v);
uint64_t LoadVarint(const uint8_t* p);
uint32_t StoreVarint(uint8_t* p, uint64_t v);

// The jump successor at `p`: its bytes, and its two fields.
inline uint32_t JumpSuccessorBytes(const uint8_t* p) {
  return kJumpBytes + VarintBytes(p + kJumpBytes);
}
inline uint32_t LoadJump(const uint8_t* p) { return LoadLE16(p); }
inline uint64_t LoadJumpKeys(const uint8_t* p) {
  return LoadVarint(p + kJumpBytes);
}
// Writes a jump successor (stored jump `jump`, `keys` keys) at `p`, which
// has room for kMaxJumpSuccessorBytes; returns its bytes.
uint32_t StoreJumpSuccessor(uint8_t* p, uint32_t jump, uint64_t keys);

// One decoded node. Offsets are relative to the buffer passed to
// DecodeNode; `end` is one past the node's own bytes (for a T-node its
// S-node children follow).
struct Node {
  uint32_t pos = 0;
  uint8_t header = 0;
  uint8_t key = 0;
  NodeType type = NodeType::kInvalid;
  bool s = false;
  ChildKind child = ChildKind::kNone;
  uint32_t jump_pos = 0;   // the jump successor, if HasJumpSuccessor
  uint32_t table_pos = 0;  // the T-node jump table, if HasTNodeTable
  uint32_t value_pos = 0;  // the value's encoding, if EndsKey with a value
  uint32_t value_bytes = 0;
  uint32_t child_pos = 0;
  uint32_t child_bytes = 0;
  uint32_t end = 0;
  // Bytes of header and explicit key byte.
  uint32_t head_bytes() const { return jump_pos - pos; }
};

// Decodes the node at `buf + pos` whose previous sibling has key byte
// `prev` (0 for the first sibling). The byte at pos must not be zero.
inline Node DecodeNode(const uint8_t* buf, uint32_t pos, uint8_t prev) {
  // handout: hyperion::DecodeNode -> #containers-at-the-bit-level
  Node n;
  n.pos = pos;
  n.header = buf[pos];
  n.type = TypeOf(n.header);
  n.s = IsS(n.header);
  const uint8_t delta = DeltaOf(n.header);
  uint32_t p = pos + 1;
  if (delta == 0) {
    n.key = buf[p++];
  } else {
    n.key = uint8_t(prev + delta);
  }
  n.jump_pos = p;
  if (HasJumpSuccessor(n.header)) p += JumpSuccessorBytes(buf + p);
  n.table_pos = p;
  if (HasTNodeTable(n.header)) p += kTNodeTableBytes;
  n.value_pos = p;
  if (n.type == NodeType::kLeafValue) {
    n.value_bytes = uint32_t(NodeValueBytes(n.header, buf + p));
    p += n.value_bytes;
  }
  n.child_pos = p;
  n.child = ChildOf(n.header);
  n.child_bytes = uint32_t(ChildBytes(n.child, buf + p));
  n.end = p + n.child_bytes;
  return n;
  // handout: end
}

// Bytes of the node at `p`, without decoding its key: the scan's fast path
// over nodes it only skips. For a T-node, its S-children are not included.
inline uint32_t NodeBytes(const uint8_t* p) {
  const uint8_t h = p[0];
  uint32_t n = (h & kDeltaMask) ? 1 : 2;
  if (HasJumpSuccessor(h)) n += JumpSuccessorBytes(p + n);
  if (HasTNodeTable(h)) n += kTNodeTableBytes;
  if (IsBareLeaf(h)) {
    n += kBareValueBytes;
  } else if (StoredTypeOf(h) == NodeType::kLeafValue) {
    n += uint32_t(ValueBytes(p + n));
  }
  return n + uint32_t(ChildBytes(ChildOf(h), p + n));
}

// A path-compressed suffix child, decoded.
struct Suffix {
  bool has_value = false;
  uint32_t value_pos = 0;  // relative to the buffer passed to DecodeSuffix
  uint32_t value_bytes = 0;
  std::string_view bytes;  // the suffix itself
};
inline Suffix DecodeSuffix(const uint8_t* buf, uint32_t pos) {
  Suffix s;
  const uint8_t header = buf[pos];
  const uint32_t length = header & ~kSuffixValueFlag;
  uint32_t p = pos + 1;
  if (header & kSuffixValueFlag) {
    s.has_value = true;
    s.value_pos = p;
    s.value_bytes = uint32_t(ValueBytes(buf + p));
    p += s.value_bytes;
  }
  s.bytes = std::string_view(reinterpret_cast<const char*>(buf + p), length);
  return s;
}

// Appends an S-node's header, key byte (after a sibling with key byte
// `prev`) and value encoding `value_enc` (used if `type` is kLeafValue),
// leaving its child of kind `child` to the caller: as a bare leaf when it
// has no child and an inline 8-byte value.
void AppendSNode(std::string* out, NodeType type, uint8_t prev, uint8_t key,
                 ChildKind child, std::string_view value_enc);

// Appends a suffix child for `suffix` (1..kMaxSuffix bytes) with value
// encoding `value_enc` (empty: an empty value, flag clear).
void AppendSuffix(std::string* out, std::string_view suffix,
                  std::string_view value_enc);

// Appends a pointer child: `hp` and the key count of its subtree.
void AppendPointerChild(std::string* out, HyperionPointer hp, uint64_t count);
// A key count: kCountBytes little-endian bytes at any alignment.
static_assert(kCountBytes == 5, "a key count is a 40-bit number");
inline uint64_t LoadCount(const uint8_t* p) { return LoadLE40(p); }
inline void StoreCount(uint8_t* p, uint64_t count) { StoreLE40(p, count); }

// The parts of a value encoding: an inline value's bytes, or an external
// value's pointer (resolved by the caller, who owns the memory manager).
inline bool IsExternal(const uint8_t* enc) { return enc[0] == 0; }
inline std::string_view InlineValue(const uint8_t* enc) {
  assert(!IsExternal(enc));
  return std::string_view(reinterpret_cast<const char*>(enc + 1), enc[0]);
}
inline HyperionPointer ExternalValue(const uint8_t* enc) {
  assert(IsExternal(enc));
  return HyperionPointer::Load(enc + 1);
}
// A bare leaf's value, the kBareValueBytes at `p`.
inline std::string_view BareValue(const uint8_t* p) {
  return std::string_view(reinterpret_cast<const char*>(p), kBareValueBytes);
}

// The value of node `n` of `buf` as a tagged encoding, whether it is
// stored tagged or bare (a bare value gets its length byte back); empty
// if no value follows the node. What a rewrite of the node passes on.
class TaggedValue {
 public:
  TaggedValue(const uint8_t* buf, const Node& n) {
    const uint8_t* enc = buf + n.value_pos;
    if (!IsBareLeaf(n.header)) {
      view_ =
          std::string_view(reinterpret_cast<const char*>(enc), n.value_bytes);
      return;
    }
    bytes_[0] = kBareValueBytes;
    std::memcpy(bytes_ + 1, enc, kBareValueBytes);
    view_ =
        std::string_view(reinterpret_cast<const char*>(bytes_), sizeof(bytes_));
  }
  TaggedValue(const TaggedValue&) = delete;
  TaggedValue& operator=(const TaggedValue&) = delete;
  std::string_view view() const { return view_; }

 private:
  uint8_t bytes_[1 + kBareValueBytes];
  std::string_view view_;
};

// The chunk of the value encoded in the `bytes` bytes at `enc` (none: 0),
// if it is external; null otherwise. A write that replaces or removes a
// value notes it before the splice and frees it after.
inline HyperionPointer ExternalChunk(const uint8_t* enc, uint32_t bytes) {
  if (bytes == 0 || !IsExternal(enc)) return HyperionPointer();
  return ExternalValue(enc);
}
// The same for the value of node `n` of `buf` (a bare one is inline).
inline HyperionPointer ExternalChunk(const uint8_t* buf, const Node& n) {
  if (IsBareLeaf(n.header)) return HyperionPointer();
  return ExternalChunk(buf + n.value_pos, n.value_bytes);
}

// Node `n`'s header and key byte re-encoded after sibling key `prev`.
std::string Reencoded(const Node& n, uint8_t prev);
// Node `n` of `buf` (at its position) with a new type, value and child;
// keeps its header's delta and key byte, and a T-node its jump successor.
std::string Rewritten(const uint8_t* buf, const Node& n, NodeType type,
                      std::string_view value_enc, ChildKind child,
                      std::string_view child_bytes);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_NODE_H_
