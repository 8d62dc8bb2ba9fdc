// The first steps of stage 3 in the order a student builds them
// (tests/groups.txt), on `trie_array`, whose child lookup is an index: the
// descent of Get in an empty trie and ArrayLayout::Child on nodes linked by
// hand, then Put. Rank, delete and the list and BST layouts follow in
// trie_store_test.cc.

#include <memory>
#include <string>
#include <vector>

#include "array_layout.h"
#include "gtest/gtest.h"
#include "kvlab/registry.h"
#include "kvlab/stage3/stores.h"
#include "kvlab/stage3/trie_store.h"

namespace kvlab {
namespace {

std::unique_ptr<TrieStore> MakeArrayTrie() {
  StoreRegistry registry;
  RegisterStage3Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make("trie_array");
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return nullptr;
  return std::unique_ptr<TrieStore>(dynamic_cast<TrieStore*>(store->release()));
}

// Step 1: Get walks one child per key byte (ArrayLayout::Child) and falls
// off at the first missing one; the root alone holds no key.
TEST(TrieStepsTest, EmptyTrieFindsNothing) {
  std::unique_ptr<TrieStore> store = MakeArrayTrie();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->Size(), 0u);
  EXPECT_FALSE(store->Get("", nullptr));
  EXPECT_FALSE(store->Get("a", nullptr));
  EXPECT_FALSE(store->Get("abc", nullptr));
  EXPECT_FALSE(store->GetNth(0, nullptr, nullptr));
  EXPECT_EQ(store->Shape().nodes, 1u);
  EXPECT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
}

// Step 1 too: ArrayLayout::Child on nodes linked by hand through the drawn
// layout (the child array right after the 16-byte header), so that a wrong
// slot shows before Put exists. Letters: 'A'..'Z' then 'a'..'z'.
TEST(ArrayLayoutTest, ChildIsTheNodeInItsBytesSlot) {
  const stage3::ArrayLayout layout(stage3::Alphabet::Letters());
  size_t bytes = 0;
  stage3::ArrayNode* parent = layout.NewNode(0, &bytes);
  auto** slots = reinterpret_cast<stage3::ArrayNode**>(parent + 1);
  std::vector<stage3::ArrayNode*> children;
  for (const char c : std::string("AZabyz")) {
    const auto byte = static_cast<uint8_t>(c);
    children.push_back(layout.NewNode(byte, &bytes));
    slots[layout.alphabet().SlotOf(byte)] = children.back();
  }
  for (stage3::ArrayNode* child : children) {
    EXPECT_EQ(layout.Child(parent, child->byte), child)
        << static_cast<char>(child->byte);
  }
  for (const char c : std::string("BYcxm")) {
    EXPECT_EQ(layout.Child(parent, static_cast<uint8_t>(c)), nullptr) << c;
  }
  // Bytes outside the alphabet have no slot.
  for (const int byte :
       {0, int{'0'}, int{'@'}, int{'['}, int{'`'}, int{'{'}, 0xff}) {
    EXPECT_EQ(layout.Child(parent, static_cast<uint8_t>(byte)), nullptr)
        << byte;
  }
  for (stage3::ArrayNode* child : children) layout.FreeNode(child, &bytes);
  layout.FreeNode(parent, &bytes);
  EXPECT_EQ(bytes, 0u);
}

// Step 2: Put adds the missing nodes of the key's path
// (ArrayLayout::ChildOrAdd), sets the value in the last one and counts the
// new key in every node of the path.
TEST(TrieStepsTest, PutAddsOneNodePerNewKeyByte) {
  std::unique_ptr<TrieStore> store = MakeArrayTrie();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<bool> replaced = store->Put("ab", "1");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_FALSE(*replaced);
  EXPECT_EQ(store->Shape().nodes, 3u);  // root, a, b
  ASSERT_TRUE(store->Put("ac", "2").ok());
  EXPECT_EQ(store->Shape().nodes, 4u);  // a is shared
  ASSERT_TRUE(store->Put("", "root").ok());
  EXPECT_EQ(store->Shape().nodes, 4u);  // the root holds the empty key
  std::string value;
  ASSERT_TRUE(store->Get("ab", &value));
  EXPECT_EQ(value, "1");
  ASSERT_TRUE(store->Get("", &value));
  EXPECT_EQ(value, "root");
  EXPECT_FALSE(store->Get("a", nullptr)) << "a node on a path is no key";
  EXPECT_FALSE(store->Get("abc", nullptr));
  replaced = store->Put("ac", "two");
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  EXPECT_TRUE(*replaced);
  ASSERT_TRUE(store->Get("ac", &value));
  EXPECT_EQ(value, "two");
  EXPECT_EQ(store->Size(), 3u);
  EXPECT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants();
}

}  // namespace
}  // namespace kvlab
