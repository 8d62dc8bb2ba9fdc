// DrawTree: the tree level by level, for tests and the docs.
//
//   level 0: [(4) m (5)]
//   level 1: [(2) c (1)] [(2) q (2)]
//   level 2: [a b] [d] [n p] [r s]
//
// A leaf lists its keys. An internal node interleaves its child references,
// shown as the key counts they carry, with its keys: (count) key (count) ...
// Keys of letters, digits and "_-.:" print bare, others quoted and escaped.

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

std::string FormatKey(std::string_view key) {
  bool bare = !key.empty();
  for (char c : key) {
    bare &= absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' ||
            c == '-' || c == '.' || c == ':';
  }
  if (bare) return std::string(key);
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(key)), "\"");
}

std::string FormatNode(const NodeLayout& layout, const Node* node) {
  std::string out = "[";
  for (int i = 0; i <= node->num_keys; ++i) {
    if (!node->leaf) {
      absl::StrAppend(&out, i > 0 ? " " : "", "(", layout.counts(node)[i], ")");
    }
    if (i == node->num_keys) break;
    absl::StrAppend(&out, i > 0 || !node->leaf ? " " : "",
                    FormatKey(KeyOf(layout.pairs(node)[i])));
  }
  return out + "]";
}

}  // namespace

std::string DrawTree(const Tree& tree, size_t max_nodes) {
  if (tree.root == nullptr) return "(empty)\n";
  const NodeLayout& layout = tree.layout;
  std::string out;
  size_t drawn = 0;
  size_t total = 0;  // nodes seen, drawn or not
  std::vector<const Node*> level = {tree.root};
  for (int depth = 0; !level.empty(); ++depth) {
    std::vector<const Node*> next;
    std::string line = absl::StrCat("level ", depth, ":");
    const size_t drawn_before = drawn;
    for (const Node* node : level) {
      ++total;
      if (drawn < max_nodes) {
        absl::StrAppend(&line, " ", FormatNode(layout, node));
        ++drawn;
      }
      if (!node->leaf) {
        for (int i = 0; i <= node->num_keys; ++i) {
          next.push_back(layout.children(node)[i]);
        }
      }
    }
    if (drawn > drawn_before) absl::StrAppend(&out, line, "\n");
    level = std::move(next);
  }
  if (total > drawn) {
    absl::StrAppend(&out, "... ", total - drawn, " more nodes not drawn\n");
  }
  return out;
}

}  // namespace kvlab::stage2
