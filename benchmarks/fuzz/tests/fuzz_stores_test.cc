#include "kvlab/fuzz/fuzz_stores.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::fuzz {
namespace {

TEST(ParseStoreList, WordsWithoutComments) {
  EXPECT_EQ(
      ParseStoreList("# a comment avl\n bst  btree:order=4\n\navl # x y\n"),
      (std::vector<std::string>{"bst", "btree:order=4", "avl"}));
  EXPECT_TRUE(ParseStoreList("").empty());
}

TEST(CheckStoreList, NeedsEveryRegisteredStoreAndValidSpecs) {
  EXPECT_TRUE(absl::IsInvalidArgument(CheckStoreList({"avl"})));
  std::vector<std::string> all = ParseStoreList(KVLAB_FUZZ_STORES);
  EXPECT_TRUE(CheckStoreList(all).ok()) << CheckStoreList(all);
  all.push_back("btree:order=5");  // odd orders are refused
  EXPECT_TRUE(absl::IsInvalidArgument(CheckStoreList(all)));
}

// The list compiled into the fuzz tools is stores.txt.
TEST(CheckStoreList, CompiledListIsStoresTxt) {
  std::ifstream in(std::filesystem::path(KVLAB_FUZZ_SOURCE_DIR) / "stores.txt");
  ASSERT_TRUE(in);
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(ParseStoreList(text.str()), ParseStoreList(KVLAB_FUZZ_STORES));
}

TEST(IsOrdered, FollowsTheRegistry) {
  EXPECT_TRUE(*IsOrdered("btree:order=4"));
  EXPECT_FALSE(*IsOrdered("std_unordered_map"));
  EXPECT_FALSE(IsOrdered("no_such_store").ok());
}

}  // namespace
}  // namespace kvlab::fuzz
