#include "change.h"

#include <map>
#include <string_view>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kvdraw {
namespace {

using kvlab::StructureEdge;
using kvlab::StructureGraph;
using kvlab::StructureNode;

bool SameContent(const StructureNode& a, const StructureNode& b) {
  if (a.title != b.title || a.fields.size() != b.fields.size()) return false;
  for (size_t i = 0; i < a.fields.size(); ++i) {
    if (a.fields[i].name != b.fields[i].name ||
        a.fields[i].value != b.fields[i].value) {
      return false;
    }
  }
  return true;
}

// A summary field read as a number; -1 when absent.
int64_t SummaryNumber(const StructureGraph& graph, std::string_view name) {
  for (const kvlab::StructureField& field : graph.summary) {
    int64_t value = 0;
    if (field.name == name && absl::SimpleAtoi(field.value, &value)) {
      return value;
    }
  }
  return -1;
}

bool IsPointer(const StructureEdge& edge) {
  return edge.kind != StructureEdge::Kind::kLayout;
}

std::string NameChange(const StructureGraph& before,
                       const StructureGraph& after, const Operation& op,
                       const Change& change) {
  const std::string& kind = after.kind;
  if (kind == "btree") {
    // Node counts rather than ids: an address freed by a merge may come
    // back in the same step's split.
    const int64_t delta =
        SummaryNumber(after, "nodes") - SummaryNumber(before, "nodes");
    if (delta > 0) return absl::StrCat("split: ", delta, " node(s) more");
    if (delta < 0) return absl::StrCat("merge: ", -delta, " node(s) fewer");
    if (change.changed.size() >= 2) {
      return absl::StrCat("keys moved between ", change.changed.size(),
                          " nodes (no split or merge)");
    }
    return "";
  }
  std::vector<std::string> parts;
  if (kind == "binary_tree" && !change.new_links.empty()) {
    // Inserting into a binary search tree only hangs a new leaf: a link
    // between two old nodes is a rotation. A delete also re-links to fill
    // the deleted node's place, so only a put names it for sure.
    parts.push_back(op.kind == Operation::Kind::kPut
                        ? absl::StrCat("rotation: ", change.new_links.size(),
                                       " link(s) between old nodes")
                        : absl::StrCat("re-linked: ", change.new_links.size(),
                                       " link(s) between old nodes"));
  }
  // Nodes outside clusters are the structure itself; a cluster (a node
  // pool, a nested container) is reported as one changed box.
  std::map<std::string, std::string> cluster_of;
  for (const StructureGraph* graph : {&before, &after}) {
    for (const StructureNode& node : graph->nodes) {
      cluster_of[node.id] = node.cluster;
    }
  }
  std::map<std::string, std::string> cluster_label;
  for (const StructureGraph* graph : {&before, &after}) {
    for (const kvlab::StructureCluster& cluster : graph->clusters) {
      cluster_label[cluster.id] = cluster.label;
    }
  }
  size_t added = 0, removed = 0;
  std::set<std::string> clusters_changed;
  for (const std::set<std::string>* ids :
       {&change.added, &change.changed, &change.removed_ids}) {
    for (const std::string& id : *ids) {
      const std::string& cluster = cluster_of[id];
      if (!cluster.empty()) {
        clusters_changed.insert(cluster);
      } else if (ids == &change.added) {
        ++added;
      } else if (ids == &change.removed_ids) {
        ++removed;
      }
    }
  }
  if (added > 0) parts.push_back(absl::StrCat(added, " node(s) added"));
  if (removed > 0) parts.push_back(absl::StrCat(removed, " node(s) removed"));
  size_t rebuilt = 0;
  for (const std::string& id : change.changed) {
    if (cluster_of[id].empty()) ++rebuilt;
  }
  if (kind == "ctrie" && rebuilt > 0) {
    parts.push_back(absl::StrCat(rebuilt, " node(s) rebuilt (copy on write)"));
  }
  // Each box named by its label up to the first colon ("node pool"), a
  // few at most.
  constexpr size_t kBoxesNamed = 3;
  std::set<std::string> boxes;
  for (const std::string& cluster : clusters_changed) {
    const std::string& label = cluster_label[cluster];
    boxes.insert(label.substr(0, label.find(':')));
  }
  size_t named = 0;
  for (const std::string& box : boxes) {
    if (named++ == kBoxesNamed) {
      parts.push_back(
          absl::StrCat(boxes.size() - kBoxesNamed, " more box(es) changed"));
      break;
    }
    parts.push_back(absl::StrCat(box, " changed"));
  }
  return absl::StrJoin(parts, ", ");
}

}  // namespace

Change Compare(const StructureGraph& before, const StructureGraph& after,
               const Operation& op) {
  Change change;
  std::map<std::string, const StructureNode*> old_nodes;
  for (const StructureNode& node : before.nodes) old_nodes[node.id] = &node;
  std::set<std::string> new_ids;
  for (const StructureNode& node : after.nodes) {
    new_ids.insert(node.id);
    auto it = old_nodes.find(node.id);
    if (it == old_nodes.end()) {
      change.added.insert(node.id);
    } else if (!SameContent(*it->second, node)) {
      change.changed.insert(node.id);
    }
  }
  for (const StructureNode& node : before.nodes) {
    if (new_ids.contains(node.id)) continue;
    change.removed_ids.insert(node.id);
    if (node.cluster.empty()) change.removed.push_back(node.title);
  }
  std::set<std::pair<std::string, std::string>> old_links;
  for (const StructureEdge& edge : before.edges) {
    if (IsPointer(edge)) old_links.insert({edge.from, edge.to});
  }
  for (const StructureEdge& edge : after.edges) {
    if (!IsPointer(edge) || old_links.contains({edge.from, edge.to})) continue;
    if (old_nodes.contains(edge.from) && old_nodes.contains(edge.to)) {
      change.new_links.insert({edge.from, edge.to});
      change.relinked.insert(edge.to);
    }
  }
  change.summary = NameChange(before, after, op, change);
  return change;
}

}  // namespace kvdraw
