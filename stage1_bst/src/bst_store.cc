#include "kvlab/stage1/bst_store.h"

#include <new>

#include "node.h"
#include "tree_debug.h"
#include "tree_export.h"
#include "tree_search.h"

namespace kvlab {

using stage1::Node;

BstStore::~BstStore() { stage1::FreeTree(root_, &node_bytes_); }

uint64_t BstStore::Size() const { return stage1::SizeOf(root_); }

std::optional<size_t> BstStore::MemoryUsage() const {
  return sizeof(*this) + node_bytes_;
}

bool BstStore::GetImpl(std::string_view key, std::string* value) const {
  const Node* node = stage1::FindNode(root_, key);
  if (node == nullptr) return false;
  if (value != nullptr) value->assign(stage1::ValueOf(node));
  return true;
}

// handout: cut
// Put and Delete adjust subtree sizes on the way down, in the one walk that
// searches, betting that the key is new (Put) or present (Delete): that is
// the case that changes the tree. When the bet loses, or the new node cannot
// be allocated, AddToPathSizes walks the same path again to take the
// adjustment back.
// handout: end

bool BstStore::PutImpl(std::string_view key, std::string_view value) {
  // handout: BstStore::PutImpl -> #2-search-and-insert
  const uint64_t size_before = Size();
  Node** link = &root_;
  while (*link != nullptr) {
    Node* node = *link;
    const int c = stage1::CompareKeys(key, stage1::KeyOf(node));
    if (c == 0) {  // present after all: the shape does not change
      AddToPathSizes(key, -1);
      *link = stage1::ReplaceValue(node, value, &node_bytes_);
      return true;
    }
    ++node->size;  // the new key will be in this subtree
    link = c < 0 ? &node->left : &node->right;
  }
  stage1::CheckRoomForOneMore(size_before);
  try {
    *link = stage1::NewNode(key, value, &node_bytes_);
  } catch (const std::bad_alloc&) {
    AddToPathSizes(key, -1);  // the key is still absent: the whole path
    throw;
  }
  return false;
  // handout: end
}

bool BstStore::DeleteImpl(std::string_view key) {
  // handout: BstStore::DeleteImpl -> #3-delete
  Node** link = &root_;
  while (true) {
    Node* node = *link;
    if (node == nullptr) {  // absent after all
      AddToPathSizes(key, +1);
      return false;
    }
    const int c = stage1::CompareKeys(key, stage1::KeyOf(node));
    if (c == 0) break;
    --node->size;  // the key leaves this subtree
    link = c < 0 ? &node->left : &node->right;
  }
  Unlink(link);
  return true;
  // handout: end
}

void BstStore::AddToPathSizes(std::string_view key, int delta) {
  // handout: BstStore::AddToPathSizes -> #2-search-and-insert
  for (Node* node = root_; node != nullptr;) {
    const int c = stage1::CompareKeys(key, stage1::KeyOf(node));
    if (c == 0) return;  // the nodes above `key` are done; `key`'s isn't
    node->size += delta;
    node = c < 0 ? node->left : node->right;
  }
  // handout: end
}

bool BstStore::GetNth(uint64_t n, std::string* key, std::string* value) const {
  if (n >= Size()) return false;
  const Node* node = stage1::SelectNode(root_, n);
  if (key != nullptr) key->assign(stage1::KeyOf(node));
  if (value != nullptr) value->assign(stage1::ValueOf(node));
  return true;
}

bool BstStore::DeleteNth(uint64_t n) {
  // handout: BstStore::DeleteNth -> #5-subtree-sizes-and-the-n-th-key
  if (n >= Size()) return false;
  // SelectNode's walk, decrementing the sizes on the way: the rank is in
  // range, so the walk ends at a node that will be removed.
  Node** link = &root_;
  while (true) {
    Node* node = *link;
    const uint64_t left_size = stage1::SizeOf(node->left);
    if (n == left_size) break;
    --node->size;
    if (n < left_size) {
      link = &node->left;
    } else {
      n -= left_size + 1;
      link = &node->right;
    }
  }
  Unlink(link);
  return true;
  // handout: end
}

void BstStore::Unlink(Node** link) {
  // handout: BstStore::Unlink -> #3-delete
  Node* doomed = *link;
  if (doomed->left == nullptr) {
    *link = doomed->right;
  } else if (doomed->right == nullptr) {
    *link = doomed->left;
  } else {
    // Two children: the in-order successor, the leftmost node of the right
    // subtree, takes the doomed node's place. Every node passed on the way
    // down to it loses one descendant (the successor).
    Node** successor_link = &doomed->right;
    while ((*successor_link)->left != nullptr) {
      --(*successor_link)->size;
      successor_link = &(*successor_link)->left;
    }
    Node* successor = *successor_link;
    *successor_link = successor->right;  // may be doomed->right itself
    successor->left = doomed->left;
    successor->right = doomed->right;
    successor->size = doomed->size - 1;
    *link = successor;
  }
  stage1::FreeNode(doomed, &node_bytes_);
  // handout: end
}

uint64_t BstStore::Rank(std::string_view key) const {
  return stage1::RankOf(root_, key);
}

uint64_t BstStore::CountRange(std::string_view lo, std::string_view hi) const {
  return stage1::CountRangeOf(root_, lo, hi);
}

uint64_t BstStore::Scan(std::string_view start, ScanVisitor visitor) const {
  return stage1::ScanTree(root_, start, visitor);
}

std::string BstStore::DebugString(size_t max_nodes) const {
  return stage1::TreeDebugString(root_, /*show_height=*/false, max_nodes);
}

int BstStore::Height() const { return stage1::TreeHeight(root_); }

absl::Status BstStore::CheckInvariants() const {
  return stage1::CheckTree(root_,
                           {.avl = false, .allocated_bytes = node_bytes_});
}

absl::Status BstStore::ExportStructure(const StructureOptions& options,
                                       StructureGraph* graph) const {
  return stage1::ExportTree(root_, /*avl=*/false, options, graph);
}

}  // namespace kvlab
