#include "tree_debug.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::stage1 {
namespace {

int HeightOf(const Node* node) { return node == nullptr ? 0 : node->height; }

std::string Quoted(const Node* node) {
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(KeyOf(node))), "\"");
}

std::string NodeText(const Node* node, bool show_height) {
  std::string text = absl::StrCat(Quoted(node), " size=", node->size);
  if (show_height) absl::StrAppend(&text, " height=", node->height);
  return text;
}

}  // namespace

std::string TreeDebugString(const Node* root, bool show_height,
                            size_t max_nodes) {
  if (root == nullptr) return "(empty)\n";
  struct Pending {
    const Node* node;
    std::string line_start;    // drawn before the node: indent, branch, L/R
    std::string child_indent;  // drawn before the lines of its children
  };
  std::vector<Pending> stack = {{root, "", ""}};
  std::string out;
  size_t drawn = 0;
  while (!stack.empty() && drawn < max_nodes) {
    Pending p = std::move(stack.back());
    stack.pop_back();
    absl::StrAppend(&out, p.line_start, NodeText(p.node, show_height), "\n");
    ++drawn;
    // Push right before left so that the left child is drawn first.
    const Node* left = p.node->left;
    const Node* right = p.node->right;
    if (right != nullptr) {
      stack.push_back({right, p.child_indent + "`-R ", p.child_indent + "  "});
    }
    if (left != nullptr) {
      const bool last = right == nullptr;
      stack.push_back({left, p.child_indent + (last ? "`-L " : "|-L "),
                       p.child_indent + (last ? "  " : "| ")});
    }
  }
  if (drawn < root->size) {
    absl::StrAppend(&out, "... ", root->size - drawn, " more nodes\n");
  }
  return out;
}

int TreeHeight(const Node* root) {
  std::vector<std::pair<const Node*, int>> stack;
  if (root != nullptr) stack.push_back({root, 1});
  int height = 0;
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    height = std::max(height, depth);
    if (node->left != nullptr) stack.push_back({node->left, depth + 1});
    if (node->right != nullptr) stack.push_back({node->right, depth + 1});
  }
  return height;
}

absl::Status CheckTree(const Node* root, const CheckOptions& options) {
  const uint64_t root_size = SizeOf(root);
  absl::InlinedVector<const Node*, 64> stack;
  const Node* previous = nullptr;
  uint64_t count = 0;
  size_t bytes = 0;
  const Node* node = root;
  // An in-order walk: a valid BST lists its keys in strictly ascending order.
  while (node != nullptr || !stack.empty()) {
    for (; node != nullptr; node = node->left) {
      // A path longer than the node count means a cycle: stop, don't loop.
      if (stack.size() >= root_size) {
        return absl::InternalError(
            absl::StrCat("a path is longer than the root's size ", root_size,
                         ": the links form a cycle or the size is wrong"));
      }
      stack.push_back(node);
    }
    node = stack.back();
    stack.pop_back();

    if (previous != nullptr && CompareKeys(KeyOf(previous), KeyOf(node)) >= 0) {
      return absl::InternalError(absl::StrCat("key ", Quoted(node), " follows ",
                                              Quoted(previous),
                                              " in order but is not larger"));
    }
    const uint64_t children = SizeOf(node->left) + SizeOf(node->right);
    if (node->size != children + 1) {
      return absl::InternalError(
          absl::StrCat("node ", Quoted(node), " has size ", node->size,
                       " but its children hold ", children));
    }
    if (options.avl) {
      const int left = HeightOf(node->left);
      const int right = HeightOf(node->right);
      if (static_cast<int>(node->height) != std::max(left, right) + 1) {
        return absl::InternalError(absl::StrCat(
            "node ", Quoted(node), " has height ", node->height,
            " but its children have heights ", left, " and ", right));
      }
      if (left - right > 1 || right - left > 1) {
        return absl::InternalError(
            absl::StrCat("node ", Quoted(node), " is out of balance: left ",
                         "height ", left, ", right height ", right));
      }
    }
    ++count;
    bytes += NodeBytes(node);
    previous = node;
    node = node->right;
  }
  if (count != root_size) {
    return absl::InternalError(absl::StrCat("the root's size is ", root_size,
                                            " but the tree has ", count,
                                            " nodes"));
  }
  if (bytes != options.allocated_bytes) {
    return absl::InternalError(
        absl::StrCat("the nodes take ", bytes, " bytes but ",
                     options.allocated_bytes, " are accounted for"));
  }
  return absl::OkStatus();
}

}  // namespace kvlab::stage1
