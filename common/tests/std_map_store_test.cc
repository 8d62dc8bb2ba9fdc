#include "kvlab/std_map_store.h"

#include "kvlab/testing/conformance.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Peers, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterPeerStores, {"std_map", "absl_btree"})),
                         testing::ConformanceCaseName);

TEST(StdMapStoreTest, NthWalksFromTheNearerEnd) {
  StdMapStore store;
  for (char c = 'a'; c <= 'z'; ++c) (void)store.Put(std::string(1, c), "");
  std::string key;
  ASSERT_TRUE(store.GetNth(2, &key, nullptr));
  EXPECT_EQ(key, "c");
  ASSERT_TRUE(store.GetNth(24, &key, nullptr));
  EXPECT_EQ(key, "y");
  EXPECT_FALSE(store.MemoryUsage().has_value());
}

}  // namespace
}  // namespace kvlab
