// DebugString's drawing, CheckInvariants and GetShape: O(n) walks for tests
// and for the chapter's figures.

#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/epoch.h"
#include "kvlab/string_view_compat.h"
#include "node.h"
#include "node_pool.h"
#include "with_write_lock.h"

namespace kvlab {
namespace {

std::string Quote(std::string_view bytes) {
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(bytes)), "\"");
}

}  // namespace

// One line per node, children indented under their parent:
//   root [4]
//     'a' [3]
//       'b' "c" =v1
// 'a' is the branch byte, "c" the label, =v1 the value (when present), and
// [3] the keys below an inner node.
std::string CTrieStore::TreeString(size_t max_nodes) const {
  struct Item {
    const Node* node;
    int branch;  // -1 for the root
    size_t depth;
  };
  std::string out;
  std::vector<Item> stack = {{root_.load(), -1, 0}};
  size_t shown = 0;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (shown++ == max_nodes) {
      absl::StrAppend(&out, "...\n");
      break;
    }
    const Node* x = item.node;
    out.append(2 * item.depth, ' ');
    if (item.branch < 0) {
      out.append("root");
    } else {
      absl::StrAppend(
          &out, "'",
          absl::CHexEscape(std::string(1, static_cast<char>(item.branch))),
          "'");
    }
    if (!stage4::Label(x).empty()) {
      absl::StrAppend(&out, " ", Quote(stage4::Label(x)));
    }
    if (stage4::HasValue(x)) {
      absl::StrAppend(&out, " =", absl::CHexEscape(ToAbsl(stage4::Value(x))));
    }
    const size_t children = stage4::NumChildren(x);
    if (item.branch < 0 || children > 0) {
      uint64_t keys = stage4::HasValue(x) ? 1 : 0;
      for (size_t i = 0; i < children; ++i) keys += stage4::LoadCount(x, i);
      absl::StrAppend(&out, " [", keys, "]");
    }
    out.push_back('\n');
    for (size_t i = children; i-- > 0;) {
      stack.push_back(
          {stage4::LoadChild(x, i), stage4::BranchArray(x)[i], item.depth + 1});
    }
  }
  return out;
}

absl::Status CTrieStore::CheckNode(const Node* x, bool is_root,
                                   size_t key_length, uint64_t* keys,
                                   uint64_t* nodes) const {
  const bool full = options_.compress == CTrieOptions::Compress::kFull;
  const size_t children = stage4::NumChildren(x);
  const std::string_view label = stage4::Label(x);
  key_length += label.size();
  ++*nodes;
  auto fail = [&](const std::string& what) {
    return absl::InternalError(absl::StrCat(what, " at node with label ",
                                            Quote(label), ", ", children,
                                            " children"));
  };
  if (is_root && !label.empty()) return fail("root has a label");
  if (children > stage4::kMaxChildren) return fail("too many children");
  if (!is_root && !stage4::HasValue(x) && children == 0) {
    return fail("empty non-root node");
  }
  if (full && !is_root && !stage4::HasValue(x) && children < 2) {
    return fail("full compression: valueless node with one child");
  }
  if (!full && children > 0 && !label.empty()) {
    return fail("suffix compression: inner node with a label");
  }
  if (stage4::HasValue(x) && key_length > kMaxKeySize) {
    return fail("key longer than the limit");
  }
  uint64_t subtree = stage4::HasValue(x) ? 1 : 0;
  const uint8_t* branch = stage4::BranchArray(x);
  for (size_t i = 0; i < children; ++i) {
    if (i > 0 && branch[i - 1] >= branch[i]) {
      return fail("branch bytes not strictly ascending");
    }
    uint64_t child_keys = 0;
    absl::Status s = CheckNode(stage4::LoadChild(x, i), false, key_length + 1,
                               &child_keys, nodes);
    if (!s.ok()) return s;
    if (stage4::LoadCount(x, i) != child_keys) {
      return fail(absl::StrCat("count of child ", i, " is ",
                               stage4::LoadCount(x, i), ", subtree holds ",
                               child_keys));
    }
    subtree += child_keys;
  }
  if (!full && !is_root && subtree == 1 && children > 0) {
    return fail("suffix compression: one-key subtree is not a single leaf");
  }
  *keys = subtree;
  return absl::OkStatus();
}

absl::Status CTrieStore::CheckInvariants() const {
  return const_cast<CTrieStore*>(this)->WithWriteLock([&]() -> absl::Status {
    uint64_t keys = 0, nodes = 0;
    absl::Status s = CheckNode(root_.load(), true, 0, &keys, &nodes);
    if (!s.ok()) return s;
    if (keys != size_.load()) {
      return absl::InternalError(
          absl::StrCat("Size() is ", size_.load(), ", the trie holds ", keys));
    }
    const uint64_t pending = epochs_ != nullptr ? epochs_->pending() : 0;
    if (pool_->LiveObjects() != nodes + pending) {
      return absl::InternalError(absl::StrCat(
          "pool has ", pool_->LiveObjects(), " live objects, trie has ", nodes,
          " nodes and ", pending, " await reclamation"));
    }
    return absl::OkStatus();
  });
}

CTrieStore::Shape CTrieStore::GetShape() const {
  return const_cast<CTrieStore*>(this)->WithWriteLock([&] {
    Shape shape;
    std::vector<std::pair<const Node*, int>> stack = {{root_.load(), 0}};
    while (!stack.empty()) {
      auto [x, depth] = stack.back();
      stack.pop_back();
      ++shape.nodes;
      if (depth > shape.max_depth) shape.max_depth = depth;
      const size_t children = stage4::NumChildren(x);
      if (children > 0) ++shape.inner_nodes;
      for (size_t i = 0; i < children; ++i) {
        stack.push_back({stage4::LoadChild(x, i), depth + 1});
      }
    }
    return shape;
  });
}

}  // namespace kvlab
