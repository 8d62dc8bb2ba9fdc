#include "arena_store_base.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace kvlab::stage5 {

ArenaStoreBase::ArenaStoreBase(const HyperionOptions& options,
                               const ArenaOptions& arena_options)
    : arenas_(MakeArenas(std::clamp<uint32_t>(arena_options.arenas, 1, 256),
                         arena_options.lock, options)) {}

size_t ArenaStoreBase::ArenaBytes() const {
  size_t bytes = arenas_.capacity() * sizeof(arenas_[0]);
  for (const auto& a : arenas_) bytes += a->MemoryUsage();
  return bytes;
}

bool ArenaStoreBase::BatchedScan::Visit() {
  for (size_t i = 0; i < batch_.size(); ++i) {
    ++visited_;
    if (!visitor_(batch_.key(i), batch_.value(i))) return false;
  }
  if (batch_.size() > 0) {
    bound_.assign(batch_.key(batch_.size() - 1));
    after_ = true;
  }
  return true;
}

absl::Status ArenaStoreBase::CheckArenaKeys(
    size_t i, const HyperionStore& trie,
    absl::FunctionRef<size_t(std::string_view)> home,
    absl::FunctionRef<void(std::string_view)> count) {
  absl::Status status = trie.CheckInvariants();
  if (!status.ok()) {
    return absl::InternalError(
        absl::StrCat("arena ", i, ": ", status.message()));
  }
  std::string misplaced;
  bool found = false;
  trie.Scan("", [&](std::string_view k, std::string_view) {
    if (home(k) != i) {
      misplaced = k;
      found = true;
      return false;
    }
    count(k);
    return true;
  });
  if (found) {
    return absl::InternalError(absl::StrCat("arena ", i, " holds key \"",
                                            PrintablePrefix(misplaced, 32),
                                            "\" of arena ", home(misplaced)));
  }
  return absl::OkStatus();
}

absl::Status ArenaStoreBase::ExportStructure(const StructureOptions& options,
                                             StructureGraph* graph) const {
  if (options.has_from_key) {
    return absl::InvalidArgumentError(
        "hyperion with arenas exports from its roots only");
  }
  graph->summary.push_back({"arenas", absl::StrCat(arenas_.size())});
  for (size_t i = 0; i < arenas_.size(); ++i) {
    StructureGraph part;
    absl::Status status = arenas_[i]->Read([&](const HyperionStore& trie) {
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
