// The container jump table unit: entry encoding and where a scan starts.

#include "jump_table.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::stage5::hyperion {
namespace {

// A container of `groups` table groups (the nodes themselves are not
// needed: lookups read only the table).
std::string ContainerWithTable(uint32_t groups,
                               const std::vector<JumpTableEntry>& entries) {
  std::string c(kHeaderBytes, '\0');
  StoreHeader(reinterpret_cast<uint8_t*>(c.data()), 512, 0, groups);
  c += JumpTableBytes(entries, groups * kJumpTableGroup);
  return c;
}

const uint8_t* U(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// The used entries of container `c`'s table, in order: the slots up to the
// first unused one.
std::vector<JumpTableEntry> LoadJumpTable(const uint8_t* c) {
  std::vector<JumpTableEntry> entries;
  for (uint32_t i = 0; i < JumpTableEntries(c); ++i) {
    const JumpTableEntry e = LoadJumpTableEntry(c, i);
    if (e.offset == 0) break;
    entries.push_back(e);
  }
  return entries;
}

TEST(JumpTable, EntriesAreEightLittleEndianBytes) {
  const std::string c =
      ContainerWithTable(1, {{0x123456, 'k', 0x89abcdef}, {0x200, 'z', 5}});
  EXPECT_EQ(c.substr(kHeaderBytes, 8),
            std::string("\x56\x34\x12k\xef\xcd\xab\x89", 8));
  EXPECT_EQ(JumpTableEntries(U(c)), 7u);
  EXPECT_EQ(NodesBegin(U(c)), kHeaderBytes + 7 * kJumpTableEntryBytes);
  const JumpTableEntry e = LoadJumpTableEntry(U(c), 1);
  EXPECT_EQ(e.offset, 0x200u);
  EXPECT_EQ(e.key, 'z');
  EXPECT_EQ(e.keys_before, 5u);
  EXPECT_EQ(LoadJumpTable(U(c)).size(), 2u);  // unused slots end the list
  EXPECT_EQ(LoadJumpTableEntry(U(c), 2).offset, 0u);
}

TEST(JumpTable, HeaderKeepsTheGroupsBesideSizeAndFree) {
  uint8_t c[4];
  StoreHeader(c, 96, 17, 5);
  EXPECT_EQ(ContainerSize(c), 96u);
  EXPECT_EQ(ContainerFree(c), 17u);
  EXPECT_EQ(ContainerJumpBits(c), 5u);
  EXPECT_EQ(ContainerSplitDelay(c), 0u);
}

TEST(JumpTable, StartsBeforeTheKeyNeverAtIt) {
  const std::string c =
      ContainerWithTable(1, {{0x40, 'b', 0}, {0x80, 'f', 10}, {0xc0, 'm', 25}});
  const Region r = WholeContainer(U(c));
  EXPECT_FALSE(JumpBeforeKey(r, 'a').found);
  EXPECT_FALSE(JumpBeforeKey(r, 'b').found);  // equal: the walk needs prev
  EXPECT_EQ(JumpBeforeKey(r, 'c').entry.offset, 0x40u);
  EXPECT_EQ(JumpBeforeKey(r, 'm').entry.offset, 0x80u);
  EXPECT_EQ(JumpBeforeKey(r, 'z').entry.offset, 0xc0u);
  // Embedded regions have no table.
  Region embedded = r;
  embedded.table_entries = 0;
  EXPECT_FALSE(JumpBeforeKey(embedded, 'z').found);
}

TEST(JumpTable, NthStartsAtTheLastEntryWithAtMostNBefore) {
  const std::string c =
      ContainerWithTable(1, {{0x40, 'b', 0}, {0x80, 'f', 10}, {0xc0, 'm', 25}});
  const Region r = WholeContainer(U(c));
  EXPECT_EQ(JumpBeforeNth(r, 0).entry.offset, 0x40u);
  EXPECT_EQ(JumpBeforeNth(r, 9).entry.offset, 0x40u);
  EXPECT_EQ(JumpBeforeNth(r, 10).entry.offset, 0x80u);
  EXPECT_EQ(JumpBeforeNth(r, 1000).entry.keys_before, 25u);
}

TEST(JumpTable, ShiftMovesBothCountsOfTheLaterEntriesOnly) {
  std::string c = ContainerWithTable(
      1, {{0x40, 'b', 0}, {0xff, 'f', 0xffff}, {0x123456, 'm', 25}});
  uint8_t* p = reinterpret_cast<uint8_t*>(c.data());
  // Growing: the offset carries past its low byte, the count past 16 bits.
  ShiftJumpTableEntries(p, 1, 0x101, 1);
  std::vector<JumpTableEntry> e = LoadJumpTable(p);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].offset, 0x40u);  // before `from`: untouched
  EXPECT_EQ(e[0].keys_before, 0u);
  EXPECT_EQ(e[1].offset, 0x200u);
  EXPECT_EQ(e[1].key, 'f');
  EXPECT_EQ(e[1].keys_before, 0x10000u);
  EXPECT_EQ(e[2].offset, 0x123557u);
  EXPECT_EQ(e[2].key, 'm');
  EXPECT_EQ(e[2].keys_before, 26u);
  // Shrinking: borrows stay inside each field; the key bytes never change.
  ShiftJumpTableEntries(p, 1, -0x1c1, -1);
  e = LoadJumpTable(p);
  EXPECT_EQ(e[1].offset, 0x3fu);
  EXPECT_EQ(e[1].key, 'f');
  EXPECT_EQ(e[1].keys_before, 0xffffu);
  EXPECT_EQ(e[2].offset, 0x123396u);
  EXPECT_EQ(e[2].key, 'm');
  EXPECT_EQ(e[2].keys_before, 25u);
  // Mixed signs: an ejection during a Put shrinks the bytes and adds a
  // key; a Delete may keep the bytes and lose a key.
  ShiftJumpTableEntries(p, 2, -0x96, 1);
  ShiftJumpTableEntries(p, 1, 0, -1);
  e = LoadJumpTable(p);
  EXPECT_EQ(e[1].offset, 0x3fu);
  EXPECT_EQ(e[1].keys_before, 0xfffeu);
  EXPECT_EQ(e[2].offset, 0x123300u);
  EXPECT_EQ(e[2].key, 'm');
  EXPECT_EQ(e[2].keys_before, 25u);
  // From past the last slot: nothing to do.
  ShiftJumpTableEntries(p, 7, 5, 5);
  EXPECT_EQ(LoadJumpTable(p)[2].offset, 0x123300u);
  // Unused slots stay zero.
  EXPECT_EQ(LoadJumpTableEntry(p, 3).offset, 0u);
  EXPECT_EQ(LoadJumpTableEntry(p, 3).keys_before, 0u);
}

TEST(JumpTable, DropMovesTheLaterEntriesDown) {
  std::string c = ContainerWithTable(
      1, {{0x40, 'b', 0}, {0x80, 'f', 10}, {0xc0, 'm', 25}, {0xd0, 'q', 30}});
  uint8_t* p = reinterpret_cast<uint8_t*>(c.data());
  DropJumpTableEntry(p, 1);
  const std::vector<JumpTableEntry> e = LoadJumpTable(p);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].key, 'b');
  EXPECT_EQ(e[1].key, 'm');
  EXPECT_EQ(e[1].offset, 0xc0u);
  EXPECT_EQ(e[2].key, 'q');
  EXPECT_EQ(e[2].keys_before, 30u);
  // Dropping from a full table frees its last slot.
  std::vector<JumpTableEntry> full;
  for (uint8_t k = 0; k < 7; ++k) full.push_back({0x40u + k, k, k});
  c = ContainerWithTable(1, full);
  p = reinterpret_cast<uint8_t*>(c.data());
  DropJumpTableEntry(p, 6);
  EXPECT_EQ(LoadJumpTable(p).size(), 6u);
  EXPECT_FALSE(JumpTableSlotUsed(p, 6));
}

TEST(JumpTable, DecodeBaseRecoversADeltaEncodedKey) {
  // A T-node 'f' stored as delta 3 from 'c', and one stored explicitly.
  const std::string delta = {char(MakeHeader(NodeType::kLeaf, false, 3, 0))};
  EXPECT_EQ(DecodeNode(U(delta), 0, DecodeBaseFor(U(delta), 'f')).key, 'f');
  const std::string explicit_key = {
      char(MakeHeader(NodeType::kLeaf, false, 0, 0)), 'q'};
  EXPECT_EQ(
      DecodeNode(U(explicit_key), 0, DecodeBaseFor(U(explicit_key), 'q')).key,
      'q');
}

}  // namespace
}  // namespace kvlab::stage5::hyperion
