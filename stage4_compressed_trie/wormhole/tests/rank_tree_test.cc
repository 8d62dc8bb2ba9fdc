// RankTree: Find and KeysBefore against a plain vector of counts, through
// inserts after any node, removals and count changes.

#include "rank_tree.h"

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage4::wormhole {
namespace {

TEST(WormholeRankTreeTest, MatchesAVectorOfCounts) {
  std::vector<std::unique_ptr<RankNode>> pool;
  pool.push_back(std::make_unique<RankNode>());
  RankTree tree(pool[0].get());
  std::vector<RankNode*> order{pool[0].get()};
  std::mt19937_64 rng(7);
  for (int step = 0; step < 3000; ++step) {
    const size_t at = rng() % order.size();
    const int op = static_cast<int>(rng() % 3);
    if (op == 0 || order.size() < 3) {
      pool.push_back(std::make_unique<RankNode>());
      const uint64_t count = rng() % 5;
      tree.InsertAfter(order[at], pool.back().get(), count);
      order.insert(order.begin() + static_cast<ptrdiff_t>(at) + 1,
                   pool.back().get());
    } else if (op == 1 && at > 0) {
      tree.Remove(order[at]);
      order.erase(order.begin() + static_cast<ptrdiff_t>(at));
    } else {
      const int64_t delta = order[at]->count > 0 && rng() % 2 ? -1 : 2;
      tree.Add(order[at], delta);
    }
    uint64_t before = 0;
    for (RankNode* n : order) {
      ASSERT_EQ(tree.KeysBefore(n), before) << "step " << step;
      for (uint64_t k = 0; k < n->count; ++k) {
        uint64_t offset = 99;
        ASSERT_EQ(tree.Find(before + k, &offset), n) << "step " << step;
        ASSERT_EQ(offset, k);
      }
      before += n->count;
    }
    ASSERT_EQ(tree.Total(), before);
    size_t i = 0;
    bool in_order = true;
    uint64_t nodes = 0;
    ASSERT_TRUE(tree.Check(&nodes,
                           [&](const RankNode* n) {
                             in_order =
                                 in_order && i < order.size() && order[i] == n;
                             ++i;
                           })
                    .ok());
    ASSERT_TRUE(in_order);
    ASSERT_EQ(nodes, order.size());
  }
}

}  // namespace
}  // namespace kvlab::stage4::wormhole
