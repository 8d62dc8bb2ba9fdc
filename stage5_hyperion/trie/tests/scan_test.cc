// The container scan: finding a key byte among T-node and S-node siblings,
// with insertion points and the previous sibling's key byte.

#include <string>

#include "container_scan.h"
#include "gtest/gtest.h"

namespace kvlab::stage5::hyperion {
namespace {

// A container holding "a", "an..." (suffix "d"), "be", "th" (embedded
// "at", "e") and "to": the root of the paper's Figure 1 keys.
std::string PaperRoot() {
  const int bytes[] = {
      0x01, 0x00, 0x40, 0x00,             // header: 32 bytes, 8 free
      0x02, 'a',                          // T 'a' leaf
      0xc5, 'n',  0x01, 'd',              //   S 'n' inner, suffix "d"
      0x09,                               // T 'b' inner, delta 1
      0x06, 'e',                          //   S 'e' leaf
      0x01, 't',                          // T 't' inner
      0x85, 'h',  0x06, 0x01, 'a', 0x06,  //   S 'h' inner, embedded
      't',  0x22,                         //     ("at", "e")
      0x3e,                               //   S 'o' leaf, delta 7
      0,    0,    0,    0,    0,   0,    0, 0};
  std::string s;
  for (int b : bytes) s.push_back(char(b));
  return s;
}

Region RootRegion(const std::string& c) {
  return WholeContainer(reinterpret_cast<const uint8_t*>(c.data()));
}

TEST(ContainerHeader, FieldsDecode) {
  const std::string c = PaperRoot();
  const auto* p = reinterpret_cast<const uint8_t*>(c.data());
  EXPECT_EQ(ContainerSize(p), 32u);
  EXPECT_EQ(ContainerFree(p), 8u);
  EXPECT_EQ(ContainerUsed(p), 24u);
  EXPECT_EQ(ContainerJumpBits(p), 0u);
  EXPECT_EQ(ContainerSplitDelay(p), 0u);
  uint8_t h[4];
  StoreHeader(h, 96, 31);
  EXPECT_EQ(ContainerSize(h), 96u);
  EXPECT_EQ(ContainerFree(h), 31u);
}

TEST(FindT, FoundAndInsertionPoints) {
  const std::string c = PaperRoot();
  const Region r = RootRegion(c);
  SiblingSearch s = FindT(r, 'b');
  EXPECT_TRUE(s.found);
  EXPECT_EQ(s.pos, 10u);
  EXPECT_EQ(s.prev, 'a');
  EXPECT_EQ(s.node.key, 'b');

  s = FindT(r, 'c');  // between 'b' and 't'
  EXPECT_FALSE(s.found);
  EXPECT_TRUE(s.has_next);
  EXPECT_EQ(s.pos, 13u);
  EXPECT_EQ(s.prev, 'b');
  EXPECT_EQ(s.node.key, 't');

  s = FindT(r, 'A');  // before the first
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.pos, 4u);
  EXPECT_EQ(s.prev, 0);
  EXPECT_EQ(s.node.key, 'a');

  s = FindT(r, 'z');  // after the last: the end of the nodes
  EXPECT_FALSE(s.found);
  EXPECT_FALSE(s.has_next);
  EXPECT_EQ(s.pos, 24u);
  EXPECT_EQ(s.prev, 't');
}

TEST(FindS, WalksOnlyTheTNodesChildren) {
  const std::string c = PaperRoot();
  const Region r = RootRegion(c);
  const SiblingSearch t = FindT(r, 't');
  ASSERT_TRUE(t.found);
  SiblingSearch s = FindS(r, t.node, 'o');
  EXPECT_TRUE(s.found);
  EXPECT_EQ(s.pos, 23u);
  EXPECT_EQ(s.prev, 'h');
  EXPECT_EQ(s.node.key, 'o');  // 'h' + delta 7

  s = FindS(r, t.node, 'i');  // between 'h' and 'o'
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.pos, 23u);
  EXPECT_EQ(s.prev, 'h');

  s = FindS(r, t.node, 'p');  // past the last S-child: end of the T-node
  EXPECT_FALSE(s.found);
  EXPECT_FALSE(s.has_next);
  EXPECT_EQ(s.pos, 24u);

  const SiblingSearch a = FindT(r, 'a');
  s = FindS(r, a.node, 'z');  // stops at the next T-node
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.pos, 10u);
}

TEST(FindT, InsideAnEmbeddedContainer) {
  const std::string c = PaperRoot();
  const auto* p = reinterpret_cast<const uint8_t*>(c.data());
  const Region e = EmbeddedRegion(p, 17);
  EXPECT_EQ(e.begin, 18u);
  EXPECT_EQ(e.end, 23u);
  SiblingSearch s = FindT(e, 'e');
  EXPECT_TRUE(s.found);
  EXPECT_EQ(s.pos, 22u);
  EXPECT_EQ(s.prev, 'a');
  s = FindT(e, 'f');
  EXPECT_FALSE(s.found);
  EXPECT_FALSE(s.has_next);
  EXPECT_EQ(s.pos, 23u);  // the embedded container's end, not the parent's
}

TEST(SkipTNode, SkipsAllSChildren) {
  const std::string c = PaperRoot();
  const Region r = RootRegion(c);
  const SiblingSearch t = FindT(r, 't');
  EXPECT_EQ(SkipTNode(r.buf, t.node, r.end), 24u);
  const SiblingSearch a = FindT(r, 'a');
  EXPECT_EQ(SkipTNode(r.buf, a.node, r.end), 10u);
}

// T 'a' with a jump successor over its S-children 'b' and 'c' (both
// leaves), then T 'z'; `jump` is the stored jump.
std::string JumpingContainer(uint8_t jump) {
  const int bytes[] = {
      0x01, 0x00, 0x00, 0x00,  // header: 32 bytes, 0 free (not read)
      0x41, 'a',               // T 'a' inner, key explicit
      jump, 0x00,              //   jump successor: bytes to skip,
      0x02,                    //   and keys below (2, a varint)
      0x06, 'b',               //   S 'b' leaf
      0x0e,                    //   S 'c' leaf, delta 1
      0x01, 'z',               // T 'z' inner
      0x06, 'y',               //   S 'y' leaf
  };
  std::string s;
  for (int b : bytes) s.push_back(char(b));
  s.resize(32);
  return s;
}

TEST(SkipTNode, TakesTheJumpSuccessor) {
  std::string c = JumpingContainer(3);
  Region r{reinterpret_cast<const uint8_t*>(c.data()), 4, 15};
  SiblingSearch a = FindT(r, 'a');
  ASSERT_TRUE(a.found);
  EXPECT_EQ(a.node.jump_pos, 6u);
  EXPECT_EQ(a.node.value_pos, 9u);
  EXPECT_EQ(LoadJumpKeys(r.buf + a.node.jump_pos), 2u);
  EXPECT_EQ(SkipTNode(r.buf, a.node, r.end), 12u);
  EXPECT_EQ(SkipSChildren(r.buf, a.node.end, r.end), 12u);
  const SChildren children = MeasureSChildren(r.buf, a.node, r.end);
  EXPECT_EQ(children.count, 2u);
  EXPECT_EQ(children.end, 12u);
  SiblingSearch z = FindT(r, 'z');
  EXPECT_TRUE(z.found);
  EXPECT_EQ(z.pos, 12u);
  // The scan trusts the jump without walking: a jump of 2 lands on 'c',
  // an S-node, which FindT does not take for a T-node.
  c = JumpingContainer(2);
  r.buf = reinterpret_cast<const uint8_t*>(c.data());
  a = FindT(r, 'a');
  EXPECT_EQ(SkipTNode(r.buf, a.node, r.end), 11u);
  EXPECT_FALSE(FindT(r, 'z').found);
  // 0 means "too far": the scan walks.
  c = JumpingContainer(0);
  r.buf = reinterpret_cast<const uint8_t*>(c.data());
  a = FindT(r, 'a');
  EXPECT_EQ(SkipTNode(r.buf, a.node, r.end), 12u);
  EXPECT_TRUE(FindT(r, 'z').found);
}

TEST(FindT, EmptyRegionStopsAtZeroByte) {
  const uint8_t zeros[8] = {0};
  const Region r{zeros, 4, 8};
  EXPECT_TRUE(r.empty());
  const SiblingSearch s = FindT(r, 'x');
  EXPECT_FALSE(s.found);
  EXPECT_FALSE(s.has_next);
  EXPECT_EQ(s.pos, 4u);
}

}  // namespace
}  // namespace kvlab::stage5::hyperion
