// SChildrenAhead: the bytes a search or GetNth asks the cache for before
// walking a T-node's S-children. A span that ended short would waste the
// prefetch; one that ran past the children would load another T-node's
// bytes (or past the container) on every lookup.

#include <string>

#include "container_scan.h"
#include "gtest/gtest.h"
#include "hyperion_trie.h"

namespace kvlab::stage5 {
namespace {

using hyperion::ByteSpan;
using hyperion::DecodeNode;
using hyperion::kMaxPrefetchBytes;
using hyperion::Node;
using hyperion::Region;
using hyperion::SChildrenAhead;

// The root container's first T-node.
struct RootT {
  Region region;
  Node t;
};

RootT FirstTNode(const HyperionTrie& store) {
  const Region r = hyperion::WholeContainer(
      static_cast<const uint8_t*>(store.memory().Resolve(store.root())));
  return RootT{r, DecodeNode(r.buf, r.begin, 0)};
}

// Keys "x" + c for each c in `children`, values `value`, then "y" so that
// a T-node follows x's children.
void Fill(HyperionTrie* store, const std::string& children,
          const std::string& value, const std::string& tail = "") {
  for (char c : children) {
    ASSERT_TRUE(store->Put(std::string("x") + c + tail, value).ok());
  }
  ASSERT_TRUE(store->Put("y", "1").ok());
}

TEST(PrefetchSpan, CoversExactlyTheChildrenAJumpSuccessorBounds) {
  // Three children: more than the default jump_successor (2).
  HyperionTrie store;
  Fill(&store, "abc", "v");
  const RootT root = FirstTNode(store);
  ASSERT_TRUE(hyperion::HasJumpSuccessor(root.t.header));
  const uint32_t children_end =
      hyperion::SkipSChildren(root.region.buf, root.t.end, root.region.end);
  ByteSpan span = SChildrenAhead(root.region.buf, root.t, root.t.end);
  EXPECT_EQ(span.begin, root.t.end);
  EXPECT_EQ(span.end, children_end);
  // From the second child on (where a T-node table would start the walk).
  const uint32_t second =
      root.t.end + hyperion::NodeBytes(root.region.buf + root.t.end);
  span = SChildrenAhead(root.region.buf, root.t, second);
  EXPECT_EQ(span.begin, second);
  EXPECT_EQ(span.end, children_end);
  // From the end of the children: nothing left.
  span = SChildrenAhead(root.region.buf, root.t, children_end);
  EXPECT_EQ(span.begin, span.end);
}

TEST(PrefetchSpan, CountsTheJumpFromTheTNodesValue) {
  // 'x' ends a key with a 200-byte value: its children start 201 bytes
  // after the value does, and the jump counts from the value.
  HyperionTrie store;
  ASSERT_TRUE(store.Put("x", std::string(200, 'w')).ok());
  Fill(&store, "abc", "v");
  const RootT root = FirstTNode(store);
  ASSERT_TRUE(hyperion::HasJumpSuccessor(root.t.header));
  ASSERT_EQ(root.t.end - root.t.value_pos, 201u);
  const uint32_t children_end =
      hyperion::SkipSChildren(root.region.buf, root.t.end, root.region.end);
  const ByteSpan span = SChildrenAhead(root.region.buf, root.t, root.t.end);
  EXPECT_EQ(span.begin, root.t.end);
  EXPECT_EQ(span.end, children_end);
}

TEST(PrefetchSpan, EmptyWithoutAJumpSuccessor) {
  HyperionTrie store;
  Fill(&store, "ab", "v");
  const RootT root = FirstTNode(store);
  ASSERT_FALSE(hyperion::HasJumpSuccessor(root.t.header));
  const ByteSpan span = SChildrenAhead(root.region.buf, root.t, root.t.end);
  EXPECT_EQ(span.begin, span.end);
}

TEST(PrefetchSpan, StopsAtTheLimit) {
  // Twelve children with 120-byte suffixes and 250-byte inline values:
  // over 4 KiB.
  HyperionTrie store;
  Fill(&store, "abcdefghijkl", std::string(250, 'v'), std::string(120, 's'));
  const RootT root = FirstTNode(store);
  ASSERT_TRUE(hyperion::HasJumpSuccessor(root.t.header));
  const uint32_t children_end =
      hyperion::SkipSChildren(root.region.buf, root.t.end, root.region.end);
  ASSERT_GT(children_end - root.t.end, kMaxPrefetchBytes);
  ByteSpan span = SChildrenAhead(root.region.buf, root.t, root.t.end);
  EXPECT_EQ(span.begin, root.t.end);
  EXPECT_EQ(span.end, root.t.end + kMaxPrefetchBytes);
  // The limit counts from where the walk starts, not from the first child.
  const uint32_t second =
      root.t.end + hyperion::NodeBytes(root.region.buf + root.t.end);
  span = SChildrenAhead(root.region.buf, root.t, second);
  EXPECT_EQ(span.begin, second);
  EXPECT_EQ(span.end, second + kMaxPrefetchBytes);
}

}  // namespace
}  // namespace kvlab::stage5
