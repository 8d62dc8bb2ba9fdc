// CTrieStore::ExportStructure: the trie with its compressed edges, and the
// node pool's size classes and free lists beside it.

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/structure.h"
#include "kvlab/structure_export.h"
#include "node.h"
#include "node_pool.h"
#include "with_write_lock.h"

namespace kvlab {
namespace {

// Free-list blocks named per list before the rest are only counted.
constexpr size_t kFreeBlocksShown = 4;

// A node is named by the key bytes that lead to it up to its branch byte,
// its own label excluded: a write that splits or shortens the label keeps
// the name, though copy on write moves the node to a new block.
std::string IdOf(std::string_view path) {
  return absl::StrCat("path:", PrintableBytes(path));
}

void ExportPool(const stage4::NodePool& pool, StructureGraph* graph) {
  graph->clusters.push_back(
      {"pool",
       absl::StrCat("node pool: ", pool.uses_slabs() ? "slabs" : "malloc", ", ",
                    pool.Slabs(), " slab(s), ", pool.BytesLive(), " B live"),
       ""});
  StructureNode classes{"pool:classes", "size classes", {}, "pool"};
  for (const stage4::NodePool::ClassStats& c : pool.Classes()) {
    classes.fields.push_back(
        {absl::StrCat(c.object_bytes, " B"),
         absl::StrCat("live ", c.live, ", free ", c.free)});
  }
  graph->nodes.push_back(std::move(classes));
  for (const stage4::NodePool::FreeList& list :
       pool.FreeLists(kFreeBlocksShown)) {
    StructureNode out;
    out.id = absl::StrCat("pool:free:", list.object_bytes,
                          list.aligned ? ":8" : ":4");
    out.title = absl::StrCat("free list ", list.object_bytes, " B",
                             list.aligned ? " (8-aligned)" : "");
    out.cluster = "pool";
    out.fields.push_back({"blocks", absl::StrCat(list.blocks)});
    std::string chain = absl::StrJoin(list.first, " -> ");
    if (list.blocks > list.first.size()) {
      absl::StrAppend(&chain, " -> (", list.blocks - list.first.size(),
                      " more)");
    }
    out.fields.push_back({"head", chain});
    graph->edges.push_back(
        {"pool:classes", out.id, "", StructureEdge::Kind::kLayout});
    graph->nodes.push_back(std::move(out));
  }
}

}  // namespace

absl::Status CTrieStore::ExportStructure(const StructureOptions& options,
                                         StructureGraph* graph) const {
  return const_cast<CTrieStore*>(this)->WithWriteLock([&]() -> absl::Status {
    graph->kind = "ctrie";
    uint64_t nodes = 0;
    std::vector<const Node*> pending = {root_.load()};
    while (!pending.empty()) {
      const Node* x = pending.back();
      pending.pop_back();
      ++nodes;
      for (size_t i = 0; i < stage4::NumChildren(x); ++i) {
        pending.push_back(stage4::LoadChild(x, i));
      }
    }
    graph->summary.push_back({"keys", absl::StrCat(size_.load())});
    graph->summary.push_back({"nodes", absl::StrCat(nodes)});
    graph->summary.push_back(
        {"pool", absl::StrCat(pool_->LiveObjects(), " live objects, ",
                              pool_->FreeObjects(), " free")});

    // The start node: the root, or the first node whose path (labels
    // included) reaches the end of options.from_key.
    struct Item {
      const Node* node;
      std::string path;  // key bytes up to the branch byte, label excluded
    };
    Item start{root_.load(), ""};
    if (options.has_from_key) {
      std::string_view rest = options.from_key;
      while (true) {
        const std::string_view label = stage4::Label(start.node);
        if (label.substr(0, rest.size()) == rest) break;  // ends in here
        if (rest.substr(0, label.size()) != label) {
          start.node = nullptr;
          break;
        }
        rest.remove_prefix(label.size());
        const int i =
            stage4::FindChild(start.node, static_cast<uint8_t>(rest[0]),
                              stage4::FindMethod::kBinary);
        if (i < 0) {
          start.node = nullptr;
          break;
        }
        start.path.append(label).push_back(rest[0]);
        rest.remove_prefix(1);
        start.node = stage4::LoadChild(start.node, i);
      }
      if (start.node == nullptr) {
        return absl::NotFoundError(absl::StrCat(
            "no node stands for the prefix ", QuotedKey(options.from_key)));
      }
    }
    ExportBreadthFirst(
        std::move(start), options, graph,
        [this](const Item& item, StructureNode* out,
               std::vector<StructureChild<Item>>* children) {
          const Node* x = item.node;
          const std::string_view label = stage4::Label(x);
          const std::string full = item.path + std::string(label);
          out->id = IdOf(item.path);
          // The title shows the name and the label after it: "te" + "a".
          out->title = x == root_.load() ? "root" : QuotedKey(item.path);
          if (!label.empty()) {
            absl::StrAppend(&out->title, " + ", QuotedKey(label));
          }
          out->fields.push_back({"edge label", QuotedKey(label)});
          if (stage4::HasValue(x)) {
            out->fields.push_back({"value", PrintablePrefix(stage4::Value(x))});
          }
          out->fields.push_back(
              {"block",
               absl::StrCat(stage4::NodeBytes(x), " B at ", pool_->Where(x))});
          for (size_t i = 0; i < stage4::NumChildren(x); ++i) {
            const char branch = static_cast<char>(stage4::BranchArray(x)[i]);
            children->push_back(
                {Item{stage4::LoadChild(x, i), full + branch},
                 absl::StrCat(QuotedKey(std::string_view(&branch, 1)),
                              " count ", stage4::LoadCount(x, i))});
          }
        });
    graph->nodes_omitted = nodes - graph->nodes.size();
    ExportPool(*pool_, graph);
    return absl::OkStatus();
  });
}

}  // namespace kvlab
