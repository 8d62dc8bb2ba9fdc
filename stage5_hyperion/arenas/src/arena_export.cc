#include "arena_export.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace kvlab::stage5 {

absl::Status ExportArenas(const std::vector<std::unique_ptr<Arena>>& arenas,
                          const StructureOptions& options,
                          StructureGraph* graph) {
  if (options.has_from_key) {
    return absl::InvalidArgumentError(
        "hyperion with arenas exports from its roots only");
  }
  graph->summary.push_back({"arenas", absl::StrCat(arenas.size())});
  for (size_t i = 0; i < arenas.size(); ++i) {
    StructureGraph part;
    absl::Status status = arenas[i]->Read([&](const HyperionStore& trie) {
      return trie.ExportStructure(options, &part);
    });
    if (!status.ok()) return status;
    // Each arena a cluster of its own; ids get the arena's prefix, so they
    // stay unique and stable from one export to the next.
    const std::string prefix = absl::StrCat("arena", i, "/");
    const std::string cluster = absl::StrCat("arena", i);
    graph->kind = part.kind;
    graph->clusters.push_back({cluster, absl::StrCat("arena ", i), ""});
    for (StructureCluster& c : part.clusters) {
      c.id = prefix + c.id;
      c.parent = c.parent.empty() ? cluster : prefix + c.parent;
      graph->clusters.push_back(std::move(c));
    }
    for (StructureNode& n : part.nodes) {
      n.id = prefix + n.id;
      n.cluster = n.cluster.empty() ? cluster : prefix + n.cluster;
      graph->nodes.push_back(std::move(n));
    }
    for (StructureEdge& e : part.edges) {
      e.from = prefix + e.from;
      e.to = prefix + e.to;
      graph->edges.push_back(std::move(e));
    }
    for (StructureField& f : part.summary) {
      graph->summary.push_back({absl::StrCat(cluster, " ", f.name), f.value});
    }
    graph->nodes_omitted += part.nodes_omitted;
  }
  return absl::OkStatus();
}

}  // namespace kvlab::stage5
