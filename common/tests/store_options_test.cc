#include "kvlab/store_options.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kvlab {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(StoreSpecTest, NameOnly) {
  absl::StatusOr<StoreSpec> spec = ParseStoreSpec("avl");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->name, "avl");
  EXPECT_TRUE(spec->options.Keys().empty());
  EXPECT_EQ(spec->options.ToString(), "");
}

TEST(StoreSpecTest, NameWithOptions) {
  absl::StatusOr<StoreSpec> spec = ParseStoreSpec("ctrie:lock=node:alloc=pool");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->name, "ctrie");
  EXPECT_THAT(spec->options.Keys(), ElementsAre("alloc", "lock"));
  EXPECT_EQ(spec->options.ToString(), "alloc=pool:lock=node");
  EXPECT_TRUE(spec->options.Has("lock"));
  EXPECT_FALSE(spec->options.Has("order"));
}

TEST(StoreSpecTest, MalformedSpecsAreRefused) {
  EXPECT_FALSE(ParseStoreSpec("").ok());
  EXPECT_FALSE(ParseStoreSpec(":order=3").ok());
  EXPECT_THAT(ParseStoreSpec("btree:order").status().message(),
              HasSubstr("key=value"));
  EXPECT_THAT(ParseStoreSpec("btree:=3").status().message(),
              HasSubstr("key=value"));
  EXPECT_THAT(ParseStoreSpec("btree:order=3:order=4").status().message(),
              HasSubstr("twice"));
}

TEST(StoreOptionsTest, IntegerRangeIsChecked) {
  StoreOptions options = *StoreOptions::Parse("order=32:bad=x:neg=-5");
  EXPECT_EQ(*options.GetInt("order", 16, 3, 1024), 32);
  EXPECT_EQ(*options.GetInt("missing", 16, 3, 1024), 16);
  EXPECT_EQ(*options.GetInt("neg", 0, -10, 10), -5);
  absl::StatusOr<int64_t> too_big = options.GetInt("order", 16, 3, 8);
  EXPECT_FALSE(too_big.ok());
  EXPECT_THAT(too_big.status().message(), HasSubstr("[3, 8]"));
  EXPECT_FALSE(options.GetInt("bad", 0, 0, 10).ok());
}

TEST(StoreOptionsTest, ChoicesAreChecked) {
  StoreOptions options = *StoreOptions::Parse("lock=global");
  EXPECT_EQ(*options.GetChoice("lock", "node", {"global", "node"}), "global");
  EXPECT_EQ(*options.GetChoice("alloc", "pool", {"pool", "malloc"}), "pool");
  absl::StatusOr<std::string> wrong =
      options.GetChoice("lock", "node", {"node", "optimistic"});
  EXPECT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("node, optimistic"));
}

}  // namespace
}  // namespace kvlab
