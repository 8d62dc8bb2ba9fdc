#include "rank_tree.h"

namespace kvlab::stage4::wormhole {
namespace {

uint64_t SumOf(const RankNode* n) { return n == nullptr ? 0 : n->sum; }

}  // namespace

RankTree::RankTree(RankNode* first) : root_(first) {
  first->parent = first->left = first->right = nullptr;
  first->count = first->sum = 0;
  first->priority = NextPriority();
}

uint32_t RankTree::NextPriority() {
  seed_ ^= seed_ << 13;
  seed_ ^= seed_ >> 7;
  seed_ ^= seed_ << 17;
  return static_cast<uint32_t>(seed_ >> 32);
}

void RankTree::Recompute(RankNode* n) {
  n->sum = n->count + SumOf(n->left) + SumOf(n->right);
}

// Lifts `n` one level above its parent, keeping the in-order sequence.
void RankTree::RotateUp(RankNode* n) {
  RankNode* p = n->parent;
  RankNode* g = p->parent;
  if (p->left == n) {
    p->left = n->right;
    if (n->right) n->right->parent = p;
    n->right = p;
  } else {
    p->right = n->left;
    if (n->left) n->left->parent = p;
    n->left = p;
  }
  p->parent = n;
  n->parent = g;
  if (g == nullptr) {
    root_ = n;
  } else if (g->left == p) {
    g->left = n;
  } else {
    g->right = n;
  }
  Recompute(p);
  Recompute(n);
}

void RankTree::InsertAfter(RankNode* after, RankNode* node, uint64_t count) {
  node->left = node->right = nullptr;
  node->count = node->sum = count;
  node->priority = NextPriority();
  // The in-order successor slot: after's right child if empty, else the
  // left-most position of after's right subtree.
  if (after->right == nullptr) {
    after->right = node;
    node->parent = after;
  } else {
    RankNode* x = after->right;
    while (x->left != nullptr) x = x->left;
    x->left = node;
    node->parent = x;
  }
  for (RankNode* x = node->parent; x != nullptr; x = x->parent) {
    x->sum += count;
  }
  while (node->parent != nullptr && node->parent->priority < node->priority) {
    RotateUp(node);
  }
}

void RankTree::Remove(RankNode* node) {
  // Rotate the node down (its higher-priority child up) until it has at
  // most one child, then splice it out.
  while (node->left != nullptr && node->right != nullptr) {
    RotateUp(node->left->priority > node->right->priority ? node->left
                                                          : node->right);
  }
  RankNode* child = node->left != nullptr ? node->left : node->right;
  RankNode* p = node->parent;
  if (child != nullptr) child->parent = p;
  if (p == nullptr) {
    root_ = child;
  } else if (p->left == node) {
    p->left = child;
  } else {
    p->right = child;
  }
  for (RankNode* x = p; x != nullptr; x = x->parent) Recompute(x);
  node->parent = node->left = node->right = nullptr;
}

void RankTree::Add(RankNode* node, int64_t delta) {
  node->count += static_cast<uint64_t>(delta);
  for (RankNode* x = node; x != nullptr; x = x->parent) {
    x->sum += static_cast<uint64_t>(delta);
  }
}

uint64_t RankTree::KeysBefore(const RankNode* node) const {
  // handout: RankTree::KeysBefore -> #ranks
  uint64_t before = SumOf(node->left);
  for (const RankNode* x = node; x->parent != nullptr; x = x->parent) {
    if (x->parent->right == x)
      before += SumOf(x->parent->left) + x->parent->count;
  }
  return before;
  // handout: end
}

RankNode* RankTree::Find(uint64_t n, uint64_t* offset) const {
  // handout: RankTree::Find -> #ranks
  RankNode* x = root_;
  for (;;) {
    const uint64_t left = SumOf(x->left);
    if (n < left) {
      x = x->left;
    } else if (n < left + x->count) {
      *offset = n - left;
      return x;
    } else {
      n -= left + x->count;
      x = x->right;
    }
  }
  // handout: end
}

}  // namespace kvlab::stage4::wormhole
