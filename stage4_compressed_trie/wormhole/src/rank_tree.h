// RankTree: the leaves in list order, as a treap whose nodes carry the
// number of keys in their subtree, so that GetNth finds the leaf holding the
// n-th key, and a leaf learns how many keys lie before it, in O(log M) for
// M leaves (about N / 90 with 128-pair leaves). A leaf's count changes in
// O(log M) too (one walk up to the root), as do inserting a new leaf right
// after another (a split) and removing one (a merge). The nodes live inside
// the leaves (Leaf derives from RankNode): nothing here allocates.
//
// Priorities come from a fixed-seed generator, so a run repeats exactly.
//
// Thread safety: none; the store guards it with one mutex.

#ifndef KVLAB_STAGE4_WORMHOLE_SRC_RANK_TREE_H_
#define KVLAB_STAGE4_WORMHOLE_SRC_RANK_TREE_H_

#include <cstdint>

#include "absl/status/status.h"

namespace kvlab::stage4::wormhole {

struct RankNode {
  RankNode* parent = nullptr;
  RankNode* left = nullptr;
  RankNode* right = nullptr;
  uint64_t count = 0;  // keys in this leaf
  uint64_t sum = 0;    // keys in this subtree
  uint32_t priority = 0;
};

class RankTree {
 public:
  // Makes `first` (count 0) the only node.
  explicit RankTree(RankNode* first);

  // Adds `node` (not in the tree) right after `after` in list order.
  void InsertAfter(RankNode* after, RankNode* node, uint64_t count);
  // Takes `node` out of the tree. It must not be the only node.
  void Remove(RankNode* node);
  // Adds `delta` to `node`'s count.
  void Add(RankNode* node, int64_t delta);
  // The keys held by the nodes before `node`.
  uint64_t KeysBefore(const RankNode* node) const;
  // The node holding key number `n` (< Total()) and, in `*offset`, the
  // key's index inside it.
  RankNode* Find(uint64_t n, uint64_t* offset) const;
  uint64_t Total() const { return root_->sum; }

  // Checks every sum and parent link and the heap order of priorities;
  // `*nodes` is set to the number of nodes. In-order visit: `visit` is
  // called for each node in list order.
  template <typename F>
  absl::Status Check(uint64_t* nodes, F visit) const {
    *nodes = 0;
    return CheckNode(root_, nullptr, nodes, visit);
  }

 private:
  template <typename F>
  absl::Status CheckNode(const RankNode* n, const RankNode* parent,
                         uint64_t* nodes, F& visit) const {
    if (n == nullptr) return absl::OkStatus();
    if (n->parent != parent) return absl::InternalError("rank: bad parent");
    if (parent != nullptr && n->priority > parent->priority) {
      return absl::InternalError("rank: heap order broken");
    }
    absl::Status s = CheckNode(n->left, n, nodes, visit);
    if (!s.ok()) return s;
    ++*nodes;
    visit(n);
    s = CheckNode(n->right, n, nodes, visit);
    if (!s.ok()) return s;
    const uint64_t sum = n->count + (n->left ? n->left->sum : 0) +
                         (n->right ? n->right->sum : 0);
    if (sum != n->sum) return absl::InternalError("rank: bad subtree sum");
    return absl::OkStatus();
  }

  uint32_t NextPriority();
  void RotateUp(RankNode* n);
  static void Recompute(RankNode* n);

  RankNode* root_;
  uint64_t seed_ = 0x9E3779B97F4A7C15ull;
};

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_RANK_TREE_H_
