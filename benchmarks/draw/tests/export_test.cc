// KVStore::ExportStructure on every store that has one: the graph is well
// formed, respects the options, counts what it leaves out, and leaves the
// store as it was.

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"
#include "kvlab/structure.h"

namespace {

using kvlab::StructureGraph;
using kvlab::StructureOptions;

class ExportTest : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    auto store = kvlab::MakeStore(GetParam());
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    std::mt19937 random(7);
    for (int i = 0; i < 300; ++i) {
      std::string key;
      for (int len = 1 + random() % 6; len > 0; --len) {
        key.push_back(static_cast<char>('a' + random() % 4));
      }
      ASSERT_TRUE(store_->Put(key, std::to_string(i)).ok());
      keys_.insert(key);
    }
  }

  // Nodes outside clusters: the structure itself.
  static size_t StructureNodes(const StructureGraph& graph) {
    size_t n = 0;
    for (const auto& node : graph.nodes) n += node.cluster.empty();
    return n;
  }

  std::unique_ptr<kvlab::KVStore> store_;
  std::set<std::string> keys_;
};

TEST_P(ExportTest, GraphIsWellFormedAndStoreUnchanged) {
  StructureGraph graph;
  ASSERT_TRUE(store_->ExportStructure(StructureOptions(), &graph).ok());
  EXPECT_FALSE(graph.kind.empty());
  std::set<std::string> ids, clusters;
  for (const auto& cluster : graph.clusters) clusters.insert(cluster.id);
  for (const auto& node : graph.nodes) {
    EXPECT_TRUE(ids.insert(node.id).second) << "duplicate id " << node.id;
    if (!node.cluster.empty()) {
      EXPECT_TRUE(clusters.contains(node.cluster));
    }
  }
  for (const auto& edge : graph.edges) {
    EXPECT_TRUE(ids.contains(edge.from)) << edge.from;
    EXPECT_TRUE(ids.contains(edge.to)) << edge.to;
  }
  // Every node of the structure has at most one parent link.
  std::map<std::string, int> parents;
  for (const auto& edge : graph.edges) {
    if (edge.kind != kvlab::StructureEdge::Kind::kSibling) ++parents[edge.to];
  }
  for (const auto& [id, count] : parents) EXPECT_EQ(count, 1) << id;
  EXPECT_EQ(store_->Size(), keys_.size());
  EXPECT_TRUE(store_->CheckInvariants().ok());
  // The same store exports the same graph.
  StructureGraph again;
  ASSERT_TRUE(store_->ExportStructure(StructureOptions(), &again).ok());
  ASSERT_EQ(again.nodes.size(), graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    EXPECT_EQ(again.nodes[i].id, graph.nodes[i].id);
  }
}

TEST_P(ExportTest, MaxNodesAndDepthLeaveTheRestCounted) {
  StructureGraph all;
  StructureOptions options;
  options.max_nodes = 1000000;
  ASSERT_TRUE(store_->ExportStructure(options, &all).ok());
  EXPECT_EQ(all.nodes_omitted, 0u);
  const size_t total = StructureNodes(all);
  for (size_t max_nodes : {size_t{1}, size_t{7}}) {
    StructureGraph part;
    options.max_nodes = max_nodes;
    ASSERT_TRUE(store_->ExportStructure(options, &part).ok());
    EXPECT_EQ(StructureNodes(part), max_nodes);
    EXPECT_EQ(StructureNodes(part) + part.nodes_omitted, total);
  }
  StructureGraph top;
  options.max_nodes = 1000000;
  options.max_depth = 0;
  ASSERT_TRUE(store_->ExportStructure(options, &top).ok());
  EXPECT_EQ(StructureNodes(top), 1u);
  EXPECT_EQ(top.nodes_omitted, total - 1);
}

TEST_P(ExportTest, FromKeyStartsAtItsNode) {
  StructureOptions options;
  options.has_from_key = true;
  options.from_key = "zzz";  // never stored: the keys are of a to d
  StructureGraph graph;
  EXPECT_EQ(store_->ExportStructure(options, &graph).code(),
            absl::StatusCode::kNotFound);
  StructureGraph all, part;
  options.from_key = *keys_.begin();
  ASSERT_TRUE(store_->ExportStructure(StructureOptions(), &all).ok());
  ASSERT_TRUE(store_->ExportStructure(options, &part).ok());
  EXPECT_GE(StructureNodes(part), 1u);
  EXPECT_LT(StructureNodes(part), StructureNodes(all) + all.nodes_omitted);
}

INSTANTIATE_TEST_SUITE_P(Stores, ExportTest,
                         testing::Values("bst", "avl", "btree:order=4",
                                         "trie_array", "trie_list", "trie_bst",
                                         "ctrie", "ctrie:lock=global",
                                         "wormhole:leaf=16", "wormhole:leaf=4"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name;
                           for (const char* c = info.param; *c != '\0'; ++c) {
                             name += isalnum(*c) ? *c : '_';
                           }
                           return name;
                         });

// The wrappers draw what they wrap.
TEST(ExportWrappers, LockedAndDurableForward) {
  const std::string dir = testing::TempDir() + "/export_test_durable";
  for (const std::string& spec :
       {std::string("avl"), "durable:dir=" + dir + ":store=avl"}) {
    auto store = kvlab::MakeStore(spec);
    ASSERT_TRUE(store.ok()) << spec << ": " << store.status();
    std::unique_ptr<kvlab::KVStore> locked =
        kvlab::MakeThreadSafe(*std::move(store));
    ASSERT_TRUE(locked->Put("k", "v").ok());
    StructureGraph graph;
    ASSERT_TRUE(locked->ExportStructure(StructureOptions(), &graph).ok())
        << spec;
    EXPECT_EQ(graph.kind, "binary_tree") << spec;
    ASSERT_EQ(graph.nodes.size(), 1u) << spec;
    EXPECT_EQ(graph.nodes[0].title, "\"k\"") << spec;
  }
}

// Hyperion draws each container as a box (a cluster) of its bytes, and its
// embedded containers as boxes inside: the checks above count nodes outside
// clusters, so it has its own. Small containers are split here, so the
// drawing has split directories as well.
TEST(ExportHyperion, ContainersAreWellFormedAndCounted) {
  auto store = kvlab::MakeStore("hyperion:embed=16:split_above=128");
  ASSERT_TRUE(store.ok()) << store.status();
  std::mt19937 random(7);
  for (int i = 0; i < 2000; ++i) {
    std::string key;
    for (int len = 2 + random() % 6; len > 0; --len) {
      key.push_back(static_cast<char>('a' + random() % 8));
    }
    ASSERT_TRUE((*store)->Put(key, "v").ok());
  }
  const uint64_t size = (*store)->Size();
  StructureGraph graph;
  ASSERT_TRUE((*store)->ExportStructure(StructureOptions(), &graph).ok());
  EXPECT_EQ(graph.kind, "hyperion");
  std::set<std::string> ids, clusters;
  for (const auto& cluster : graph.clusters) {
    EXPECT_TRUE(clusters.insert(cluster.id).second) << cluster.id;
  }
  for (const auto& cluster : graph.clusters) {
    if (!cluster.parent.empty()) {
      EXPECT_TRUE(clusters.contains(cluster.parent)) << cluster.id;
    }
  }
  size_t containers = 0, splits = 0, embedded = 0;
  for (const auto& node : graph.nodes) {
    EXPECT_TRUE(ids.insert(node.id).second) << node.id;
    const bool split = node.title.starts_with("split directory");
    // A split directory is no container: it stands outside the boxes.
    EXPECT_EQ(node.cluster.empty(), split) << node.id;
    if (!split) {
      EXPECT_TRUE(clusters.contains(node.cluster)) << node.id;
    }
    containers += node.title.starts_with("container 0x") || split;
    splits += split;
    embedded += node.title.starts_with("embedded at ");
  }
  std::map<std::string, int> parents;
  for (const auto& edge : graph.edges) {
    EXPECT_TRUE(ids.contains(edge.from) && ids.contains(edge.to))
        << edge.from << " -> " << edge.to;
    ++parents[edge.to];
  }
  for (const auto& [id, count] : parents) EXPECT_EQ(count, 1) << id;
  // Every container and embedded container but the root has its parent.
  EXPECT_EQ(parents.size(), containers + embedded - 1);
  EXPECT_GT(splits, 0u);
  EXPECT_GT(embedded, 0u);
  EXPECT_EQ(graph.nodes_omitted, 0u);

  StructureOptions one;
  one.max_nodes = 1;
  StructureGraph part;
  ASSERT_TRUE((*store)->ExportStructure(one, &part).ok());
  EXPECT_EQ(part.nodes_omitted, containers - 1);
  StructureOptions top;
  top.max_depth = 0;
  StructureGraph root;
  ASSERT_TRUE((*store)->ExportStructure(top, &root).ok());
  EXPECT_EQ(root.nodes_omitted, containers - 1);
  one.has_from_key = true;
  StructureGraph refused;
  EXPECT_EQ((*store)->ExportStructure(one, &refused).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ((*store)->Size(), size);
  EXPECT_TRUE((*store)->CheckInvariants().ok());
}

// Every part of a node the dump annotates reaches the drawing's rows: jump
// table entries, jump successors and T-node tables, here on every
// container and T-node that can have them.
TEST(ExportHyperion, RowsShowJumpTablesAndSuccessors) {
  auto store = kvlab::MakeStore(
      "hyperion:jump_table=1:jump_table_min=0:jump_successor=0:"
      "tnode_table=0:tnode_table_keys=0");
  ASSERT_TRUE(store.ok()) << store.status();
  std::mt19937 random(7);
  for (int i = 0; i < 2000; ++i) {
    std::string key;
    for (int len = 2 + random() % 4; len > 0; --len) {
      key.push_back(static_cast<char>('a' + random() % 26));
    }
    ASSERT_TRUE((*store)->Put(key, "v").ok());
  }
  StructureGraph graph;
  ASSERT_TRUE((*store)->ExportStructure(StructureOptions(), &graph).ok());
  size_t table_entries = 0, successors = 0, tnode_tables = 0;
  for (const auto& node : graph.nodes) {
    for (const auto& field : node.fields) {
      table_entries += field.value.starts_with("jump table: T '");
      successors += field.value.find(", jump +") != std::string::npos;
      tnode_tables += field.value.find(", table [") != std::string::npos;
    }
  }
  EXPECT_GT(table_entries, 0u);
  EXPECT_GT(successors, 0u);
  EXPECT_GT(tnode_tables, 0u);
}

// ect draws one bucket's trie from its bits: one leaf per key of the
// bucket, in hashkey order, each holding its key; the codes of the inner
// nodes, read in pre-order, are the bucket's bits after its key count.
TEST(ExportEct, OneBucketsTrieDecodedFromItsBits) {
  auto made = kvlab::MakeStore("ect:sync=none:bucket_size=16:merge_pairs=1000");
  ASSERT_TRUE(made.ok()) << made.status();
  kvlab::KVStore& store = **made;
  StructureGraph empty;
  ASSERT_TRUE(store.ExportStructure(StructureOptions(), &empty).ok());
  EXPECT_TRUE(empty.nodes.empty());  // every pair still in the buffer
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) {
    keys.push_back("key" + std::to_string(i));
    ASSERT_TRUE(store.Put(keys.back(), std::to_string(i)).ok());
  }
  StructureOptions options;
  options.has_from_key = true;
  options.from_key = "key7";
  StructureGraph graph;
  ASSERT_TRUE(store.ExportStructure(options, &graph).ok());
  EXPECT_EQ(graph.kind, "ect");
  std::string bits, codes, bucket;
  for (const auto& field : graph.summary) {
    if (field.name == "bits") bits = field.value;
    if (field.name == "bucket") bucket = field.value;
  }
  // The leaves' keys: the bucket's keys, key7 among them, in hashkey order.
  std::vector<std::string> leaf_keys;
  std::set<std::string> ids;
  int leaves = 0;
  for (const auto& node : graph.nodes) {
    EXPECT_TRUE(ids.insert(node.id).second) << node.id;
    bool inner = false;
    for (const auto& field : node.fields) {
      if (field.name == "key") leaf_keys.push_back(field.value);
      if (field.name == "code") {
        codes += field.value;
        inner = true;
      }
    }
    leaves += !inner;
  }
  EXPECT_EQ(leaf_keys.size(), static_cast<size_t>(leaves));
  EXPECT_NE(std::find(leaf_keys.begin(), leaf_keys.end(), "\"key7\""),
            leaf_keys.end());
  EXPECT_NE(bucket.find(std::to_string(leaves) + " keys"), std::string::npos)
      << bucket;
  // A tree: one edge into every node but the root.
  EXPECT_EQ(graph.edges.size(), graph.nodes.size() - 1);
  // The codes in pre-order are the tail of the bucket's bits.
  ASSERT_FALSE(codes.empty());
  EXPECT_EQ(bits.substr(bits.size() - codes.size()), codes) << bits;
  // A key the store does not hold has no bucket to draw.
  options.from_key = "absent";
  EXPECT_EQ(store.ExportStructure(options, &graph).code(),
            absl::StatusCode::kNotFound);
  // Cuts: the root alone, or the first three nodes in pre-order.
  options.from_key = "key7";
  options.max_depth = 0;
  StructureGraph top;
  ASSERT_TRUE(store.ExportStructure(options, &top).ok());
  EXPECT_EQ(top.nodes.size(), 1u);
  EXPECT_EQ(top.nodes_omitted, graph.nodes.size() - 1);
  options.max_depth = -1;
  options.max_nodes = 3;
  StructureGraph three;
  ASSERT_TRUE(store.ExportStructure(options, &three).ok());
  EXPECT_EQ(three.nodes.size(), 3u);
  EXPECT_EQ(three.edges.size(), 2u);
  EXPECT_EQ(store.Size(), 1000u);
}

TEST(ExportDefault, StoresWithoutADrawingSaySo) {
  auto store = kvlab::MakeStore("std_map");
  ASSERT_TRUE(store.ok());
  StructureGraph graph;
  EXPECT_EQ((*store)->ExportStructure(StructureOptions(), &graph).code(),
            absl::StatusCode::kUnimplemented);
}

}  // namespace
