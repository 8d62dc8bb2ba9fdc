// The built-in registry (kvlab.h): every store name the contract promises is
// registered and builds a store of that name, and the default is one of them
// and meets the whole contract as the course API serves it.

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "kvlab/kvlab.h"
#include "kvlab/locked_store.h"
#include "kvlab/testing/conformance.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

// The default store built as kvStore builds it: MakeStore, then
// MakeThreadSafe.
INSTANTIATE_TEST_SUITE_P(
    CourseDefault, KVStoreConformanceTest,
    ::testing::Values(testing::ConformanceCase{
        .spec = std::string(DefaultStoreSpec()),
        .make = [] { return MakeThreadSafe(*MakeStore(DefaultStoreSpec())); },
    }),
    testing::ConformanceCaseName);

TEST(BuiltinStoresTest, EveryContractNameIsRegistered) {
  for (const char* name :
       {"bst", "avl", "btree", "trie_array", "trie_list", "trie_bst", "ctrie",
        "wormhole", "hyperion", "std_map", "absl_btree", "std_unordered_map",
        "absl_flat_hash_map", "judy", "judyl", "hattrie"}) {
    const StoreInfo* info = BuiltinStores().Find(name);
    ASSERT_NE(info, nullptr) << name;
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(name);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ((*store)->Name(), name);
  }
}

TEST(BuiltinStoresTest, DefaultStoreIsRegistered) {
  EXPECT_NE(BuiltinStores().Find(DefaultStoreSpec()), nullptr);
  EXPECT_TRUE(MakeStore(DefaultStoreSpec()).ok());
}

}  // namespace
}  // namespace kvlab
