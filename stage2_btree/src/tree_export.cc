// The B-tree's structure export (kvlab/structure.h): one node per B-tree
// node, identified by its address, showing its keys and the key count of
// each child.

#include <algorithm>
#include <cstdio>
#include <deque>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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
  const size_t budget = std::max<size_t>(options.max_nodes, 1);
  struct Pending {
    const Node* node;
    int depth;
    std::string parent_id;
    uint64_t count;  // keys in its subtree, as its parent records them
  };
  std::deque<Pending> queue = {{start, 0, "", SubtreeSize(layout, start)}};
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
    out.title =
        absl::StrCat(node->leaf ? "leaf" : "internal", ", ", node->num_keys,
                     " of ", layout.max_keys(), " keys");
    std::vector<std::string> keys;
    for (int i = 0; i < node->num_keys; ++i) {
      keys.push_back(QuotedKey(KeyOf(layout.pairs(node)[i])));
    }
    out.fields.push_back({"keys", absl::StrJoin(keys, " ")});
    if (!node->leaf) {
      std::vector<uint64_t> counts(layout.counts(node),
                                   layout.counts(node) + node->num_keys + 1);
      out.fields.push_back({"child counts", absl::StrJoin(counts, " ")});
      for (int i = 0; i <= node->num_keys; ++i) {
        queue.push_back(
            {layout.children(node)[i], next.depth + 1, out.id, counts[i]});
      }
    }
    if (!next.parent_id.empty()) {
      graph->edges.push_back(
          {next.parent_id, out.id, absl::StrCat(next.count)});
    }
    graph->nodes.push_back(std::move(out));
  }
  graph->nodes_omitted = nodes - graph->nodes.size();
  return absl::OkStatus();
}

}  // namespace kvlab::stage2
