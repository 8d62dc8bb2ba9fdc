// Registration of `ctrie` and its options.

#include "kvlab/stage4/stores.h"

#include <memory>

#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage4/ctrie_store.h"

namespace kvlab {
namespace {

class Stage4StoresTest : public ::testing::Test {
 protected:
  void SetUp() override { RegisterStage4Stores(&registry_); }

  const CTrieStore& Build(std::string_view spec) {
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry_.Make(spec);
    EXPECT_TRUE(store.ok()) << spec << ": " << store.status();
    store_ = std::move(*store);
    auto* ctrie = dynamic_cast<CTrieStore*>(store_.get());
    EXPECT_NE(ctrie, nullptr);
    return *ctrie;
  }

  StoreRegistry registry_;
  std::unique_ptr<KVStore> store_;
};

TEST_F(Stage4StoresTest, RegistersCtrie) {
  ASSERT_EQ(registry_.stores().size(), 1u);
  const StoreInfo* info = registry_.Find("ctrie");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->origin, "stage4");
  EXPECT_TRUE(info->ordered);
  EXPECT_FALSE(info->linear_nth);
  EXPECT_EQ(info->sorted_input_cost, SortedInputCost::kLogarithmic);
  EXPECT_EQ(info->options.size(), 4u);
}

TEST_F(Stage4StoresTest, DefaultsAreFullPoolRcuSimd) {
  const CTrieStore& store = Build("ctrie");
  EXPECT_EQ(store.Name(), "ctrie");
  EXPECT_EQ(store.options().compress, CTrieOptions::Compress::kFull);
  EXPECT_EQ(store.options().alloc, CTrieOptions::Alloc::kPool);
  EXPECT_EQ(store.options().lock, CTrieOptions::Lock::kRcu);
  EXPECT_EQ(store.options().find, CTrieOptions::Find::kSimd);
  EXPECT_TRUE(store.IsThreadSafe());
}

TEST_F(Stage4StoresTest, OptionsSelectVariants) {
  const CTrieStore& a =
      Build("ctrie:compress=suffix:alloc=malloc:lock=node:find=binary");
  EXPECT_EQ(a.options().compress, CTrieOptions::Compress::kSuffix);
  EXPECT_EQ(a.options().alloc, CTrieOptions::Alloc::kMalloc);
  EXPECT_EQ(a.options().lock, CTrieOptions::Lock::kNode);
  EXPECT_EQ(a.options().find, CTrieOptions::Find::kBinary);
  EXPECT_TRUE(a.IsThreadSafe());
  EXPECT_TRUE(Build("ctrie:lock=global").IsThreadSafe());
  EXPECT_FALSE(Build("ctrie:lock=none").IsThreadSafe());
}

TEST_F(Stage4StoresTest, BadOptionsAreRejected) {
  EXPECT_FALSE(registry_.Make("ctrie:lock=spin").ok());
  EXPECT_FALSE(registry_.Make("ctrie:compress=prefix").ok());
  EXPECT_FALSE(registry_.Make("ctrie:alloc=arena").ok());
  EXPECT_FALSE(registry_.Make("ctrie:find=linear").ok());
  EXPECT_FALSE(registry_.Make("ctrie:order=4").ok());
}

}  // namespace
}  // namespace kvlab
