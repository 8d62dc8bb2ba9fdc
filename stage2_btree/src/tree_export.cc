// The B-tree's structure export (kvlab/structure.h): one node per B-tree
// node, identified by its address, showing its keys and the key count of
// each child.

#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/structure_export.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

std::string IdOf(const Node* node) {
  char id[32];
  std::snprintf(id, sizeof(id), "node@%p", static_cast<const void*>(node));
  return id;
}

// Nodes in the whole tree; O(nodes), for the summary only.
uint64_t CountNodes(const NodeLayout& layout, const Node* root) {
  if (root == nullptr) return 0;
  uint64_t nodes = 0;
  std::deque<const Node*> pending = {root};
  while (!pending.empty()) {
    const Node* node = pending.front();
    pending.pop_front();
    ++nodes;
    if (node->leaf) continue;
    for (int i = 0; i <= node->num_keys; ++i) {
      pending.push_back(layout.children(node)[i]);
    }
  }
  return nodes;
}

}  // namespace

absl::Status ExportTree(const Tree& tree, const StructureOptions& options,
                        StructureGraph* graph) {
  const NodeLayout& layout = tree.layout;
  graph->kind = "btree";
  graph->summary.push_back({"pairs", absl::StrCat(tree.size)});
  graph->summary.push_back({"order", absl::StrCat(layout.order())});
  graph->summary.push_back({"height", absl::StrCat(tree.height)});
  const uint64_t nodes = CountNodes(layout, tree.root);
  graph->summary.push_back({"nodes", absl::StrCat(nodes)});
  const Node* start = tree.root;
  if (options.has_from_key && start != nullptr) {
    const uint64_t prefix = layout.PrefixFor(options.from_key);
    while (start != nullptr) {
      bool found = false;
      const int i = SearchNode(layout, start, prefix, options.from_key, &found);
      if (found) break;
      start = start->leaf ? nullptr : layout.children(start)[i];
    }
  }
  if (options.has_from_key && start == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no node holds the key ", QuotedKey(options.from_key)));
  }
  if (start == nullptr) return absl::OkStatus();
  ExportBreadthFirst(
      start, options, graph,
      [&layout](const Node* node, StructureNode* out,
                std::vector<StructureChild<const Node*>>* children) {
        out->id = IdOf(node);
        out->title =
            absl::StrCat(node->leaf ? "leaf" : "internal", ", ", node->num_keys,
                         " of ", layout.max_keys(), " keys");
        std::vector<std::string> keys;
        for (int i = 0; i < node->num_keys; ++i) {
          keys.push_back(QuotedKey(KeyOf(layout.pairs(node)[i])));
        }
        out->fields.push_back({"keys", absl::StrJoin(keys, " ")});
        if (node->leaf) return;
        // Each edge carries the key count the parent records for the child.
        const uint64_t* counts = layout.counts(node);
        out->fields.push_back(
            {"child counts",
             absl::StrJoin(counts, counts + node->num_keys + 1, " ")});
        for (int i = 0; i <= node->num_keys; ++i) {
          children->push_back(
              {layout.children(node)[i], absl::StrCat(counts[i])});
        }
      });
  graph->nodes_omitted = nodes - graph->nodes.size();
  return absl::OkStatus();
}

}  // namespace kvlab::stage2
