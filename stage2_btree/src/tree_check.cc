// CheckTree: every invariant of the tree, in one O(n) walk.

#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

using Bound = std::optional<std::string_view>;  // absent: unbounded

std::string Quote(std::string_view key) {
  return absl::StrCat("\"", absl::CHexEscape(ToAbsl(key)), "\"");
}

class Checker {
 public:
  explicit Checker(const Tree& tree) : tree_(tree), layout_(tree.layout) {}

  absl::Status CheckAll() {
    if ((tree_.root == nullptr) != (tree_.size == 0) ||
        (tree_.root == nullptr) != (tree_.height == 0)) {
      return absl::InternalError(absl::StrCat(
          "root ", tree_.root == nullptr ? "absent" : "present", " with size ",
          tree_.size, " and height ", tree_.height));
    }
    uint64_t size = 0;
    if (tree_.root != nullptr) {
      absl::Status status =
          Check(tree_.root, 0, std::nullopt, std::nullopt, &size);
      if (!status.ok()) return status;
    }
    if (size != tree_.size) {
      return absl::InternalError(absl::StrCat(
          "the tree holds ", size, " keys but size is ", tree_.size));
    }
    if (node_bytes_ != tree_.node_bytes || pair_bytes_ != tree_.pair_bytes) {
      return absl::InternalError(
          absl::StrCat("node bytes ", node_bytes_, " and pair bytes ",
                       pair_bytes_, " counted, but the tally says ",
                       tree_.node_bytes, " and ", tree_.pair_bytes));
    }
    return absl::OkStatus();
  }

 private:
  // Checks the subtree under `node` at `depth` (root 0), whose keys must lie
  // strictly between `low` and `high`; returns its key count in `*size`.
  absl::Status Check(const Node* node, int depth, Bound low, Bound high,
                     uint64_t* size) {
    const std::string where = absl::StrCat("node at depth ", depth);
    node_bytes_ += layout_.node_bytes(node->leaf);
    if (node->leaf != (depth == tree_.height - 1)) {
      return absl::InternalError(
          absl::StrCat(where, node->leaf ? " is a leaf" : " is internal",
                       " but the leaves are at depth ", tree_.height - 1));
    }
    const int min = node == tree_.root ? 1 : layout_.min_keys();
    if (node->num_keys < min || node->num_keys > layout_.max_keys()) {
      return absl::InternalError(absl::StrCat(where, " holds ", node->num_keys,
                                              " keys, not ", min, "..",
                                              layout_.max_keys()));
    }
    // In key order: child 0, key 0, child 1, ..., key n-1, child n. Each key
    // must follow `previous`, the key (or bound) before it.
    Bound previous = low;
    *size = node->num_keys;
    for (int i = 0; i <= node->num_keys; ++i) {
      const Bound next =
          i < node->num_keys ? Bound(KeyOf(layout_.pairs(node)[i])) : high;
      if (!node->leaf) {
        uint64_t child_size = 0;
        absl::Status status = Check(layout_.children(node)[i], depth + 1,
                                    previous, next, &child_size);
        if (!status.ok()) return status;
        if (layout_.counts(node)[i] != child_size) {
          return absl::InternalError(absl::StrCat(
              where, ": count of child ", i, " is ", layout_.counts(node)[i],
              " but it holds ", child_size, " keys"));
        }
        *size += child_size;
      }
      if (previous.has_value() && next.has_value() &&
          CompareKeys(*previous, *next) >= 0) {
        return absl::InternalError(absl::StrCat(
            where, ": key ", Quote(*next), " is not after ", Quote(*previous)));
      }
      if (i == node->num_keys) break;
      const Pair* pair = layout_.pairs(node)[i];
      pair_bytes_ += PairBytes(pair);
      if (layout_.has_prefixes() &&
          layout_.prefixes(node)[i] != KeyPrefix(KeyOf(pair))) {
        return absl::InternalError(
            absl::StrCat(where, ": wrong prefix for key ", Quote(KeyOf(pair))));
      }
      previous = next;
    }
    return absl::OkStatus();
  }

  const Tree& tree_;
  const NodeLayout& layout_;
  size_t node_bytes_ = 0;
  size_t pair_bytes_ = 0;
};

}  // namespace

absl::Status CheckTree(const Tree& tree) { return Checker(tree).CheckAll(); }

}  // namespace kvlab::stage2
