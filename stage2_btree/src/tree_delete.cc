// Delete and DeleteNth: one walk down from the root that never enters a
// node holding only min_keys keys (CLRS, "Deleting a key from a B-tree").

#include "restructure.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

// handout: cut
// What the walk is looking for in the current subtree.
enum class Goal {
  kKey,   // the key `key`
  kRank,  // the pair of rank `rank` within the subtree
  kMax,   // its largest key: the predecessor of a key removed higher up
  kMin,   // its smallest key: the successor
};

// child[i] of `parent` holds min_keys keys. Gives it one more key before
// the walk enters it: borrows one through the parent from a neighbour that
// can spare it, else merges it with a neighbour. The caller locates its
// goal in `parent` again, since keys moved.
void Refill(Tree* tree, Node* parent, int i) {
  const NodeLayout& layout = tree->layout;
  Node* const* children = layout.children(parent);
  if (i > 0 && children[i - 1]->num_keys > layout.min_keys()) {
    MoveToRight(layout, parent, i - 1, 1);
    return;
  }
  if (i < parent->num_keys && children[i + 1]->num_keys > layout.min_keys()) {
    MoveToLeft(layout, parent, i, 1);
    return;
  }
  // No neighbour can spare a key, so child[i] merges with one of them into
  // min_keys + 1 + min_keys = max_keys keys: a full but legal node.
  MergeChildren(layout, parent, i < parent->num_keys ? i : i - 1,
                &tree->node_bytes);
}

// After a merge below the root, the root may have given its last key away:
// its one child becomes the root and the tree loses a level. Returns the
// node the walk continues from.
Node* ShrinkRootIfEmpty(Tree* tree, Node* node) {
  if (node != tree->root || node->num_keys > 0) return node;
  Node* child = tree->layout.children(node)[0];
  FreeNode(tree->layout, node, &tree->node_bytes);
  tree->root = child;
  --tree->height;
  return child;
}

bool Remove(Tree* tree, Goal goal, std::string_view key, uint64_t rank) {
  if (tree->root == nullptr) return false;
  const NodeLayout& layout = tree->layout;
  const uint64_t prefix = goal == Goal::kKey ? layout.PrefixFor(key) : 0;
  uint64_t* path[kMaxHeight];  // the count of each child entered
  int depth = 0;
  // Where the removed key sat when it was found in an internal node: its
  // predecessor or successor, taken from a leaf, will fill the hole.
  Node* hole = nullptr;
  int hole_index = 0;
  Entry taken;
  Node* node = tree->root;
  for (;;) {
    bool found = false;
    uint64_t child_rank = rank;
    int i = 0;
    switch (goal) {
      case Goal::kKey:
        i = SearchNode(layout, node, prefix, key, &found);
        break;
      case Goal::kRank:
        i = LocateRank(layout, node, &child_rank, &found);
        break;
      case Goal::kMax:
        found = node->leaf;
        i = node->leaf ? node->num_keys - 1 : node->num_keys;
        break;
      case Goal::kMin:
        found = node->leaf;
        i = 0;
        break;
    }
    if (node->leaf) {
      if (!found) return false;  // only a missing key ends here
      taken = layout.entry(node, i);
      RemoveLeafEntry(layout, node, i);
      break;
    }
    if (found) {
      // Key i of an internal node: replace it with its predecessor if the
      // left child can spare a key, else with its successor if the right
      // child can, else merge the two around it and look again.
      Node* const* children = layout.children(node);
      if (children[i]->num_keys > layout.min_keys()) {
        hole = node;
        hole_index = i;
        goal = Goal::kMax;
      } else if (children[i + 1]->num_keys > layout.min_keys()) {
        hole = node;
        hole_index = i;
        goal = Goal::kMin;
        ++i;
      } else {
        MergeChildren(layout, node, i, &tree->node_bytes);
        node = ShrinkRootIfEmpty(tree, node);
        continue;
      }
      path[depth++] = &layout.counts(node)[i];
      node = layout.children(node)[i];
      continue;
    }
    if (layout.children(node)[i]->num_keys == layout.min_keys()) {
      Refill(tree, node, i);
      node = ShrinkRootIfEmpty(tree, node);
      continue;  // keys moved: locate again (ranks within `node` hold)
    }
    path[depth++] = &layout.counts(node)[i];
    node = layout.children(node)[i];
    rank = child_rank;
  }

  Pair* removed = taken.pair;
  if (hole != nullptr) {
    removed = layout.pairs(hole)[hole_index];
    layout.set_entry(hole, hole_index, taken);
  }
  for (int d = 0; d < depth; ++d) --*path[d];
  --tree->size;
  if (tree->root->num_keys == 0) {  // the last key left a lone leaf
    FreeNode(layout, tree->root, &tree->node_bytes);
    tree->root = nullptr;
    tree->height = 0;
  }
  // Freed last: in kKey mode `key` may point into this very pair.
  FreePair(removed, &tree->pair_bytes);
  return true;
}
// handout: end

}  // namespace

bool Delete(Tree* tree, std::string_view key) {
  // handout: Delete -> #4-delete-step-by-step
  return Remove(tree, Goal::kKey, key, 0);
  // handout: end
}

bool DeleteNth(Tree* tree, uint64_t rank) {
  // handout: DeleteNth -> #5-counts-make-getnth-logarithmic
  if (rank >= tree->size) return false;
  return Remove(tree, Goal::kRank, {}, rank);
  // handout: end
}

}  // namespace kvlab::stage2
