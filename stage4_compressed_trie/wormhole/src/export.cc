// ExportStructure: the MetaTrie's nodes (one per prefix in the table) and
// the leaves they lead to, for kvlab-draw.

#include <deque>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "crc32c.h"
#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/structure.h"
#include "leaf.h"
#include "leaf_lock.h"
#include "meta_table.h"

namespace kvlab {

namespace wh = stage4::wormhole;

namespace {

std::string MetaId(std::string_view prefix) {
  return "meta:" + PrintableBytes(prefix);
}
std::string LeafId(std::string_view anchor) {
  return "leaf:" + PrintableBytes(anchor);
}

}  // namespace

absl::Status WormholeStore::ExportStructure(const StructureOptions& options,
                                            StructureGraph* graph) const {
  LockAllLeaves();
  try {
    const MetaTable& table = *current_.load();
    uint64_t leaf_count = 0;
    for (const Leaf* l = head_; l != nullptr; l = l->next.load()) ++leaf_count;
    graph->kind = "wormhole";
    graph->summary.push_back({"keys", absl::StrCat(size_.load())});
    graph->summary.push_back(
        {"leaves", absl::StrCat(leaf_count, " of at most ",
                                options_.leaf_capacity, " pairs")});
    graph->summary.push_back(
        {"table nodes",
         absl::StrCat(table.node_count(), " in each of 2 copies")});
    graph->summary.push_back(
        {"table slots", absl::StrCat(table.slot_count(), " x 64 bytes")});
    // Breadth first from the root (or from the leaf holding from_key): a
    // table node's children are its anchor's leaf, then its longer
    // prefixes in byte order.
    struct Item {
      const MetaNode* node;  // or null for a leaf
      const Leaf* leaf;
      int depth;
      std::string parent;
      std::string label;
    };
    std::deque<Item> queue;
    if (options.has_from_key) {
      const std::string& key = options.from_key;
      const Leaf* leaf = FindLeaf(table, key);
      if (wh::FindInLeaf(*leaf, key, wh::TagOf(wh::Crc32c(key))) < 0) {
        UnlockAllLeaves();
        return absl::NotFoundError("wormhole: from_key is not stored");
      }
      queue.push_back({nullptr, leaf, 0, "", ""});
    } else {
      queue.push_back({table.Find(0, {}), nullptr, 0, "", ""});
    }
    const size_t max_nodes = options.max_nodes == 0 ? 1 : options.max_nodes;
    std::set<const Leaf*> shown;
    size_t exported = 0;
    while (!queue.empty() && exported < max_nodes) {
      Item item = std::move(queue.front());
      queue.pop_front();
      ++exported;
      StructureNode out;
      if (item.node != nullptr) {
        const MetaNode* node = item.node;
        out.id = MetaId(node->prefix());
        out.title = node->size == 0 ? "(root)" : QuotedKey(node->prefix());
        out.fields.push_back({"lmost", QuotedKey(node->lmost->anchor)});
        out.fields.push_back({"rmost", QuotedKey(node->rmost->anchor)});
        if (options.max_depth < 0 || item.depth < options.max_depth) {
          if (node->anchor_leaf != nullptr) {
            queue.push_back(
                {nullptr, node->anchor_leaf, item.depth + 1, out.id, "anchor"});
          }
          for (int b = 0; b < 256; ++b) {
            if (!node->HasChild(static_cast<uint8_t>(b))) continue;
            const char byte = static_cast<char>(b);
            const MetaNode* child =
                table.Find(wh::Crc32cExtend(node->hash, &byte, 1),
                           node->prefix(), {&byte, 1});
            queue.push_back({child, nullptr, item.depth + 1, out.id,
                             PrintableBytes({&byte, 1})});
          }
        }
      } else {
        const Leaf* l = item.leaf;
        shown.insert(l);
        out.id = LeafId(l->anchor);
        out.title = "leaf " + QuotedKey(l->anchor);
        out.fields.push_back({"pairs", absl::StrCat(l->size)});
        for (uint32_t i = 0; i < l->size && i < 4; ++i) {
          out.fields.push_back(
              {absl::StrCat("key ", i), QuotedKey(l->PairByKey(i).key)});
        }
      }
      if (!item.parent.empty()) {
        graph->edges.push_back(
            {item.parent, out.id, item.label, StructureEdge::Kind::kChild});
      }
      graph->nodes.push_back(std::move(out));
    }
    for (const Leaf* l : shown) {
      const Leaf* next = l->next.load();
      if (next != nullptr && shown.count(next) != 0) {
        graph->edges.push_back({LeafId(l->anchor), LeafId(next->anchor), "next",
                                StructureEdge::Kind::kSibling});
      }
    }
    graph->nodes_omitted = table.node_count() + leaf_count - exported;
  } catch (...) {
    UnlockAllLeaves();
    throw;
  }
  UnlockAllLeaves();
  return absl::OkStatus();
}

}  // namespace kvlab
