// Step 1 on its own: FindNode on a tree linked by hand, before Put exists,
// so that the group naming FindNode (tests/groups.txt: empty) fails when the
// search returns a wrong node, not only when it fails on an empty tree.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "node.h"
#include "tree_search.h"

namespace kvlab::stage1 {
namespace {

// The tree of docs/stage1_bst.md, section 1, each value its key and "!".
class FruitTree {
 public:
  FruitTree() {
    root_ = Make("mango");
    root_->left = Make("cherry");
    root_->right = Make("peach");
    root_->left->left = Make("apple");
    root_->left->right = Make("grape");
    root_->left->right->right = Make("lemon");
  }
  ~FruitTree() { FreeTree(root_, &bytes_); }

  const Node* root() const { return root_; }

 private:
  Node* Make(const std::string& key) {
    return NewNode(key, key + "!", &bytes_);
  }

  size_t bytes_ = 0;
  Node* root_ = nullptr;
};

TEST(FindNodeTest, FindsEachKeyOfAHandLinkedTree) {
  FruitTree tree;
  for (const std::string key :
       {"mango", "cherry", "peach", "apple", "grape", "lemon"}) {
    const Node* found = FindNode(tree.root(), key);
    ASSERT_NE(found, nullptr) << key;
    EXPECT_EQ(KeyOf(found), key);
    EXPECT_EQ(ValueOf(found), key + "!");
  }
}

TEST(FindNodeTest, FindsNoKeyTheTreeLacks) {
  FruitTree tree;
  // Below, between and above the keys, and prefixes and extensions of them.
  for (const std::string& key :
       std::vector<std::string>{"", "a", "banana", "kiwi", "zebra", "mang",
                                "mangoes", std::string("mango\0", 6)}) {
    EXPECT_EQ(FindNode(tree.root(), key), nullptr) << key;
  }
  EXPECT_EQ(FindNode(nullptr, "mango"), nullptr);
}

}  // namespace
}  // namespace kvlab::stage1
