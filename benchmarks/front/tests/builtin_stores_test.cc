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

// ect as MakeStore builds it: its buffer is hyperion, taken from the
// built-in registry (its own tests' registry has only std_map), in a
// temporary directory; unsynced, with merges every 1,000 writes so the
// suite's pairs also go through the data file.
INSTANTIATE_TEST_SUITE_P(
    Ect, KVStoreConformanceTest,
    ::testing::Values(testing::ConformanceCase{
        .spec = "ect:sync=none:merge_pairs=1000",
        .make = [] { return *MakeStore("ect:sync=none:merge_pairs=1000"); },
        .ordered = false,
    }),
    testing::ConformanceCaseName);

TEST(BuiltinStoresTest, EveryContractNameIsRegistered) {
  for (const char* name : {"bst", "avl", "btree", "trie_array", "trie_list",
                           "trie_bst", "ect", "ctrie", "wormhole", "hyperion",
                           "std_map", "absl_btree", "std_unordered_map",
                           "absl_flat_hash_map", "judy", "judyl", "hattrie"}) {
    const StoreInfo* info = BuiltinStores().Find(name);
    ASSERT_NE(info, nullptr) << name;
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(name);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ((*store)->Name(), name);
  }
}

// The registry tells a driver (kvbench) which stores need a directory.
TEST(BuiltinStoresTest, OnlyEctKeepsFiles) {
  const StoreInfo* info = BuiltinStores().Find("ect");
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->keeps_files);
  EXPECT_FALSE(info->ordered);
  for (const StoreInfo& other : BuiltinStores().stores()) {
    if (other.name != "ect") {
      EXPECT_FALSE(other.keeps_files) << other.name;
    }
  }
}

TEST(BuiltinStoresTest, EctRefusesABufferKindThatIsMissingOrUnordered) {
  EXPECT_TRUE(MakeStore("ect:buffer=avl").ok());
  for (const char* spec : {"ect:buffer=nosuchstore",
                           "ect:buffer=std_unordered_map", "ect:buffer=ect"}) {
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument)
        << spec;
  }
}

TEST(BuiltinStoresTest, DefaultStoreIsRegistered) {
  EXPECT_NE(BuiltinStores().Find(DefaultStoreSpec()), nullptr);
  EXPECT_TRUE(MakeStore(DefaultStoreSpec()).ok());
}

}  // namespace
}  // namespace kvlab
