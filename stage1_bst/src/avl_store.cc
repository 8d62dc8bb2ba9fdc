#include "kvlab/stage1/avl_store.h"

#include <new>

#include "absl/strings/str_cat.h"
#include "avl_rebalance.h"
#include "balanced_build.h"
#include "node.h"
#include "tree_debug.h"
#include "tree_export.h"
#include "tree_search.h"

namespace kvlab {
namespace {

using stage1::AvlPath;
using stage1::Node;

// handout: cut
// Removes the node `*link` points to, `path` holding the links above it,
// then rebalances up to the root. Frees the node, updating `*bytes`.
void RemoveAt(Node** link, AvlPath* path, size_t* bytes) {
  Node* doomed = *link;
  if (doomed->left == nullptr || doomed->right == nullptr) {
    *link = doomed->left != nullptr ? doomed->left : doomed->right;
  } else {
    // Two children: the in-order successor, the leftmost node of the right
    // subtree, takes the doomed node's place. The path is extended down to
    // the successor's old parent, since heights change from there up.
    const int doomed_depth = path->depth();
    path->Push(link);
    Node** successor_link = &doomed->right;
    while ((*successor_link)->left != nullptr) {
      path->Push(successor_link);
      successor_link = &(*successor_link)->left;
    }
    Node* successor = *successor_link;
    *successor_link = successor->right;  // may be doomed->right itself
    successor->left = doomed->left;
    successor->right = doomed->right;
    *link = successor;
    // The link pushed after `link` was &doomed->right, a field of the node
    // about to be freed; the same child now hangs from successor->right.
    if (path->depth() > doomed_depth + 1) {
      (*path)[doomed_depth + 1] = &successor->right;
    }
  }
  stage1::FreeNode(doomed, bytes);
  stage1::RebalancePath(path);
}
// handout: end

}  // namespace

AvlStore::~AvlStore() { stage1::FreeTree(root_, &node_bytes_); }

uint64_t AvlStore::Size() const { return stage1::SizeOf(root_); }

std::optional<size_t> AvlStore::MemoryUsage() const {
  return sizeof(*this) + node_bytes_;
}

bool AvlStore::GetImpl(std::string_view key, std::string* value) const {
  const Node* node = stage1::FindNode(root_, key);
  if (node == nullptr) return false;
  if (value != nullptr) value->assign(stage1::ValueOf(node));
  return true;
}

bool AvlStore::PutImpl(std::string_view key, std::string_view value) {
  // handout: AvlStore::PutImpl -> #6-the-avl-tree
  AvlPath path;
  Node** link = &root_;
  while (*link != nullptr) {
    const int c = stage1::CompareKeys(key, stage1::KeyOf(*link));
    if (c == 0) {
      *link = stage1::ReplaceValue(*link, value, &node_bytes_);
      return true;  // the shape is unchanged: nothing to rebalance
    }
    path.Push(link);
    link = c < 0 ? &(*link)->left : &(*link)->right;
  }
  stage1::CheckRoomForOneMore(Size());
  *link = stage1::NewNode(key, value, &node_bytes_);
  // Every ancestor's size changed, so the walk goes all the way up even
  // where the heights stop changing.
  stage1::RebalancePath(&path);
  return false;
  // handout: end
}

bool AvlStore::DeleteImpl(std::string_view key) {
  // handout: AvlStore::DeleteImpl -> #6-the-avl-tree
  AvlPath path;
  Node** link = &root_;
  while (true) {
    if (*link == nullptr) return false;
    const int c = stage1::CompareKeys(key, stage1::KeyOf(*link));
    if (c == 0) break;
    path.Push(link);
    link = c < 0 ? &(*link)->left : &(*link)->right;
  }
  RemoveAt(link, &path, &node_bytes_);
  return true;
  // handout: end
}

bool AvlStore::GetNth(uint64_t n, std::string* key, std::string* value) const {
  if (n >= Size()) return false;
  const Node* node = stage1::SelectNode(root_, n);
  if (key != nullptr) key->assign(stage1::KeyOf(node));
  if (value != nullptr) value->assign(stage1::ValueOf(node));
  return true;
}

bool AvlStore::DeleteNth(uint64_t n) {
  // handout: AvlStore::DeleteNth -> #6-the-avl-tree
  if (n >= Size()) return false;
  AvlPath path;
  Node** link = &root_;
  while (true) {
    const Node* node = *link;
    const uint64_t left_size = stage1::SizeOf(node->left);
    if (n == left_size) break;
    path.Push(link);
    if (n < left_size) {
      link = &(*link)->left;
    } else {
      n -= left_size + 1;
      link = &(*link)->right;
    }
  }
  RemoveAt(link, &path, &node_bytes_);
  return true;
  // handout: end
}

uint64_t AvlStore::Rank(std::string_view key) const {
  return stage1::RankOf(root_, key);
}

uint64_t AvlStore::CountRange(std::string_view lo, std::string_view hi) const {
  return stage1::CountRangeOf(root_, lo, hi);
}

absl::Status AvlStore::LoadSorted(
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  if (root_ != nullptr) {
    return absl::FailedPreconditionError("LoadSorted needs an empty store");
  }
  if (pairs.size() > stage1::kMaxPairs) {
    return absl::InvalidArgumentError("more pairs than a tree can hold");
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    absl::Status status = ValidateKeyValue(pairs[i].first, pairs[i].second);
    if (!status.ok()) return status;
    if (i > 0 && stage1::CompareKeys(pairs[i - 1].first, pairs[i].first) >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "LoadSorted: key ", i, " does not come after key ", i - 1));
    }
  }
  try {
    root_ = stage1::BuildBalanced(pairs, 0, pairs.size(), &node_bytes_);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory in LoadSorted");
  }
  return absl::OkStatus();
}

uint64_t AvlStore::Scan(std::string_view start, ScanVisitor visitor) const {
  return stage1::ScanTree(root_, start, visitor);
}

std::string AvlStore::DebugString(size_t max_nodes) const {
  return stage1::TreeDebugString(root_, /*show_height=*/true, max_nodes);
}

int AvlStore::Height() const {
  return root_ == nullptr ? 0 : static_cast<int>(root_->height);
}

absl::Status AvlStore::CheckInvariants() const {
  return stage1::CheckTree(root_,
                           {.avl = true, .allocated_bytes = node_bytes_});
}

absl::Status AvlStore::ExportStructure(const StructureOptions& options,
                                       StructureGraph* graph) const {
  return stage1::ExportTree(root_, /*avl=*/true, options, graph);
}

}  // namespace kvlab
