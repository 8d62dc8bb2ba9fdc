// Step 1 on its own: Find (with SearchNode, the search inside one node) on a
// two-level tree linked by hand, before Put exists, so that the group naming
// Find (tests/groups.txt: empty) fails when the search returns a wrong
// pair, not only when it fails on an empty tree.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "node.h"
#include "pair.h"
#include "tree.h"

namespace kvlab::stage2 {
namespace {

// Order 4, with or without the 8-byte key prefixes: the root holds "melon"
// between the leaves {"apple", "cherry", "grape"} and {"peach", "plum"};
// each value is its key and "!".
class HandLinkedTree {
 public:
  explicit HandLinkedTree(bool prefixes) : tree_(4, prefixes) {
    const NodeLayout& layout = tree_.layout;
    Node* left = Leaf({"apple", "cherry", "grape"});
    Node* right = Leaf({"peach", "plum"});
    Node* root = NewNode(layout, /*leaf=*/false, &tree_.node_bytes);
    InsertEntry(layout, root, 0, Make("melon"));
    layout.children(root)[0] = left;
    layout.children(root)[1] = right;
    layout.counts(root)[0] = 3;
    layout.counts(root)[1] = 2;
    tree_.root = root;
    tree_.size = 6;
    tree_.height = 2;
  }

  const Tree& tree() const { return tree_; }

 private:
  Entry Make(const std::string& key) {
    return {tree_.layout.PrefixFor(key),
            NewPair(key, key + "!", &tree_.pair_bytes)};
  }
  Node* Leaf(const std::vector<std::string>& keys) {
    Node* leaf = NewNode(tree_.layout, /*leaf=*/true, &tree_.node_bytes);
    for (const std::string& key : keys) {
      InsertEntry(tree_.layout, leaf, leaf->num_keys, Make(key));
    }
    return leaf;
  }

  Tree tree_;
};

class BTreeFindTest : public ::testing::TestWithParam<bool> {};

TEST_P(BTreeFindTest, FindsEachKeyOfAHandLinkedTree) {
  HandLinkedTree hand(GetParam());
  for (const std::string key :
       {"apple", "cherry", "grape", "melon", "peach", "plum"}) {
    const Pair* found = Find(hand.tree(), key);
    ASSERT_NE(found, nullptr) << key;
    EXPECT_EQ(KeyOf(found), key);
    EXPECT_EQ(ValueOf(found), key + "!");
  }
}

TEST_P(BTreeFindTest, FindsNoKeyTheTreeLacks) {
  HandLinkedTree hand(GetParam());
  // Below, between and above the keys; prefixes and extensions of them (one
  // with a NUL byte).
  for (const std::string& key : std::vector<std::string>{
           "", "a", "banana", "kiwi", "mel", "melons", "pear", "zebra",
           "cherryXYZ", std::string("plum\0", 5)}) {
    EXPECT_EQ(Find(hand.tree(), key), nullptr) << key;
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, BTreeFindTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "prefixes" : "pointers";
                         });

}  // namespace
}  // namespace kvlab::stage2
