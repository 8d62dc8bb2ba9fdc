// Registration of the stage-1 stores.

#include "kvlab/stage1/stores.h"

#include <memory>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage1/avl_store.h"
#include "kvlab/stage1/bst_store.h"

namespace kvlab {
namespace {

class Stage1StoresTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterStage1Stores(&registry_); }
  StoreRegistry registry_;
};

TEST_F(Stage1StoresTest, RegistersBstAndAvl) {
  ASSERT_EQ(registry_.stores().size(), 2u);
  const StoreInfo* bst = registry_.Find("bst");
  const StoreInfo* avl = registry_.Find("avl");
  ASSERT_NE(bst, nullptr);
  ASSERT_NE(avl, nullptr);
  EXPECT_EQ(bst->origin, "stage1");
  EXPECT_EQ(avl->origin, "stage1");
  EXPECT_TRUE(bst->ordered);
  EXPECT_TRUE(avl->ordered);
  EXPECT_FALSE(bst->linear_nth);
  EXPECT_FALSE(avl->linear_nth);
  EXPECT_EQ(bst->sorted_input_cost, SortedInputCost::kQuadratic);
  EXPECT_EQ(avl->sorted_input_cost, SortedInputCost::kLogarithmic);
  EXPECT_TRUE(bst->options.empty());
  EXPECT_TRUE(avl->options.empty());
}

TEST_F(Stage1StoresTest, FactoriesBuildTheRightStores) {
  absl::StatusOr<std::unique_ptr<KVStore>> bst = registry_.Make("bst");
  ASSERT_TRUE(bst.ok()) << bst.status();
  EXPECT_NE(dynamic_cast<BstStore*>(bst->get()), nullptr);
  EXPECT_EQ((*bst)->Name(), "bst");
  EXPECT_FALSE((*bst)->IsThreadSafe());

  absl::StatusOr<std::unique_ptr<KVStore>> avl = registry_.Make("avl");
  ASSERT_TRUE(avl.ok()) << avl.status();
  EXPECT_NE(dynamic_cast<AvlStore*>(avl->get()), nullptr);
  EXPECT_EQ((*avl)->Name(), "avl");
  EXPECT_FALSE((*avl)->IsThreadSafe());
}

TEST_F(Stage1StoresTest, OptionsAreRejected) {
  EXPECT_FALSE(registry_.Make("bst:order=4").ok());
  EXPECT_FALSE(registry_.Make("avl:lock=global").ok());
}

}  // namespace
}  // namespace kvlab
