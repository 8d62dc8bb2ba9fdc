#include "kvlab/registry.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kvlab/std_map_store.h"

namespace kvlab {
namespace {

using ::testing::HasSubstr;

StoreRegistry& TestRegistry() {
  static StoreRegistry* registry = [] {
    auto* r = new StoreRegistry();
    RegisterPeerStores(r);
    r->Add(StoreInfo{
        .name = "tunable",
        .description = "std_map with a checked option",
        .origin = "test",
        .options = {{"order", "3..64"}},
        .factory = [](const StoreOptions& options)
            -> absl::StatusOr<std::unique_ptr<KVStore>> {
          absl::StatusOr<int64_t> order = options.GetInt("order", 8, 3, 64);
          if (!order.ok()) return order.status();
          return std::make_unique<StdMapStore>();
        },
    });
    return r;
  }();
  return *registry;
}

TEST(RegistryTest, BuildsByName) {
  absl::StatusOr<std::unique_ptr<KVStore>> store =
      TestRegistry().Make("std_map");
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ((*store)->Name(), "std_map");
  EXPECT_TRUE(TestRegistry().Make("tunable:order=4").ok());
}

TEST(RegistryTest, UnknownNameListsTheStores) {
  absl::StatusOr<std::unique_ptr<KVStore>> store = TestRegistry().Make("nope");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(store.status().message(), HasSubstr("unknown store 'nope'"));
  EXPECT_THAT(store.status().message(), HasSubstr("stores: std_map, "));
  EXPECT_THAT(store.status().message(), HasSubstr(", tunable"));
}

TEST(RegistryTest, UnknownOptionListsTheOptions) {
  absl::Status status = TestRegistry().Make("tunable:colour=red").status();
  EXPECT_THAT(status.message(), HasSubstr("no option 'colour'"));
  EXPECT_THAT(status.message(), HasSubstr("order: 3..64"));
  EXPECT_THAT(TestRegistry().Make("std_map:order=3").status().message(),
              HasSubstr("its options: none"));
}

TEST(RegistryTest, BadOptionValueNamesTheSpec) {
  absl::Status status = TestRegistry().Make("tunable:order=1000").status();
  EXPECT_THAT(status.message(), HasSubstr("tunable:order=1000"));
  EXPECT_THAT(status.message(), HasSubstr("[3, 64]"));
}

}  // namespace
}  // namespace kvlab
