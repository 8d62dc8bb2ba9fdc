#include "kvbench/skip_rule.h"

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"

namespace kvbench {
namespace {

kvlab::StoreInfo Store(std::string name, kvlab::SortedInputCost cost) {
  kvlab::StoreInfo info;
  info.name = std::move(name);
  info.sorted_input_cost = cost;
  return info;
}

TEST(SkipRuleTest, PredictsHalfNSquaredComparisonsPerPass) {
  const double per = kSecondsPerComparison;
  EXPECT_DOUBLE_EQ(PredictQuadraticSeconds(1'000'000, 1), 5e11 * per);
  EXPECT_DOUBLE_EQ(PredictQuadraticSeconds(1'000'000, 2), 1e12 * per);
  EXPECT_DOUBLE_EQ(PredictQuadraticSeconds(2000, 2), 4e6 * per);
  // Calibrated against a measured 234 s at n = 100,000 (load and get).
  EXPECT_GT(PredictQuadraticSeconds(100'000, 2), 100);
  EXPECT_LT(PredictQuadraticSeconds(100'000, 2), 500);
}

TEST(SkipRuleTest, SkipsQuadraticStoreOnSortedInputWithReason) {
  const kvlab::StoreInfo bst = Store("bst", kvlab::SortedInputCost::kQuadratic);
  std::optional<std::string> reason =
      SkipReason(bst, LoadOrder::kSorted, 1'000'000, 2, 120);
  ASSERT_TRUE(reason.has_value());
  EXPECT_NE(reason->find("skipped: sorted input makes bst a linked list"),
            std::string::npos)
      << *reason;
  EXPECT_NE(reason->find("~25000 s"), std::string::npos) << *reason;
  EXPECT_NE(reason->find("n^2/2 comparisons"), std::string::npos) << *reason;

  std::optional<std::string> load_only =
      SkipReason(bst, LoadOrder::kSorted, 1'000'000, 1, 120);
  ASSERT_TRUE(load_only.has_value());
  EXPECT_NE(load_only->find("~12500 s"), std::string::npos) << *load_only;
}

TEST(SkipRuleTest, RunsWhatIsCheapEnough) {
  const kvlab::StoreInfo bst = Store("bst", kvlab::SortedInputCost::kQuadratic);
  const kvlab::StoreInfo avl =
      Store("avl", kvlab::SortedInputCost::kLogarithmic);
  // n = 20,000: 4e8/2 * 2 passes * 25 ns = 10 s.
  EXPECT_FALSE(SkipReason(bst, LoadOrder::kSorted, 20'000, 2, 120));
  EXPECT_TRUE(SkipReason(bst, LoadOrder::kSorted, 20'000, 2, 5));
  EXPECT_TRUE(SkipReason(bst, LoadOrder::kSorted, 100'000, 2, 120));
  EXPECT_FALSE(SkipReason(bst, LoadOrder::kRandom, 100'000'000, 2, 120));
  EXPECT_FALSE(SkipReason(avl, LoadOrder::kSorted, 100'000'000, 2, 120));
}

TEST(SkipRuleTest, RegisteredStoresDeclareTheirCost) {
  const kvlab::StoreInfo* bst = kvlab::BuiltinStores().Find("bst");
  const kvlab::StoreInfo* avl = kvlab::BuiltinStores().Find("avl");
  ASSERT_NE(bst, nullptr);
  ASSERT_NE(avl, nullptr);
  EXPECT_TRUE(SkipReason(*bst, LoadOrder::kSorted, 1'000'000, 2, 120));
  EXPECT_FALSE(SkipReason(*avl, LoadOrder::kSorted, 1'000'000, 2, 120));
}

}  // namespace
}  // namespace kvbench
