#include "tree_export.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvlab/structure_export.h"

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
  ExportBreadthFirst(
      start, options, graph,
      [avl](const Node* node, StructureNode* out,
            std::vector<StructureChild<const Node*>>* children) {
        out->id = IdOf(node);
        out->title = QuotedKey(KeyOf(node));
        out->fields.push_back({"size", absl::StrCat(node->size)});
        if (avl) {
          out->fields.push_back({"height", absl::StrCat(node->height)});
          out->fields.push_back(
              {"balance",
               absl::StrCat(HeightOf(node->right) - HeightOf(node->left))});
        }
        out->fields.push_back({"value", PrintablePrefix(ValueOf(node))});
        if (node->left != nullptr) children->push_back({node->left, "L"});
        if (node->right != nullptr) children->push_back({node->right, "R"});
      });
  graph->nodes_omitted = SizeOf(root) - graph->nodes.size();
  return absl::OkStatus();
}

}  // namespace kvlab::stage1
