// The compressed-trie node: one variable-size block of raw bytes.
//
// A node stands for one position in the trie: the bytes on the path from the
// root to it spell a key prefix. Each node holds its edge label (the bytes
// after the branch byte that leads to it), an optional value, and its
// children sorted by branch byte, each with the number of keys below it.
//
//   inner node (n >= 1 children)          leaf (no children)
//   offset 0      meta          4 bytes   offset 0  meta   4 bytes
//          4      lock word     4 bytes          4  label, then value
//          8      child[n]      8n bytes
//          8+8n   count[n]      4n bytes  keys in each child's subtree
//          8+12n  branch[n]     n bytes   first byte of each child, ascending
//          8+13n  label, then value
//
// meta packs label_len (10 bits, a label is at most 1,023 bytes since the
// branch byte is stored in the parent), value_tag (13 bits: 0 = no value,
// else value length + 1) and the child count (9 bits, 0..256). A leaf has no
// lock word: it is only ever read under its parent's lock (lock=node) or
// reached through its parent's pointer (other modes).
//
// Everything except the child pointers, the counts and the lock word is
// written once, before the node is published, and never changed: a change of
// label, value or child set builds a new node and swaps the parent's pointer
// (copy on write). That is what lets lock=rcu readers run without locks. The
// mutable words are accessed through std::atomic_ref in every mode.

#ifndef KVLAB_STAGE4_SRC_NODE_H_
#define KVLAB_STAGE4_SRC_NODE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "kvlab/kv_store.h"

namespace kvlab::stage4 {

struct Node {
  uint32_t meta;
};

inline constexpr size_t kMaxLabel = 1023;
inline constexpr size_t kMaxChildren = 256;
static_assert(kMaxKeySize - 1 <= kMaxLabel, "a label fits in 10 bits");
static_assert(kMaxValueSize + 1 < (1u << 13), "a value tag fits in 13 bits");

inline uint32_t PackMeta(size_t label_len, bool has_value, size_t value_len,
                         size_t children) {
  const uint32_t tag = has_value ? static_cast<uint32_t>(value_len) + 1 : 0;
  return static_cast<uint32_t>(label_len) | tag << 10 |
         static_cast<uint32_t>(children) << 23;
}

inline size_t LabelLen(const Node* n) { return n->meta & 0x3ff; }
inline bool HasValue(const Node* n) { return ((n->meta >> 10) & 0x1fff) != 0; }
inline size_t ValueLen(const Node* n) {
  const uint32_t tag = (n->meta >> 10) & 0x1fff;
  return tag == 0 ? 0 : tag - 1;
}
inline size_t NumChildren(const Node* n) { return n->meta >> 23; }

inline size_t HeaderBytes(size_t children) {
  return children == 0 ? 4 : 8 + 13 * children;
}
// The bytes a node with this shape occupies (before size-class rounding).
inline size_t NodeBytes(size_t children, size_t label_len, size_t value_len) {
  return HeaderBytes(children) + label_len + value_len;
}
inline size_t NodeBytes(const Node* n) {
  return NodeBytes(NumChildren(n), LabelLen(n), ValueLen(n));
}
inline constexpr size_t kMaxNodeBytes =
    8 + 13 * kMaxChildren + kMaxLabel + kMaxValueSize;

inline char* Bytes(Node* n) { return reinterpret_cast<char*>(n); }
inline const char* Bytes(const Node* n) {
  return reinterpret_cast<const char*>(n);
}

inline Node** ChildArray(Node* n) {
  return reinterpret_cast<Node**>(Bytes(n) + 8);
}
inline uint32_t* CountArray(Node* n) {
  return reinterpret_cast<uint32_t*>(Bytes(n) + 8 + 8 * NumChildren(n));
}
inline const uint8_t* BranchArray(const Node* n) {
  return reinterpret_cast<const uint8_t*>(Bytes(n) + 8 + 12 * NumChildren(n));
}
inline uint8_t* BranchArray(Node* n) {
  return reinterpret_cast<uint8_t*>(Bytes(n) + 8 + 12 * NumChildren(n));
}
inline std::string_view Label(const Node* n) {
  return {Bytes(n) + HeaderBytes(NumChildren(n)), LabelLen(n)};
}
inline std::string_view Value(const Node* n) {
  return {Bytes(n) + HeaderBytes(NumChildren(n)) + LabelLen(n), ValueLen(n)};
}
inline char* MutableLabel(Node* n) {
  return Bytes(n) + HeaderBytes(NumChildren(n));
}
inline char* MutableValue(Node* n) { return MutableLabel(n) + LabelLen(n); }

// The mutable words. Loads acquire and stores release, so a reader that sees
// a new child pointer sees the node behind it fully built, and a seqlock
// reader (rcu GetNth) that sees any new count also sees the odd sequence.
inline std::atomic_ref<uint32_t> LockWord(const Node* n) {
  return std::atomic_ref<uint32_t>(
      *reinterpret_cast<uint32_t*>(const_cast<char*>(Bytes(n)) + 4));
}
inline Node* LoadChild(const Node* n, size_t i) {
  return std::atomic_ref<Node*>(ChildArray(const_cast<Node*>(n))[i])
      .load(std::memory_order_acquire);
}
inline void StoreChild(Node* n, size_t i, Node* child) {
  std::atomic_ref<Node*>(ChildArray(n)[i])
      .store(child, std::memory_order_release);
}
inline uint32_t LoadCount(const Node* n, size_t i) {
  return std::atomic_ref<uint32_t>(CountArray(const_cast<Node*>(n))[i])
      .load(std::memory_order_acquire);
}
inline void StoreCount(Node* n, size_t i, uint32_t count) {
  std::atomic_ref<uint32_t>(CountArray(n)[i])
      .store(count, std::memory_order_release);
}

// Length of the longest common prefix of a and b.
inline size_t CommonPrefix(std::string_view a, std::string_view b) {
  const size_t limit = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  while (i < limit && a[i] == b[i]) ++i;
  return i;
}

// How a node's children are searched for a branch byte (ctrie:find=...):
// binary search, or a linear scan 16 bytes at a time where SSE2 exists and
// one byte at a time elsewhere (find_byte.h).
enum class FindMethod { kBinary, kSimd };

// The index of the child whose branch byte is `b`, or -1.
int FindChild(const Node* n, uint8_t b, FindMethod method);

// The index at which a child with branch byte `b` would be inserted (the
// first child whose branch byte is >= b).
size_t LowerBoundChild(const Node* n, uint8_t b);

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_SRC_NODE_H_
