// TrieStore: the stores `trie_array`, `trie_list` and `trie_bst`, pointer
// tries that differ only in how a node holds its children.
//
// A trie stores a key as a path: the node reached from the root by following
// one child per key byte holds that key's value. Keys are never stored; the
// path spells them. The empty key lives in the root, and a key that is a
// prefix of another lives in an inner node. Every node keeps `count`, the
// number of keys in its subtree, so GetNth and DeleteNth walk one root-to-node
// path, skipping whole children by their counts: O(key length x children
// scanned per node), independent of n.
//
// The three child containers (src/*_layout.h draw the nodes):
//
//   trie_array  an array of child pointers, one per alphabet symbol: a child
//               is found by indexing, but every node pays for every symbol.
//               16 + 8 x |alphabet| bytes a node: 2,064 with all 256 byte
//               values (alphabet=bytes, the default), 432 with the report's
//               52 letters (alphabet=letters, which refuses other keys).
//   trie_list   a sorted singly linked list of the children, the node itself
//               being the list cell: 32 bytes a node, found by a linear walk.
//   trie_bst    a binary search tree of the children, keyed by their byte,
//               the node itself being the tree node: 40 bytes a node.
//
// Values are separate allocations of exactly their length (none when empty).
// Delete removes a key's value and then prunes, bottom-up, every node left
// with no key below it, so a trie holds no dead branch.
//
// Not thread-safe: wrap it in a LockedStore to share it between threads.

#ifndef KVLAB_STAGE3_TRIE_STORE_H_
#define KVLAB_STAGE3_TRIE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage3/alphabet.h"

namespace kvlab {

// The shape of a trie, for the nodes-per-depth histogram in the docs.
// Depth 0 is the root; a node at depth d ends a key prefix of d bytes.
struct TrieShape {
  uint64_t nodes = 0;                    // the root included, even when empty
  size_t node_bytes = 0;                 // bytes of one node
  std::vector<uint64_t> nodes_at_depth;  // [d]: nodes at depth d
  std::vector<uint64_t> children_at_depth;  // [d]: children of those nodes
  std::vector<uint64_t> values_at_depth;    // [d]: keys of d bytes
  // fanout_histogram[c]: nodes with exactly c children, c = 0..256.
  std::vector<uint64_t> fanout_histogram;
};

// Invariants (checked by CheckInvariants):
//   - every node's count is its own key (0 or 1) plus its children's counts,
//     and the root's count is Size();
//   - every node but the root has count > 0 (delete pruned the rest);
//   - a node's children, in container order, have strictly ascending bytes,
//     and the container is well formed (array slot = byte, list sorted, BST
//     ordered);
//   - MemoryUsage() is sizeof(store) plus nodes x node bytes plus the value
//     bytes.
class TrieStore : public KVStore {
 public:
  // Bytes of one node of this trie (the same for every node).
  virtual size_t NodeBytes() const = 0;
  // Walks the whole trie. O(nodes).
  virtual TrieShape Shape() const = 0;
  // OK if every invariant above holds, otherwise the first violation.
  // O(nodes).
  absl::Status CheckInvariants() const override = 0;
};

// The three tries. NewArrayTrie's alphabet fixes both its node size and the
// keys it accepts.
std::unique_ptr<TrieStore> NewArrayTrie(const stage3::Alphabet& alphabet);
std::unique_ptr<TrieStore> NewListTrie();
std::unique_ptr<TrieStore> NewBstTrie();

}  // namespace kvlab

#endif  // KVLAB_STAGE3_TRIE_STORE_H_
