// The tree node both stage-1 trees share, and the functions that allocate
// and free it, counting every byte.
//
// A node is one allocation: a 24-byte header followed by the key bytes and
// then the value bytes.
//
//   offset 0   left        8 bytes
//          8   right       8 bytes
//         16   size        4 bytes  nodes in this subtree, this one included
//         20   key_size   11 bits   0..1024
//              value_size 13 bits   0..4096
//              height      8 bits   avl only; bst leaves it at 1
//         24   key bytes, then value bytes
//
// The lengths and the height share one 32-bit word so that the AVL node is
// no larger than the plain one. A 32-bit subtree size limits a tree to
// kMaxPairs pairs, far beyond what fits in memory at 24+ bytes a pair.

#ifndef KVLAB_STAGE1_SRC_NODE_H_
#define KVLAB_STAGE1_SRC_NODE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kvlab/key_order.h"
#include "kvlab/kv_store.h"

namespace kvlab::stage1 {

struct Node {
  Node* left;
  Node* right;
  uint32_t size;
  uint32_t key_size : 11;
  uint32_t value_size : 13;
  uint32_t height : 8;
};

static_assert(sizeof(Node) == 24, "the node header is three words");
static_assert(kMaxKeySize < (1u << 11), "key_size is 11 bits");
static_assert(kMaxValueSize < (1u << 13), "value_size is 13 bits");

inline constexpr uint64_t kMaxPairs = UINT32_MAX;

// The key order of kv_store.h (kvlab/key_order.h), named here too because
// the stage's code calls it as stage1::CompareKeys.
using ::kvlab::CompareKeys;

// The bytes one node takes: the header, the key and the value.
inline size_t NodeBytes(size_t key_size, size_t value_size) {
  return sizeof(Node) + key_size + value_size;
}
inline size_t NodeBytes(const Node* node) {
  return NodeBytes(node->key_size, node->value_size);
}

inline std::string_view KeyOf(const Node* node) {
  return {reinterpret_cast<const char*>(node + 1), node->key_size};
}
inline std::string_view ValueOf(const Node* node) {
  return {reinterpret_cast<const char*>(node + 1) + node->key_size,
          node->value_size};
}

// The subtree size of `node`; 0 for an empty subtree.
inline uint64_t SizeOf(const Node* node) {
  return node == nullptr ? 0 : node->size;
}

// Aborts if a tree of `size` pairs cannot take one more (see kMaxPairs).
void CheckRoomForOneMore(uint64_t size);

// Nodes are allocated with malloc. Each function below adds or subtracts the
// exact byte count it requested or released to `*bytes`, the owning tree's
// tally (allocator headers and rounding excluded). Not thread-safe.

// A new leaf: no children, size 1, height 1. Throws std::bad_alloc when
// memory runs out.
Node* NewNode(std::string_view key, std::string_view value, size_t* bytes);

// Gives `node` the value `value` and returns the node, which may have moved
// if the value's length changed: the caller re-links it.
Node* ReplaceValue(Node* node, std::string_view value, size_t* bytes);

void FreeNode(Node* node, size_t* bytes);

// Frees every node of the tree under `root` in O(n) time and O(1) space: no
// recursion and no stack, however deep the tree.
void FreeTree(Node* root, size_t* bytes);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_NODE_H_
