#include "kvlab/structure_export.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab {
namespace {

// A complete binary tree of `n` nodes numbered 1..n: node i's children are
// 2i and 2i+1.
size_t Export(int n, const StructureOptions& options, StructureGraph* graph) {
  return ExportBreadthFirst(
      1, options, graph,
      [n](const int& i, StructureNode* node,
          std::vector<StructureChild<int>>* children) {
        node->id = std::to_string(i);
        for (int child : {2 * i, 2 * i + 1}) {
          if (child <= n) {
            children->push_back({child, child % 2 == 0 ? "L" : "R"});
          }
        }
      });
}

std::vector<std::string> Ids(const StructureGraph& graph) {
  std::vector<std::string> ids;
  for (const StructureNode& node : graph.nodes) ids.push_back(node.id);
  return ids;
}

TEST(ExportBreadthFirstTest, VisitsLevelByLevelWithLabelledEdges) {
  StructureGraph graph;
  EXPECT_EQ(Export(6, StructureOptions{}, &graph), 6u);
  EXPECT_EQ(Ids(graph),
            (std::vector<std::string>{"1", "2", "3", "4", "5", "6"}));
  ASSERT_EQ(graph.edges.size(), 5u);
  EXPECT_EQ(graph.edges[0].from, "1");
  EXPECT_EQ(graph.edges[0].to, "2");
  EXPECT_EQ(graph.edges[0].label, "L");
  EXPECT_EQ(graph.edges[4].from, "3");
  EXPECT_EQ(graph.edges[4].to, "6");
  EXPECT_EQ(graph.edges[4].label, "L");
}

TEST(ExportBreadthFirstTest, StopsAtTheNodeBudget) {
  StructureOptions options;
  options.max_nodes = 4;
  StructureGraph graph;
  EXPECT_EQ(Export(15, options, &graph), 4u);
  EXPECT_EQ(Ids(graph), (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(graph.edges.size(), 3u);  // no edge to a node left out
}

TEST(ExportBreadthFirstTest, ABudgetOfZeroExportsTheStartNode) {
  StructureOptions options;
  options.max_nodes = 0;
  StructureGraph graph;
  EXPECT_EQ(Export(15, options, &graph), 1u);
  EXPECT_TRUE(graph.edges.empty());
}

TEST(ExportBreadthFirstTest, StopsBelowTheDepthLimit) {
  StructureOptions options;
  options.max_depth = 1;
  StructureGraph graph;
  EXPECT_EQ(Export(15, options, &graph), 3u);
  options.max_depth = 0;
  StructureGraph root_only;
  EXPECT_EQ(Export(15, options, &root_only), 1u);
}

TEST(ExportBreadthFirstTest, AppendsToWhatTheGraphHolds) {
  StructureGraph graph;
  graph.nodes.push_back(StructureNode{"pool", "a pool", {}, ""});
  EXPECT_EQ(Export(3, StructureOptions{}, &graph), 3u);
  EXPECT_EQ(Ids(graph), (std::vector<std::string>{"pool", "1", "2", "3"}));
}

}  // namespace
}  // namespace kvlab
