// The 16 bytes every trie node starts with, whatever holds its children, and
// the helpers that allocate nodes and values while counting every byte.
//
//   offset 0   value       8 bytes  malloc'd value bytes; null if empty/absent
//          8   count       4 bytes  keys in this subtree, this node's included
//         12   value_size 13 bits   0..4096
//              has_value   1 bit    this node ends a stored key
//         14   byte        1 byte   the key byte that leads here (root: 0)
//         15   (padding)
//
// A layout (array_layout.h, list_layout.h, bst_layout.h) appends its child
// links after the header. A 32-bit count limits a trie to kMaxPairs keys,
// far beyond what fits in memory at 32+ bytes a key byte.

#ifndef KVLAB_STAGE3_SRC_TRIE_NODE_H_
#define KVLAB_STAGE3_SRC_TRIE_NODE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "kvlab/kv_store.h"
#include "kvlab/structure.h"

namespace kvlab::stage3 {

struct NodeHeader {
  char* value;
  uint32_t count;
  uint16_t value_size : 13;
  uint16_t has_value : 1;
  uint8_t byte;
};

static_assert(sizeof(NodeHeader) == 16, "the node header is two words");
static_assert(kMaxValueSize < (1u << 13), "value_size is 13 bits");

inline constexpr uint64_t kMaxPairs = UINT32_MAX;

inline std::string_view ValueOf(const NodeHeader* node) {
  return {node->value, node->value_size};
}

// Allocates `size` zeroed bytes with calloc (so every child link starts
// null) and adds `size` to `*bytes`. Throws std::bad_alloc when memory runs
// out.
void* AllocateNode(size_t size, size_t* bytes);
void FreeNodeMemory(void* node, size_t size, size_t* bytes);

// Gives `node` the value `value` (it may already have one), adding and
// subtracting the value bytes in `*bytes`. Sets has_value. Throws
// std::bad_alloc when memory runs out, leaving the node unchanged.
void SetValue(NodeHeader* node, std::string_view value, size_t* bytes);

// Frees the node's value, if any, and clears has_value.
void ClearValue(NodeHeader* node, size_t* bytes);

// Aborts if a trie of `size` keys cannot take one more (see kMaxPairs).
void CheckRoomForOneMore(uint64_t size);

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_TRIE_NODE_H_
