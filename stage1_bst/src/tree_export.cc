#include "tree_export.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace kvlab::stage1 {
namespace {

std::string IdOf(const Node* node) {
  return absl::StrCat("key:", PrintableBytes(KeyOf(node)));
}

int HeightOf(const Node* node) { return node == nullptr ? 0 : node->height; }

}  // namespace

absl::Status ExportTree(const Node* root, bool avl,
                        const StructureOptions& options,
                        StructureGraph* graph) {
  graph->kind = "binary_tree";
  graph->summary.push_back({"pairs", absl::StrCat(SizeOf(root))});
  const Node* start = root;
  if (options.has_from_key) {
    while (start != nullptr) {
      const int c = CompareKeys(options.from_key, KeyOf(start));
      if (c == 0) break;
      start = c < 0 ? start->left : start->right;
    }
    if (start == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("no node holds the key ", QuotedKey(options.from_key)));
    }
  }
  if (start == nullptr) return absl::OkStatus();
  const size_t budget = std::max<size_t>(options.max_nodes, 1);
  // Each queued node with its depth and the edge that reached it.
  struct Pending {
    const Node* node;
    int depth;
    std::string parent_id;
    const char* label;
  };
  std::deque<Pending> queue = {{start, 0, "", ""}};
  while (!queue.empty()) {
    Pending next = std::move(queue.front());
    queue.pop_front();
    const Node* node = next.node;
    if (graph->nodes.size() == budget ||
        (options.max_depth >= 0 && next.depth > options.max_depth)) {
      continue;
    }
    StructureNode out;
    out.id = IdOf(node);
    out.title = QuotedKey(KeyOf(node));
    out.fields.push_back({"size", absl::StrCat(node->size)});
    if (avl) {
      out.fields.push_back({"height", absl::StrCat(node->height)});
      out.fields.push_back({"balance", absl::StrCat(HeightOf(node->right) -
                                                    HeightOf(node->left))});
    }
    out.fields.push_back({"value", PrintablePrefix(ValueOf(node))});
    if (!next.parent_id.empty()) {
      graph->edges.push_back({next.parent_id, out.id, next.label});
    }
    if (node->left != nullptr) {
      queue.push_back({node->left, next.depth + 1, out.id, "L"});
    }
    if (node->right != nullptr) {
      queue.push_back({node->right, next.depth + 1, out.id, "R"});
    }
    graph->nodes.push_back(std::move(out));
  }
  graph->nodes_omitted = SizeOf(root) - graph->nodes.size();
  return absl::OkStatus();
}

}  // namespace kvlab::stage1
