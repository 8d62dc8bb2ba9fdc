// HyperionTrie::ExportStructure: the containers at the byte level, and the
// memory manager's superbins.
//
// Each container is a box (a cluster) holding one node: its header, then a
// row per jump table entry and trie node, the lines the dump prints
// (dump.cc's rows: offset and first bytes, then what they encode: T or S node,
// key or delta, value, jump successor, T-node table, suffix, child pointer). An
// embedded container is a box inside its parent's box, with its own node;
// a child pointer is an edge to the child container's node; a split
// directory is a node with an edge to each piece. Containers are named by
// their pointer, so one that grows into a new chunk is drawn as new.

#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "debug/dump.h"
#include "hyperion_trie.h"
#include "kvlab/structure.h"

namespace kvlab::stage5 {
namespace {

using hyperion::ChildKind;
using hyperion::Node;
using hyperion::Region;

std::string ContainerId(HyperionPointer hp) {
  return absl::StrFormat("container:%#x", hp.raw());
}

std::string KeyText(uint8_t key) {
  return QuotedKey(std::string_view(reinterpret_cast<const char*>(&key), 1));
}

// The memory manager's superbins in use, a cluster of one node.
void ExportMemory(const MemoryManager& mm, StructureGraph* graph) {
  const MemoryStats stats = mm.Stats();
  graph->clusters.push_back(
      {"memory",
       absl::StrCat("memory manager: ", stats.FootprintBytes(), " B held, ",
                    stats.cached_segments, " cached segment(s)"),
       ""});
  StructureNode superbins{"memory:superbins", "superbins in use", {}, "memory"};
  for (uint32_t sb = 0; sb < stats.superbins.size(); ++sb) {
    const SuperbinStats& s = stats.superbins[sb];
    if (s.bins == 0 && s.chunks_in_use == 0) continue;
    superbins.fields.push_back(
        {sb == 0 ? std::string("SB 0 (extended)")
                 : absl::StrCat("SB ", sb, " (", ChunkSize(sb), " B chunks)"),
         absl::StrCat(s.bins, " bin(s), ", s.chunks_in_use, " chunk(s) used, ",
                      s.chunks_free, " free")});
  }
  graph->nodes.push_back(std::move(superbins));
}

// A container still to visit, breadth first: its depth in containers,
// and the drawn node whose pointer leads to it (empty: none drawn).
struct Pending {
  HyperionPointer hp;
  int depth;
  std::string parent_id;
  std::string label;
};

// Split directory `c` (drawn if `draw`, as node `id`) and its pieces, queued.
void ExportSplit(const uint8_t* c, const Pending& next, const std::string& id,
                 bool draw, std::deque<Pending>* queue, StructureGraph* graph) {
  StructureNode split{
      id, absl::StrFormat("split directory %#x", next.hp.raw()), {}, ""};
  for (uint32_t j = 0; j < hyperion::PieceCount(c); ++j) {
    const HyperionPointer piece = hyperion::PiecePointer(c, j);
    const std::string from = KeyText(hyperion::PieceKey(c, j));
    split.fields.push_back(
        {absl::StrCat("T-nodes from ", from),
         absl::StrFormat("container %#x (%d keys)", piece.raw(),
                         hyperion::PieceKeys(c, j))});
    queue->push_back(
        {piece, next.depth + 1, draw ? id : "", absl::StrCat("from ", from)});
  }
  if (draw) graph->nodes.push_back(std::move(split));
}

// Container `c` at `hp` (node and cluster `id`, at `depth` in containers): if
// `draw`, a node of its header and rows, and one per embedded container in
// a box of its own; its child containers queued either way.
void ExportContainer(const uint8_t* c, HyperionPointer hp,
                     const std::string& id, int depth, bool draw,
                     std::deque<Pending>* queue, StructureGraph* graph) {
  // The container's own level, then each embedded container found in
  // it: a node in a box of its own inside the box of the level above.
  struct Box {
    Region region;
    std::string id;
    std::string title;
  };
  std::vector<Box> boxes = {{hyperion::WholeContainer(c), id,
                             absl::StrFormat("container %#x", hp.raw())}};
  for (size_t b = 0; b < boxes.size(); ++b) {
    const Box box = boxes[b];
    const Region& r = box.region;
    // What hangs below node `n` of the box: a container for the queue,
    // an embedded container for a box of its own.
    auto below = [&](const Node& n) {
      if (n.child == ChildKind::kPointer) {
        const uint8_t* child = r.buf + n.child_pos;
        queue->push_back(
            {HyperionPointer::Load(child), depth + 1, draw ? box.id : "",
             absl::StrCat(KeyText(n.key), " ",
                          hyperion::LoadCount(child + HyperionPointer::kBytes),
                          " keys")});
      } else if (n.child == ChildKind::kEmbedded && draw) {
        const std::string inner = absl::StrFormat("%s/%04x", id, n.pos);
        boxes.push_back({hyperion::EmbeddedRegion(r.buf, n.child_pos), inner,
                         absl::StrFormat("embedded at %04x", n.pos)});
        graph->clusters.push_back(
            {inner,
             absl::StrFormat("embedded under %s at %04x: %d bytes",
                             KeyText(n.key), n.pos, r.buf[n.child_pos]),
             box.id});
        graph->edges.push_back({box.id, inner, "embedded"});
      } else if (n.child == ChildKind::kEmbedded) {
        // Not drawn, but its pointer children are counted below.
        boxes.push_back({hyperion::EmbeddedRegion(r.buf, n.child_pos), "", ""});
      }
    };
    if (!draw) {
      for (hyperion::RegionCursor it(r); !it.done(); it.Next()) {
        below(it.node());
      }
      continue;
    }
    StructureNode out{box.id, box.title, {}, box.id};
    if (b == 0) {
      std::string header;
      for (uint32_t i = 0; i < hyperion::kHeaderBytes; ++i) {
        absl::StrAppendFormat(&header, "%s%02x", i ? " " : "", c[i]);
      }
      out.fields.push_back({"0000 header", header});
    }
    // The dump's rows, a field each: jump table entries, then nodes.
    for (const hyperion::DumpRow& row : hyperion::RegionRows(r)) {
      out.fields.push_back(
          {absl::StrFormat("%04x  %s", row.pos, row.bytes), row.text});
      if (row.node.has_value()) below(*row.node);
    }
    graph->nodes.push_back(std::move(out));
  }
}

}  // namespace

absl::Status HyperionTrie::ExportStructure(const StructureOptions& options,
                                           StructureGraph* graph) const {
  if (options.has_from_key) {
    return absl::InvalidArgumentError(
        "hyperion draws from its root container only: use max_nodes or "
        "max_depth to draw part of it");
  }
  graph->kind = "hyperion";
  graph->summary.push_back({"keys", absl::StrCat(size_)});
  const size_t budget = std::max<size_t>(options.max_nodes, 1);
  uint64_t containers = 0, drawn = 0;
  std::deque<Pending> queue;
  if (!root_.IsNull()) queue.push_back({root_, 0, "", ""});
  while (!queue.empty()) {
    const Pending next = std::move(queue.front());
    queue.pop_front();
    ++containers;
    const bool draw = drawn < budget && (options.max_depth < 0 ||
                                         next.depth <= options.max_depth);
    const auto* c = static_cast<const uint8_t*>(mm_.Resolve(next.hp));
    const std::string id = ContainerId(next.hp);
    if (draw) {
      ++drawn;
      if (!next.parent_id.empty()) {
        graph->edges.push_back({next.parent_id, id, next.label});
      }
    }
    if (hyperion::IsSplit(c)) {
      ExportSplit(c, next, id, draw, &queue, graph);
      continue;
    }
    if (draw) {
      graph->clusters.push_back(
          {id,
           absl::StrFormat("container %#x: %d bytes, %d used, %d free",
                           next.hp.raw(), hyperion::ContainerSize(c),
                           hyperion::ContainerUsed(c),
                           hyperion::ContainerFree(c)),
           ""});
    }
    ExportContainer(c, next.hp, id, next.depth, draw, &queue, graph);
  }
  graph->summary.push_back({"containers", absl::StrCat(containers)});
  graph->nodes_omitted = containers - drawn;
  ExportMemory(mm_, graph);
  return absl::OkStatus();
}

}  // namespace kvlab::stage5
