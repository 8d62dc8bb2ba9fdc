// The exercise of docs/stage5_hyperion.md whose answer a test can check
// (`make stage5 exercises`): 1, the siblings the delta rule encodes without
// a key byte (DeltaEncodedSiblings in src/exercises.cc), on the sibling
// lists of the chapter's Figure 1 container and against the bytes the trie
// writes for random sibling lists.

#include "exercises.h"

#include <memory>
#include <random>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "kvlab/stage5/hyperion_store.h"

namespace kvlab::hyperion {
namespace {

TEST(Exercise1Test, TheFigure1Container) {
  EXPECT_EQ(DeltaEncodedSiblings(""), 0);
  EXPECT_EQ(DeltaEncodedSiblings("abt"), 1);  // T-nodes: 'b' is 'a' + 1
  EXPECT_EQ(DeltaEncodedSiblings("n"), 0);    // S-child of 'a'
  EXPECT_EQ(DeltaEncodedSiblings("e"), 0);    // S-child of 'b'
  EXPECT_EQ(DeltaEncodedSiblings("ho"), 1);   // S-children of 't'
  EXPECT_EQ(DeltaEncodedSiblings("ae"), 1);   // the embedded container
  // So the container's 24 used bytes would be 27 without delta encoding.
}

TEST(Exercise1Test, SmallBytesAndGaps) {
  EXPECT_EQ(DeltaEncodedSiblings(std::string("\x01\x02\x09\x11", 4)), 3);
  EXPECT_EQ(DeltaEncodedSiblings(std::string("\x00\x07\x0f", 3)), 1);
  EXPECT_EQ(DeltaEncodedSiblings("\x08"), 0);
  EXPECT_EQ(DeltaEncodedSiblings("\x80\x81\xff"), 1);
}

// One-byte keys make a root container of leaf T-nodes alone, each a
// header byte plus a key byte unless delta-encoded, after the container's
// 4-byte header.
TEST(Exercise1Test, MatchesWhatTheTrieStores) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 50; ++round) {
    std::set<unsigned char> bytes;
    const size_t n = 1 + rng() % 40;
    while (bytes.size() < n) {
      bytes.insert(
          static_cast<unsigned char>(1 + rng() % (round < 25 ? 64 : 255)));
    }
    const std::string siblings(bytes.begin(), bytes.end());
    std::unique_ptr<stage5::HyperionStore> store = stage5::NewHyperionStore();
    for (char b : siblings) ASSERT_TRUE(store->Put(std::string(1, b), "").ok());
    // "container 0x...: 96 bytes, 91 used, 5 free"
    const std::string dump = store->DebugString();
    const size_t used_at = dump.find(" used");
    ASSERT_NE(used_at, std::string::npos) << dump;
    const size_t from = dump.rfind(' ', used_at - 1) + 1;
    const int used = std::stoi(dump.substr(from, used_at - from));
    EXPECT_EQ(used,
              4 + 2 * static_cast<int>(n) - DeltaEncodedSiblings(siblings))
        << dump;
  }
}

}  // namespace
}  // namespace kvlab::hyperion
