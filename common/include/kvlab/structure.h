// A store's structure as a plain graph, for drawing it (kvlab-draw).
//
// A store that can show its inside implements KVStore::ExportStructure: it
// fills a StructureGraph with its nodes (each a title and labelled fields),
// the edges between them, and clusters that group nodes (a nested container,
// a node pool). The graph knows nothing of how it is drawn; the tool turns
// it into Graphviz and compares consecutive graphs to mark what a step
// changed, which is why a node's id must name the same node from one export
// to the next (a key, a prefix, an address that stays put).

#ifndef KVLAB_STRUCTURE_H_
#define KVLAB_STRUCTURE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvlab {

// How much of a store to export. A large structure is exported in part: the
// subtree under one node, a few levels of it, at most so many nodes.
struct StructureOptions {
  // Nodes exported at most, breadth first from the start node (0 counts
  // as 1).
  size_t max_nodes = 200;
  // Levels exported below the start node; -1 for all.
  int max_depth = -1;
  // If set, the export starts at the node that holds this key (a tree) or
  // stands for this prefix (a trie) instead of the root. A store in which
  // no node matches returns NotFound.
  bool has_from_key = false;
  std::string from_key;
};

struct StructureField {
  std::string name;
  std::string value;
};

struct StructureNode {
  std::string id;     // unique in the graph, stable across exports
  std::string title;  // the first line, e.g. the key
  std::vector<StructureField> fields;
  std::string cluster;  // id of the enclosing cluster; empty: none
};

struct StructureEdge {
  enum class Kind {
    kChild,    // parent to child: drawn solid, the child a level lower
    kSibling,  // a link along one level (a sibling list, a free list):
               // drawn dashed, leaving the levels as they are
    kLayout,   // not a pointer: only places `to` under `from` (a child
               // reached through its siblings); not drawn
  };
  std::string from;
  std::string to;
  std::string label;
  Kind kind = Kind::kChild;
};

struct StructureCluster {
  std::string id;
  std::string label;
  std::string parent;  // enclosing cluster id; empty: top level
};

struct StructureGraph {
  // The store family ("binary_tree", "btree", "trie", "ctrie", ...): tells
  // the tool what to call a change, e.g. a new B-tree node is a split.
  std::string kind;
  // Facts about the whole store (size, height, bytes, pool occupancy).
  std::vector<StructureField> summary;
  std::vector<StructureNode> nodes;
  std::vector<StructureEdge> edges;
  std::vector<StructureCluster> clusters;
  // Nodes of the store that are not in `nodes` (left out by the options).
  uint64_t nodes_omitted = 0;
};

// `bytes` made printable for a label: C escapes for quotes, backslashes and
// bytes outside printable ASCII ("a\x00b").
std::string PrintableBytes(std::string_view bytes);

// PrintableBytes of at most the first `max_bytes` bytes, then "..." if
// there were more: a value shown in a node without swamping it.
std::string PrintablePrefix(std::string_view bytes, size_t max_bytes = 16);

// A key drawn as a quoted, escaped string: "\"ab\"".
std::string QuotedKey(std::string_view key);

}  // namespace kvlab

#endif  // KVLAB_STRUCTURE_H_
