// The walk every tree-shaped store's ExportStructure shares: nodes exported
// breadth first from a start node, within StructureOptions' budget of nodes
// and levels, each joined to its parent by a labelled edge.

#ifndef KVLAB_STRUCTURE_EXPORT_H_
#define KVLAB_STRUCTURE_EXPORT_H_

#include <algorithm>
#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "kvlab/structure.h"

namespace kvlab {

// A child of an exported node: the store's handle for it (a node pointer,
// or a pointer with the key bytes that lead to it) and the label of the
// edge from its parent.
template <typename Handle>
struct StructureChild {
  Handle handle;
  std::string edge_label;
};

// Appends to `graph` the nodes reachable from `start` in breadth-first
// order: at most options.max_nodes (0 counts as 1), and none more than
// options.max_depth levels below `start` (-1: no limit). For each node the
// walk calls
//
//   describe(const Handle& handle, StructureNode* node,
//            std::vector<StructureChild<Handle>>* children)
//
// which fills in the node (its id, title and fields) and appends its
// children in the order they are drawn; the walk adds the edge from the node
// to each child it exports. Returns the number of nodes appended.
template <typename Handle, typename Describe>
size_t ExportBreadthFirst(Handle start, const StructureOptions& options,
                          StructureGraph* graph, Describe describe) {
  struct Pending {
    Handle handle;
    int depth;
    std::string parent_id;  // empty for the start node
    std::string edge_label;
  };
  const size_t budget = std::max<size_t>(options.max_nodes, 1);
  size_t exported = 0;
  std::deque<Pending> queue;
  queue.push_back(Pending{std::move(start), 0, "", ""});
  std::vector<StructureChild<Handle>> children;
  while (!queue.empty() && exported < budget) {
    Pending next = std::move(queue.front());
    queue.pop_front();
    // Breadth first, so every node still queued is at least this deep.
    if (options.max_depth >= 0 && next.depth > options.max_depth) break;
    StructureNode node;
    children.clear();
    describe(static_cast<const Handle&>(next.handle), &node, &children);
    for (StructureChild<Handle>& child : children) {
      queue.push_back(Pending{std::move(child.handle), next.depth + 1, node.id,
                              std::move(child.edge_label)});
    }
    if (!next.parent_id.empty()) {
      graph->edges.push_back(
          {std::move(next.parent_id), node.id, std::move(next.edge_label)});
    }
    graph->nodes.push_back(std::move(node));
    ++exported;
  }
  return exported;
}

}  // namespace kvlab

#endif  // KVLAB_STRUCTURE_EXPORT_H_
