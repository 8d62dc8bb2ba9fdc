// Put: one walk down from the root that never enters a full node.

#include <cstdlib>
#include <new>

#include "restructure.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

// handout: cut
// child[i] of `parent` is full and `parent` is not. Makes room in it: if a
// neighbour has room for two keys or more, moves half the difference of
// their key counts over to it (as absl::btree does); otherwise splits the
// child. Moving first keeps nodes fuller than splitting alone (two half-full
// nodes), and node fill is most of the B-tree's memory per key. Both nodes
// end with room, wherever the new key belongs: a neighbour with room for one
// key only would become full and be given the key back, forever.
void MakeRoom(Tree* tree, Node* parent, int i) {
  const NodeLayout& layout = tree->layout;
  Node* const* children = layout.children(parent);
  const int full = children[i]->num_keys;
  const int roomy = layout.max_keys() - 1;  // fewer keys than this: share
  if (tree->share_on_insert) {
    if (i > 0 && children[i - 1]->num_keys < roomy) {
      MoveToLeft(layout, parent, i - 1,
                 (full - children[i - 1]->num_keys + 1) / 2);
      return;
    }
    if (i < parent->num_keys && children[i + 1]->num_keys < roomy) {
      MoveToRight(layout, parent, i,
                  (full - children[i + 1]->num_keys + 1) / 2);
      return;
    }
  }
  SplitChild(layout, parent, i, &tree->node_bytes);
}
// handout: end

}  // namespace

bool Put(Tree* tree, std::string_view key, std::string_view value) {
  // handout: Put -> #3-insert-step-by-step
  const NodeLayout& layout = tree->layout;
  const uint64_t prefix = layout.PrefixFor(key);
  if (tree->root == nullptr) {
    // The first pair makes a lone leaf; both blocks exist before the tree
    // changes, since the root is never an empty node.
    Pair* pair = NewPair(key, value, &tree->pair_bytes);
    Node* leaf;
    try {
      leaf = NewNode(layout, /*leaf=*/true, &tree->node_bytes);
    } catch (const std::bad_alloc&) {
      FreePair(pair, &tree->pair_bytes);
      throw;
    }
    InsertEntry(layout, leaf, 0, {prefix, pair});
    tree->root = leaf;
    tree->height = 1;
    tree->size = 1;
    return false;
  }
  if (tree->root->num_keys == layout.max_keys()) {
    // A full root is split under a new root: the only way height grows.
    // The new root is linked only once the split has its node: a root
    // with no key would break the tree.
    Node* root = NewNode(layout, /*leaf=*/false, &tree->node_bytes);
    layout.children(root)[0] = tree->root;
    layout.counts(root)[0] = tree->size;
    try {
      SplitChild(layout, root, 0, &tree->node_bytes);
    } catch (const std::bad_alloc&) {
      FreeNode(layout, root, &tree->node_bytes);
      throw;
    }
    tree->root = root;
    ++tree->height;
  }
  if (tree->height >= kMaxHeight) std::abort();  // 2^63 keys: unreachable

  uint64_t* path[kMaxHeight];  // the count of each child entered
  int depth = 0;
  Node* node = tree->root;
  for (;;) {
    bool found;
    const int i = SearchNode(layout, node, prefix, key, &found);
    if (found) {
      Pair** slot = &layout.pairs(node)[i];
      *slot = ReplaceValue(*slot, value, &tree->pair_bytes);
      return true;
    }
    if (node->leaf) {
      // Allocate before touching the leaf: if malloc throws, the tree is
      // unchanged apart from restructuring, which keeps it valid.
      Pair* pair = NewPair(key, value, &tree->pair_bytes);
      InsertEntry(layout, node, i, {prefix, pair});
      break;
    }
    if (layout.children(node)[i]->num_keys == layout.max_keys()) {
      MakeRoom(tree, node, i);
      continue;  // keys moved: search this node again
    }
    path[depth++] = &layout.counts(node)[i];
    node = layout.children(node)[i];
  }
  for (int d = 0; d < depth; ++d) ++*path[d];
  ++tree->size;
  return false;
  // handout: end
}

}  // namespace kvlab::stage2
