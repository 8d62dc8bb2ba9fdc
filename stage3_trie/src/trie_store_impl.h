// TrieStoreImpl<Layout>: the one trie skeleton the three stores share. The
// algorithms live here; a Layout only holds a node's children. It provides:
//
//   using Node = ...;                        derived from NodeHeader
//   size_t NodeBytes() const;                the same for every node
//   absl::Status ValidateKey(key) const;     the keys it can branch on
//   Node* NewNode(byte, bytes*) / void FreeNode(node, bytes*)
//   Node* Child(parent, byte) const;         the child labelled byte, or null
//   Node* FirstChildAtLeast(parent, byte);   smallest child byte >= byte
//   Node* NextChild(parent, child) const;    the next child in byte order
//   Node* ChildOrAdd(parent, byte, bytes*);  find, or add an empty child
//   void RemoveChild(parent, child, bytes*); unlink and free a leaf child
//   absl::Status CheckChildren(parent, int* children) const;
//   void ExportChildren(node, id_of, out, edges) const;  how it holds the
//                                            children, for ExportStructure
//
// Every walk is iterative: a key may be 1,024 bytes, so a trie 1,025 nodes
// deep, which recursion would handle but an explicit path states plainly.

#ifndef KVLAB_STAGE3_SRC_TRIE_STORE_IMPL_H_
#define KVLAB_STAGE3_SRC_TRIE_STORE_IMPL_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "kvlab/stage3/trie_store.h"
#include "trie_node.h"

namespace kvlab::stage3 {

template <class Layout>
class TrieStoreImpl final : public TrieStore {
 public:
  using Node = typename Layout::Node;

  TrieStoreImpl(std::string_view name, Layout layout)
      : layout_(std::move(layout)), name_(name) {
    root_ = layout_.NewNode(0, &bytes_);
  }
  ~TrieStoreImpl() override;

  absl::Status ValidateKey(std::string_view key) const override {
    return layout_.ValidateKey(key);
  }
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override { return root_->count; }
  std::string_view Name() const override { return name_; }
  std::optional<size_t> MemoryUsage() const override {
    return sizeof(*this) + bytes_;
  }
  size_t NodeBytes() const override { return layout_.NodeBytes(); }
  TrieShape Shape() const override;
  absl::Status CheckInvariants() const override;
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  // Nodes from the root down to some node; course keys (<= 64 bytes) never
  // leave the inline buffer.
  using Path = absl::InlinedVector<Node*, 72>;

  static uint8_t Byte(char c) { return static_cast<uint8_t>(c); }

  // Fills `path` with the nodes from the root to the one holding the n-th
  // key (n < Size()), appending its bytes to `*key` if non-null.
  void SelectPath(uint64_t n, Path* path, std::string* key) const;

  // Removes the key of the last node of `path` (it has one): clears the
  // value, decrements every count on the path, and prunes.
  void RemoveKeyAt(Path* path);

  // Frees the nodes at the end of `path` that hold no key, bottom-up, and
  // pops them.
  void PruneEmpty(Path* path);

  Layout layout_;
  std::string_view name_;
  Node* root_ = nullptr;  // depth 0, holds the empty key; never null
  size_t bytes_ = 0;      // nodes plus value bytes
};

template <class Layout>
TrieStoreImpl<Layout>::~TrieStoreImpl() {
  // Children are collected before their parent is freed; a BST or list
  // child's sibling links live in the siblings themselves, still alive.
  std::vector<Node*> pending = {root_};
  while (!pending.empty()) {
    Node* node = pending.back();
    pending.pop_back();
    for (Node* child = layout_.FirstChildAtLeast(node, 0); child != nullptr;
         child = layout_.NextChild(node, child)) {
      pending.push_back(child);
    }
    ClearValue(node, &bytes_);
    layout_.FreeNode(node, &bytes_);
  }
}

template <class Layout>
bool TrieStoreImpl<Layout>::PutImpl(std::string_view key,
                                    std::string_view value) {
  // handout: TrieStoreImpl::PutImpl -> #1-a-trie-stores-keys-as-paths
  Path path;
  // Room for the whole path first: a push_back that failed after its node
  // was added would leave that node out of the pruning below.
  path.reserve(key.size() + 1);
  path.push_back(root_);
  try {
    Node* node = root_;
    for (char c : key) {
      node = layout_.ChildOrAdd(node, Byte(c), &bytes_);
      path.push_back(node);
    }
    if (node->has_value) {
      SetValue(node, value, &bytes_);
      return true;  // same key count: no count changes
    }
    CheckRoomForOneMore(Size());
    SetValue(node, value, &bytes_);
  } catch (...) {
    PruneEmpty(&path);  // out of memory: drop the nodes just added
    throw;
  }
  for (Node* node : path) ++node->count;
  return false;
  // handout: end
}

template <class Layout>
bool TrieStoreImpl<Layout>::GetImpl(std::string_view key,
                                    std::string* value) const {
  // handout: TrieStoreImpl::GetImpl -> #1-a-trie-stores-keys-as-paths
  const Node* node = root_;
  for (char c : key) {
    node = layout_.Child(node, Byte(c));
    if (node == nullptr) return false;
  }
  if (!node->has_value) return false;
  if (value != nullptr) value->assign(ValueOf(node));
  return true;
  // handout: end
}

template <class Layout>
bool TrieStoreImpl<Layout>::DeleteImpl(std::string_view key) {
  // handout: TrieStoreImpl::DeleteImpl -> #delete-prunes
  Path path = {root_};
  for (char c : key) {
    Node* child = layout_.Child(path.back(), Byte(c));
    if (child == nullptr) return false;
    path.push_back(child);
  }
  if (!path.back()->has_value) return false;
  RemoveKeyAt(&path);
  return true;
  // handout: end
}

template <class Layout>
void TrieStoreImpl<Layout>::SelectPath(uint64_t n, Path* path,
                                       std::string* key) const {
  // handout: TrieStoreImpl::SelectPath -> #1-a-trie-stores-keys-as-paths
  Node* node = root_;
  path->push_back(node);
  while (true) {
    // In key order a node's own key comes first (it is a prefix of all the
    // keys below), then its children's subtrees in byte order.
    if (node->has_value) {
      if (n == 0) return;
      --n;
    }
    Node* child = layout_.FirstChildAtLeast(node, 0);
    while (n >= child->count) {  // n < node's count, so a child holds it
      n -= child->count;
      child = layout_.NextChild(node, child);
    }
    node = child;
    path->push_back(node);
    if (key != nullptr) key->push_back(static_cast<char>(node->byte));
  }
  // handout: end
}

template <class Layout>
bool TrieStoreImpl<Layout>::GetNth(uint64_t n, std::string* key,
                                   std::string* value) const {
  if (n >= Size()) return false;
  Path path;
  if (key != nullptr) key->clear();
  SelectPath(n, &path, key);
  if (value != nullptr) value->assign(ValueOf(path.back()));
  return true;
}

template <class Layout>
bool TrieStoreImpl<Layout>::DeleteNth(uint64_t n) {
  if (n >= Size()) return false;
  Path path;
  SelectPath(n, &path, nullptr);
  RemoveKeyAt(&path);
  return true;
}

template <class Layout>
void TrieStoreImpl<Layout>::RemoveKeyAt(Path* path) {
  // handout: TrieStoreImpl::RemoveKeyAt -> #delete-prunes
  ClearValue(path->back(), &bytes_);
  for (Node* node : *path) --node->count;
  PruneEmpty(path);
  // handout: end
}

template <class Layout>
void TrieStoreImpl<Layout>::PruneEmpty(Path* path) {
  // handout: TrieStoreImpl::PruneEmpty -> #delete-prunes
  // A node with count 0 has no value and, by the invariant, no children.
  while (path->size() > 1 && path->back()->count == 0) {
    Node* leaf = path->back();
    path->pop_back();
    layout_.RemoveChild(path->back(), leaf, &bytes_);
  }
  // handout: end
}

template <class Layout>
uint64_t TrieStoreImpl<Layout>::Scan(std::string_view start,
                                     ScanVisitor visitor) const {
  // `path` runs from the root to the current node and `key` spells the
  // path. The walk is a pre-order one (a node's key precedes its
  // children's), started at the first node whose subtree is >= start.
  absl::InlinedVector<const Node*, 72> path = {root_};
  std::string key;
  const Node* next = nullptr;  // the next node to enter, or null to climb
  size_t depth = 0;
  while (true) {
    const Node* node = path.back();
    if (depth == start.size()) {  // this whole subtree is >= start
      path.pop_back();
      if (depth > 0) key.pop_back();
      next = node;
      break;
    }
    const uint8_t byte = Byte(start[depth]);
    const Node* child = layout_.FirstChildAtLeast(node, byte);
    if (child == nullptr || child->byte != byte) {
      next = child;  // all of child's subtree is > start; null: climb
      break;
    }
    path.push_back(child);
    key.push_back(static_cast<char>(byte));
    ++depth;
  }

  uint64_t visited = 0;
  while (true) {
    if (next != nullptr) {
      path.push_back(next);
      if (path.size() > 1) key.push_back(static_cast<char>(next->byte));
      if (next->has_value) {
        ++visited;
        if (!visitor(key, ValueOf(next))) return visited;
      }
      next = layout_.FirstChildAtLeast(next, 0);
      continue;
    }
    // The subtree of path.back() is done: move on to its next sibling, or
    // climb further if it was the last.
    while (next == nullptr) {
      if (path.size() <= 1) return visited;
      const Node* done = path.back();
      path.pop_back();
      key.pop_back();
      next = layout_.NextChild(path.back(), done);
    }
  }
}

template <class Layout>
TrieShape TrieStoreImpl<Layout>::Shape() const {
  TrieShape shape;
  shape.node_bytes = layout_.NodeBytes();
  shape.fanout_histogram.assign(257, 0);
  std::vector<std::pair<const Node*, size_t>> pending = {{root_, 0}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (shape.nodes_at_depth.size() <= depth) {
      shape.nodes_at_depth.resize(depth + 1);
      shape.children_at_depth.resize(depth + 1);
      shape.values_at_depth.resize(depth + 1);
    }
    int children = 0;
    for (const Node* child = layout_.FirstChildAtLeast(node, 0);
         child != nullptr; child = layout_.NextChild(node, child)) {
      pending.push_back({child, depth + 1});
      ++children;
    }
    ++shape.nodes;
    ++shape.nodes_at_depth[depth];
    shape.children_at_depth[depth] += children;
    shape.values_at_depth[depth] += node->has_value;
    ++shape.fanout_histogram[children];
  }
  return shape;
}

template <class Layout>
absl::Status TrieStoreImpl<Layout>::CheckInvariants() const {
  uint64_t nodes = 0;
  size_t value_bytes = 0;
  std::vector<const Node*> pending = {root_};
  while (!pending.empty()) {
    const Node* node = pending.back();
    pending.pop_back();
    ++nodes;
    const std::string where =
        absl::StrCat("node with byte ", static_cast<int>(node->byte), ": ");
    if (!node->has_value && (node->value_size != 0 || node->value != nullptr)) {
      return absl::InternalError(where + "a value but no has_value");
    }
    if ((node->value == nullptr) != (node->value_size == 0)) {
      return absl::InternalError(where + "value pointer and size disagree");
    }
    value_bytes += node->value_size;
    int structural = 0;
    if (absl::Status s = layout_.CheckChildren(node, &structural); !s.ok()) {
      return s;
    }
    int iterated = 0;
    int previous = -1;
    uint64_t count = node->has_value;
    for (const Node* child = layout_.FirstChildAtLeast(node, 0);
         child != nullptr; child = layout_.NextChild(node, child)) {
      if (child->byte <= previous) {
        return absl::InternalError(where + "children out of order");
      }
      if (layout_.Child(node, child->byte) != child) {
        return absl::InternalError(absl::StrCat(where, "lookup of child byte ",
                                                static_cast<int>(child->byte),
                                                " fails"));
      }
      if (child->count == 0) {
        return absl::InternalError(where + "an empty child was not pruned");
      }
      previous = child->byte;
      count += child->count;
      ++iterated;
      pending.push_back(child);
    }
    if (iterated != structural) {
      return absl::InternalError(absl::StrCat(where, "iteration finds ",
                                              iterated, " children, the ",
                                              "container holds ", structural));
    }
    if (count != node->count) {
      return absl::InternalError(absl::StrCat(where, "count ", node->count,
                                              " but subtree holds ", count));
    }
  }
  const size_t expected = nodes * layout_.NodeBytes() + value_bytes;
  if (expected != bytes_) {
    return absl::InternalError(absl::StrCat("allocated bytes are ", bytes_,
                                            ", the nodes and values need ",
                                            expected));
  }
  return absl::OkStatus();
}

// One exported node per trie node, identified by the prefix it stands for,
// breadth first from the root or from options.from_key's node; the layout
// adds how the node holds its children (Layout::ExportChildren).
template <class Layout>
absl::Status TrieStoreImpl<Layout>::ExportStructure(
    const StructureOptions& options, StructureGraph* graph) const {
  graph->kind = "trie";
  const TrieShape shape = Shape();
  graph->summary.push_back({"keys", absl::StrCat(Size())});
  graph->summary.push_back({"nodes", absl::StrCat(shape.nodes)});
  graph->summary.push_back(
      {"node bytes", absl::StrCat(shape.nodes, " x ", layout_.NodeBytes(),
                                  " = ", shape.nodes * layout_.NodeBytes())});
  const Node* start = root_;
  std::string prefix;
  if (options.has_from_key) {
    for (char c : options.from_key) {
      start = layout_.Child(start, Byte(c));
      if (start == nullptr) {
        return absl::NotFoundError(absl::StrCat(
            "no node stands for the prefix ", QuotedKey(options.from_key)));
      }
    }
    prefix = options.from_key;
  }
  const size_t budget = options.max_nodes < 1 ? 1 : options.max_nodes;
  std::vector<StructureEdge> edges;
  std::vector<std::pair<const Node*, std::string>> level = {{start, prefix}};
  for (int depth = 0; !level.empty(); ++depth) {
    std::vector<std::pair<const Node*, std::string>> below;
    for (auto& [node, node_prefix] : level) {
      if (graph->nodes.size() == budget ||
          (options.max_depth >= 0 && depth > options.max_depth)) {
        break;
      }
      StructureNode out;
      out.id = absl::StrCat("prefix:", PrintableBytes(node_prefix));
      out.title = node == root_ ? std::string("root") : QuotedKey(node_prefix);
      out.fields.push_back({"count", absl::StrCat(node->count)});
      if (node->has_value) {
        out.fields.push_back({"value", PrintablePrefix(ValueOf(node))});
      }
      // A named copy of the binding: clang before 16 cannot capture a
      // structured binding in a lambda.
      const std::string& prefix_of_node = node_prefix;
      layout_.ExportChildren(
          node,
          [&](const Node* child) {
            return absl::StrCat(
                "prefix:", PrintableBytes(prefix_of_node),
                PrintableBytes(std::string_view(
                    reinterpret_cast<const char*>(&child->byte), 1)));
          },
          &out, &edges);
      for (const Node* child = layout_.FirstChildAtLeast(node, 0);
           child != nullptr; child = layout_.NextChild(node, child)) {
        below.emplace_back(child, node_prefix + static_cast<char>(child->byte));
      }
      graph->nodes.push_back(std::move(out));
    }
    level = std::move(below);
  }
  graph->nodes_omitted = shape.nodes - graph->nodes.size();
  // Only the links between exported nodes.
  absl::flat_hash_set<std::string> exported;
  for (const StructureNode& node : graph->nodes) exported.insert(node.id);
  for (StructureEdge& edge : edges) {
    if (exported.contains(edge.from) && exported.contains(edge.to)) {
      graph->edges.push_back(std::move(edge));
    }
  }
  return absl::OkStatus();
}

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_SRC_TRIE_STORE_IMPL_H_
