// The node encoding unit: header bit fields, delta encoding, values,
// suffixes and counts.

#include "node.h"

#include <string>

#include "gtest/gtest.h"

namespace kvlab::stage5::hyperion {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(char(b));
  return s;
}

const uint8_t* U(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

TEST(NodeHeader, FieldsRoundTrip) {
  for (int type = 0; type < 4; ++type) {
    for (bool s : {false, true}) {
      for (uint8_t delta = 0; delta <= kMaxDelta; ++delta) {
        for (uint8_t flags = 0; flags < 4; ++flags) {
          const uint8_t h = MakeHeader(NodeType(type), s, delta, flags);
          // An inner S-node without a child is a bare leaf.
          const bool bare = s && type == 1 && flags == 0;
          EXPECT_EQ(IsBareLeaf(h), bare);
          EXPECT_EQ(TypeOf(h), bare ? NodeType::kLeafValue : NodeType(type));
          EXPECT_EQ(StoredTypeOf(h), NodeType(type));
          EXPECT_EQ(IsS(h), s);
          EXPECT_EQ(DeltaOf(h), delta);
          EXPECT_EQ(ChildOf(h), s ? ChildKind(flags) : ChildKind::kNone);
        }
      }
    }
  }
}

TEST(NodeHeader, BitPositionsFollowFigure5) {
  // type in bits 1..0, k in bit 2, delta in bits 5..3, child in bits 7..6.
  EXPECT_EQ(MakeHeader(NodeType::kInner, false, 0, 0), 0x01);
  EXPECT_EQ(MakeHeader(NodeType::kLeaf, true, 0, 0), 0x06);
  EXPECT_EQ(MakeHeader(NodeType::kLeaf, false, 4, 0), 0x22);
  EXPECT_EQ(MakeHeader(NodeType::kLeafValue, true, 7, 3), 0xff);
  EXPECT_EQ(MakeHeader(NodeType::kInner, true, 0, 1), 0x45);
}

TEST(Delta, FitsOnlyForDifferencesOneToSeven) {
  EXPECT_EQ(DeltaFor(0, 0), 0);  // first sibling with key 0: explicit
  EXPECT_EQ(DeltaFor(0, 1), 1);  // first sibling counts from 0
  EXPECT_EQ(DeltaFor(0, 7), 7);
  EXPECT_EQ(DeltaFor(0, 8), 0);
  EXPECT_EQ(DeltaFor('a', 'e'), 4);  // the paper's example, Figure 10b
  EXPECT_EQ(DeltaFor('e', 't'), 0);  // 15 does not fit in 3 bits
  EXPECT_EQ(DeltaFor(10, 17), 7);
  EXPECT_EQ(DeltaFor(10, 18), 0);
  EXPECT_EQ(DeltaFor(250, 255), 5);
}

TEST(Delta, AppendWritesKeyByteOnlyWhenNeeded) {
  std::string out;
  AppendHeaderAndKey(&out, NodeType::kInner, false, 0, 'a', 0);
  EXPECT_EQ(out, Bytes({0x01, 'a'}));
  out.clear();
  AppendHeaderAndKey(&out, NodeType::kLeaf, false, 'a', 'e', 0);
  EXPECT_EQ(out, Bytes({0x22}));
  out.clear();
  AppendHeaderAndKey(&out, NodeType::kLeaf, true, 0, 0, 2);
  EXPECT_EQ(out, Bytes({0x86, 0x00}));
}

TEST(DecodeNode, TNodeWithInlineValue) {
  // T 'b' after 'a' (delta 1) with the 3-byte value "xyz".
  const std::string buf = Bytes({0x0b, 3, 'x', 'y', 'z', 0x06, 'q'});
  const Node n = DecodeNode(U(buf), 0, 'a');
  EXPECT_EQ(n.key, 'b');
  EXPECT_FALSE(n.s);
  EXPECT_EQ(n.type, NodeType::kLeafValue);
  EXPECT_EQ(n.head_bytes(), 1u);
  EXPECT_EQ(n.value_pos, 1u);
  EXPECT_EQ(n.value_bytes, 4u);
  EXPECT_EQ(InlineValue(U(buf) + n.value_pos), "xyz");
  EXPECT_EQ(n.end, 5u);
}

TEST(DecodeNode, SNodeChildren) {
  // Pointer child: header, explicit key, pointer (5) and count (5).
  std::string p = Bytes({0x45, 'h'});
  AppendPointerChild(&p, HyperionPointer::Make(1, 2, 3, 4), 1234567);
  Node n = DecodeNode(U(p), 0, 0);
  EXPECT_EQ(n.child, ChildKind::kPointer);
  EXPECT_EQ(n.child_pos, 2u);
  EXPECT_EQ(n.end, 12u);
  EXPECT_EQ(HyperionPointer::Load(U(p) + 2), HyperionPointer::Make(1, 2, 3, 4));
  EXPECT_EQ(LoadCount(U(p) + 7), 1234567u);

  // Embedded child of 6 bytes (its size byte included).
  const std::string e = Bytes({0x85, 'h', 6, 0x01, 'a', 0x06, 't', 0x22});
  n = DecodeNode(U(e), 0, 0);
  EXPECT_EQ(n.child, ChildKind::kEmbedded);
  EXPECT_EQ(n.child_bytes, 6u);
  EXPECT_EQ(n.end, 8u);

  // Suffix child with a value, after an inline value of the S-node.
  std::string s = Bytes({0xc7, 'n', 1, 'v'});
  AppendSuffix(&s, "d", Bytes({2, 'w', 'w'}));
  EXPECT_EQ(s, Bytes({0xc7, 'n', 1, 'v', 0x81, 2, 'w', 'w', 'd'}));
  n = DecodeNode(U(s), 0, 0);
  EXPECT_EQ(n.type, NodeType::kLeafValue);
  EXPECT_EQ(n.child, ChildKind::kSuffix);
  EXPECT_EQ(n.child_pos, 4u);
  EXPECT_EQ(n.end, 9u);
  const Suffix sx = DecodeSuffix(U(s), n.child_pos);
  EXPECT_TRUE(sx.has_value);
  EXPECT_EQ(InlineValue(U(s) + sx.value_pos), "ww");
  EXPECT_EQ(sx.bytes, "d");
}

TEST(BareLeaf, DecodesAsALeafWithAnEightByteValue) {
  // S 'c' after 'a' (delta 2), stored inner without a child, then 8 bytes
  // (one of them zero, which a tagged encoding would read as external),
  // then the next sibling.
  const std::string buf = Bytes({0x15, 0, 1, 2, 3, 4, 5, 6, 7, 0x0e});
  const Node n = DecodeNode(U(buf), 0, 'a');
  EXPECT_EQ(n.key, 'c');
  EXPECT_TRUE(n.s);
  EXPECT_EQ(n.type, NodeType::kLeafValue);
  EXPECT_EQ(n.child, ChildKind::kNone);
  EXPECT_EQ(n.value_pos, 1u);
  EXPECT_EQ(n.value_bytes, kBareValueBytes);
  EXPECT_EQ(n.end, 9u);
  EXPECT_EQ(NodeBytes(U(buf)), 9u);
  const TaggedValue tagged(U(buf), n);
  EXPECT_EQ(tagged.view(), Bytes({8, 0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(BareLeaf, AppendSNodeStoresBareOnlyChildlessInlineEightByteValues) {
  const std::string eight = Bytes({8, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'});
  std::string out;
  AppendSNode(&out, NodeType::kLeafValue, 'a', 'b', ChildKind::kNone, eight);
  EXPECT_EQ(out, Bytes({0x0d, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}));
  EXPECT_TRUE(IsBareLeaf(U(out)[0]));
  // With a child the length byte stays: the child kind bits are taken.
  out.clear();
  AppendSNode(&out, NodeType::kLeafValue, 'a', 'b', ChildKind::kSuffix, eight);
  EXPECT_EQ(out, Bytes({0xcf, 8, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}));
  // Other lengths, external values and empty values are stored as before.
  out.clear();
  AppendSNode(&out, NodeType::kLeafValue, 0, 'b', ChildKind::kNone,
              Bytes({7, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(out, Bytes({0x07, 'b', 7, 1, 2, 3, 4, 5, 6, 7}));
  out.clear();
  AppendSNode(&out, NodeType::kLeafValue, 0, 'b', ChildKind::kNone,
              Bytes({0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(out, Bytes({0x07, 'b', 0, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(IsBareLeaf(U(out)[0]));
  out.clear();
  AppendSNode(&out, NodeType::kLeaf, 0, 'b', ChildKind::kNone, {});
  EXPECT_EQ(out, Bytes({0x06, 'b'}));
  // A tagged value of a node that has one reads back as it is stored.
  const Node n = DecodeNode(U(out), 0, 0);
  EXPECT_EQ(TaggedValue(U(out), n).view(), "");
}

TEST(Values, InlineAndExternalSizes) {
  const std::string inline_value = Bytes({5, 1, 2, 3, 4, 5});
  EXPECT_FALSE(IsExternal(U(inline_value)));
  EXPECT_EQ(ValueBytes(U(inline_value)), 6u);
  std::string external = Bytes({0});
  uint8_t hp[5];
  HyperionPointer::Make(2, 1, 1, 9).Store(hp);
  external.append(reinterpret_cast<char*>(hp), 5);
  EXPECT_TRUE(IsExternal(U(external)));
  EXPECT_EQ(ValueBytes(U(external)), kExternalValueBytes);
  EXPECT_EQ(ExternalValue(U(external)), HyperionPointer::Make(2, 1, 1, 9));
}

TEST(Counts, FiveBytesLittleEndian) {
  uint8_t bytes[5];
  StoreCount(bytes, 0xAB'CDEF'0123);
  EXPECT_EQ(bytes[0], 0x23);
  EXPECT_EQ(bytes[4], 0xAB);
  EXPECT_EQ(LoadCount(bytes), 0xAB'CDEF'0123u);
}

TEST(Suffix, LongestFitsSevenBits) {
  std::string out;
  AppendSuffix(&out, std::string(kMaxSuffix, 'z'), "");
  EXPECT_EQ(uint8_t(out[0]), kMaxSuffix);
  EXPECT_EQ(SuffixBytes(U(out)), 1 + kMaxSuffix);
}

TEST(Varint, RoundTripsAtEveryLengthBoundary) {
  for (uint64_t v : {0ull, 1ull, 127ull, 128ull, 16383ull, 16384ull,
                     (1ull << 21) - 1, 1ull << 21, (1ull << 35) - 1}) {
    uint8_t buf[kMaxVarintBytes + 1] = {};
    const uint32_t n = StoreVarint(buf, v);
    EXPECT_EQ(n, VarintSize(v)) << v;
    EXPECT_EQ(VarintBytes(buf), n) << v;
    EXPECT_EQ(LoadVarint(buf), v) << v;
    EXPECT_EQ(buf[n], 0) << "wrote past its bytes: " << v;
  }
  EXPECT_EQ(VarintSize(127), 1u);
  EXPECT_EQ(VarintSize(128), 2u);
  EXPECT_EQ(VarintSize((1ull << 35) - 1), kMaxVarintBytes);
}

TEST(JumpSuccessor, FieldsAndDecoding) {
  uint8_t buf[16] = {};
  buf[0] = MakeHeader(NodeType::kInner, false, 0, 0) | kJumpSuccessorFlag;
  buf[1] = 'q';
  const uint32_t n = StoreJumpSuccessor(buf + 2, 300, 1000);
  EXPECT_EQ(n, 4u);  // 2 bytes of jump, 1000 in a 2-byte varint
  EXPECT_EQ(JumpSuccessorBytes(buf + 2), 4u);
  EXPECT_EQ(LoadJump(buf + 2), 300u);
  EXPECT_EQ(LoadJumpKeys(buf + 2), 1000u);
  const Node t = DecodeNode(buf, 0, 0);
  EXPECT_EQ(t.key, 'q');
  EXPECT_EQ(t.jump_pos, 2u);
  EXPECT_EQ(t.value_pos, 6u);
  EXPECT_EQ(t.head_bytes(), 2u);
  EXPECT_EQ(NodeBytes(buf), 6u);
  // An S-node's bit 6 is its child kind, never a jump successor.
  EXPECT_FALSE(HasJumpSuccessor(MakeHeader(NodeType::kLeaf, true, 1, 1)));
}

}  // namespace
}  // namespace kvlab::stage5::hyperion
