// The T-node jump table unit: entry encoding, which child each entry names,
// and where a search or GetNth starts.

#include "tnode_table.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hyperion_trie.h"

namespace kvlab::stage5::hyperion {
namespace {

const uint8_t* U(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

TEST(TNodeTable, EntriesAreEightLittleEndianBytes) {
  std::string table(kTNodeTableBytes, '\0');
  auto* p = reinterpret_cast<uint8_t*>(table.data());
  StoreTNodeTableEntry(p, 1, TNodeTableEntry{0x1234, 'A', 0x0102030405});
  EXPECT_EQ(table.substr(8, 8), std::string("\x34\x12"
                                            "A\x05\x04\x03\x02\x01",
                                            8));
  const TNodeTableEntry e = LoadTNodeTableEntry(p, 1);
  EXPECT_EQ(e.offset, 0x1234u);
  EXPECT_EQ(e.key, 'A');
  EXPECT_EQ(e.keys_before, 0x0102030405u);
  EXPECT_FALSE(LoadTNodeTableEntry(p, 0).used());
}

// Entry i names the first child at or past 16 * (i + 1): one child may
// serve several entries, and the first child none.
TEST(TNodeTable, BuilderNamesTheFirstChildPastEachBoundary) {
  TNodeTableBuilder builder;
  builder.Add(0, 20, 1);   // first child: no entry, though it passes 16
  builder.Add(9, 40, 3);   // entries 1 (32)
  builder.Add(30, 97, 2);  // entries 2..5 (48, 64, 80, 96)
  builder.Add(50, 98, 1);  // none: 112 not reached
  const std::string table = builder.Finish();
  ASSERT_EQ(table.size(), kTNodeTableBytes);
  std::vector<TNodeTableEntry> e;
  for (uint32_t i = 0; i < kTNodeTableEntries; ++i) {
    e.push_back(LoadTNodeTableEntry(U(table), i));
  }
  EXPECT_FALSE(e[0].used());
  EXPECT_EQ(e[1].offset, 9u);
  EXPECT_EQ(e[1].key, 40);
  EXPECT_EQ(e[1].keys_before, 1u);
  for (uint32_t i = 2; i <= 5; ++i) {
    EXPECT_EQ(e[i].offset, 30u) << i;
    EXPECT_EQ(e[i].key, 97) << i;
    EXPECT_EQ(e[i].keys_before, 4u) << i;
  }
  for (uint32_t i = 6; i < kTNodeTableEntries; ++i) EXPECT_FALSE(e[i].used());
}

TEST(TNodeTable, OffsetsPastSixteenBitsStayUnused) {
  TNodeTableBuilder builder;
  builder.Add(0, 1, 1);
  builder.Add(0x10000, 200, 1);
  const std::string table = builder.Finish();
  for (uint32_t i = 0; i < kTNodeTableEntries; ++i) {
    EXPECT_FALSE(LoadTNodeTableEntry(U(table), i).used()) << i;
  }
}

// A T-node 'x' (explicit key byte, jump successor, table) followed by three
// S-children 'a' (explicit), 'b' (delta 1) and 'q' (explicit), each a leaf
// without value. 'a' is the first child, so entries 0..5 (16..96) stay
// unused; 'q' (113) serves entry 6 (112).
struct Fixture {
  std::string buf;
  Node t;
};

Fixture ThreeChildren() {
  Fixture f;
  std::string& b = f.buf;
  b.push_back(
      char(MakeHeader(NodeType::kInner, false, 0,
                      (kJumpSuccessorFlag | kTNodeTableFlag) >> kFlagShift)));
  b.push_back('x');
  uint8_t js[kMaxJumpSuccessorBytes];
  b.append(reinterpret_cast<const char*>(js), StoreJumpSuccessor(js, 5, 3));
  const size_t table_pos = b.size();
  b.append(kTNodeTableBytes, '\0');
  const size_t first = b.size();
  AppendHeaderAndKey(&b, NodeType::kLeaf, true, 0, 'a', 0);    // 2 bytes
  AppendHeaderAndKey(&b, NodeType::kLeaf, true, 'a', 'b', 0);  // 1 byte
  AppendHeaderAndKey(&b, NodeType::kLeaf, true, 'b', 'q', 0);  // 2 bytes
  TNodeTableBuilder builder;
  builder.Add(0, 'a', 1);
  builder.Add(2, 'b', 1);
  builder.Add(3, 'q', 1);
  b.replace(table_pos, kTNodeTableBytes, builder.Finish());
  b.push_back('\0');
  f.t = DecodeNode(U(b), 0, 0);
  EXPECT_EQ(f.t.table_pos, table_pos);
  EXPECT_EQ(f.t.end, first);
  return f;
}

TEST(TNodeTable, NodesDecodePastTheTable) {
  const Fixture f = ThreeChildren();
  EXPECT_TRUE(HasTNodeTable(f.t.header));
  EXPECT_EQ(f.t.key, 'x');
  EXPECT_EQ(NodeBytes(U(f.buf)), f.t.end);
  // An S-node's flag bits are its child kind, never a table.
  EXPECT_FALSE(HasTNodeTable(U(f.buf)[f.t.end]));
}

TEST(TNodeTable, SearchStartsBeforeTheKeyNeverAtIt) {
  const Fixture f = ThreeChildren();
  const uint8_t* buf = U(f.buf);
  // Up to 'q' itself nothing helps: 'q' is the only entry's child.
  EXPECT_FALSE(SChildBefore(buf, f.t, 'q').found);
  EXPECT_FALSE(SChildBefore(buf, f.t, 'c').found);
  const SChildStart s = SChildBefore(buf, f.t, 'r');
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.pos, f.t.end + 3);
  EXPECT_EQ(s.keys_before, 2u);
  // The base decodes the landing node to its key byte.
  EXPECT_EQ(DecodeNode(buf, s.pos, s.prev).key, 'q');
}

TEST(TNodeTable, NthStartsAtTheLastEntryNotPastIt) {
  const Fixture f = ThreeChildren();
  const uint8_t* buf = U(f.buf);
  EXPECT_FALSE(SChildBeforeNth(buf, f.t, 0).found);
  EXPECT_FALSE(SChildBeforeNth(buf, f.t, 1).found);
  const SChildStart s = SChildBeforeNth(buf, f.t, 2);
  ASSERT_TRUE(s.found);
  EXPECT_EQ(s.pos, f.t.end + 3);
  EXPECT_EQ(s.keys_before, 2u);
}

// In a store: a T-node gets its table once it has enough children and
// keys, the dump shows the used entries, and it goes when a Delete takes
// the children below the bar again.
TEST(TNodeTable, StoreAddsShowsAndDropsTables) {
  HyperionTrie store(HyperionOptions{.tnode_table = 3, .tnode_table_keys = 5});
  for (const char* key : {"aA", "aB", "aa", "ab"}) {
    ASSERT_TRUE(store.Put(key, "").ok());
  }
  // 4 children but 4 keys: below the key bar.
  EXPECT_EQ(store.DebugString().find(", table"), std::string::npos);
  ASSERT_TRUE(store.Put("aq", "v").ok());
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  // 'A' is the first child: entries 0..3 (16..64) stay unused.
  EXPECT_NE(store.DebugString().find(", table [4] 'a' +3 after 2, [5] 'a' +3 "
                                     "after 2, [6] 'q' +6 after 4"),
            std::string::npos)
      << store.DebugString();
  std::string key, value;
  ASSERT_TRUE(store.GetNth(4, &key, &value));
  EXPECT_EQ(key, "aq");
  EXPECT_EQ(value, "v");
  ASSERT_TRUE(store.Delete("aB"));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(store.DebugString().find(", table"), std::string::npos);
}

// Entries that a growing child pushes past a 16-bit offset go unused, all
// zero, exactly as a rebuilt table leaves them: 240 children of 257 bytes
// put the last entry some 61 KB past the first child, then children near
// the front grow by 384 bytes each.
TEST(TNodeTable, EntriesPushedOutOfReachBecomeZero) {
  HyperionTrie store(HyperionOptions{.tnode_table_keys = 0});
  const std::string value(255, 'v');
  for (int b = 1; b <= 240; ++b) {
    ASSERT_TRUE(store.Put(std::string{'a', char(b)}, value).ok());
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  for (int b = 1; b <= 20; ++b) {
    const std::string key = std::string{'a', char(b)} + std::string(127, 's');
    ASSERT_TRUE(store.Put(key, value).ok());
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus())
        << "after growing child " << b;
  }
}

}  // namespace
}  // namespace kvlab::stage5::hyperion
