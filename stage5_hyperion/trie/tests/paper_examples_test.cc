// The paper's small examples, byte for byte (Hyperion paper, Figures 4-8,
// 10): the containers for the keys of Figure 1 (a, and, be, that, the, to),
// C3 and C3* of Figure 6 with the deltas of Figure 10b, C3 embedded (7b)
// and referenced (7a), and the ejection of Figure 8.

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hyperion_trie.h"

namespace kvlab::stage5 {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(char(b));
  return s;
}

// The used bytes of `hp`'s container, header included.
std::string ContainerBytes(const HyperionTrie& store, HyperionPointer hp) {
  const auto* c = static_cast<const uint8_t*>(store.memory().Resolve(hp));
  return std::string(reinterpret_cast<const char*>(c),
                     hyperion::ContainerUsed(c));
}

void PutAll(HyperionTrie* store, const std::vector<std::string>& keys) {
  for (const std::string& k : keys) ASSERT_TRUE(store->Put(k, "").ok());
  ASSERT_EQ(store->CheckInvariants(), absl::OkStatus());
}

// Figure 4 with Figure 10's deltas: one container C1 holding a, an+"d",
// be, th+C3, to. "and" keeps its unique rest "d" as a path-compressed
// suffix (the paper draws C2 as a container: our suffix is 1 byte
// smaller), and C3 is embedded (Figure 7b).
const std::string kFigure4Root = Bytes({
    0x01, 0x00, 0x40, 0x00,  // header: 1 unit of 32 bytes, 8 free
    0x02, 'a',               // T 'a'  leaf (key "a"), explicit key byte
    0xc5, 'n',  0x01, 'd',   // S 'n'  inner, c=11 suffix of 1: "d"
    0x09,                    // T 'b'  inner, delta 1 from 'a'
    0x06, 'e',               // S 'e'  leaf, explicit
    0x01, 't',               // T 't'  inner, explicit (18 from 'b')
    0x85, 'h',               // S 'h'  inner, c=10 embedded C3:
    0x06,                    //   size 6 (itself included)
    0x01, 'a',               //   T 'a' inner
    0x06, 't',               //   S 't' leaf
    0x22,                    //   T 'e' leaf, delta 4 from 'a'
    0x3e,                    // S 'o'  leaf, delta 7 from 'h'
});

TEST(PaperExamples, Figure4ContainersForFigure1Keys) {
  HyperionTrie store;
  PutAll(&store, {"a", "and", "be", "that", "the", "to"});
  EXPECT_EQ(ContainerBytes(store, store.root()), kFigure4Root)
      << store.DebugString();
  EXPECT_EQ(store.memory().Size(store.root()), 32u);
}

TEST(PaperExamples, EncodingIsIndependentOfInsertionOrder) {
  std::vector<std::string> keys = {"a", "and", "be", "that", "the", "to"};
  std::sort(keys.begin(), keys.end());
  int orders = 0;
  do {
    HyperionTrie store;
    PutAll(&store, keys);
    ASSERT_EQ(ContainerBytes(store, store.root()), kFigure4Root)
        << "order #" << orders;
    ++orders;
  } while (std::next_permutation(keys.begin(), keys.end()));
  EXPECT_EQ(orders, 720);
}

TEST(PaperExamples, Figure6C3AndC3Star) {
  // C3 = {at, e}: e is a T-node, sibling of a (delta 4, Figure 10b).
  HyperionTrie c3;
  PutAll(&c3, {"at", "e"});
  EXPECT_EQ(ContainerBytes(c3, c3.root()).substr(4),
            Bytes({0x01, 'a', 0x06, 't', 0x22}));
  // C3* = {at, ae}: e and t are S-siblings under a; t is 15 after e, too
  // far for the delta field, so its key byte is explicit.
  HyperionTrie c3star;
  PutAll(&c3star, {"at", "ae"});
  EXPECT_EQ(ContainerBytes(c3star, c3star.root()).substr(4),
            Bytes({0x01, 'a', 0x06, 'e', 0x06, 't'}));
}

TEST(PaperExamples, Figure7aC3ReferencedByPointer) {
  // With an embedding budget smaller than C3 (6 bytes), C3 becomes a
  // container of its own and "h" points to it: c=01, pointer, count.
  HyperionTrie store(HyperionOptions{.embed_limit = 16});
  PutAll(&store, {"that", "the"});
  // Still embedded: 6 <= 16.
  EXPECT_EQ(ContainerBytes(store, store.root()).substr(4),
            Bytes({0x01, 't', 0x85, 'h', 0x06, 0x01, 'a', 0x06, 't', 0x22}));
  // Four more keys fill C3 to exactly 16 bytes; the fifth ejects it.
  PutAll(&store, {"thio", "thou", "thus", "thy"});
  EXPECT_EQ(uint8_t(ContainerBytes(store, store.root())[8]), 16);
  PutAll(&store, {"thz"});
  const std::string root = ContainerBytes(store, store.root());
  ASSERT_EQ(root.size(), 4u + 2 + 2 + 10);
  EXPECT_EQ(root.substr(4, 4), Bytes({0x01, 't', 0x45, 'h'}));
  const HyperionPointer c3 =
      HyperionPointer::Load(reinterpret_cast<const uint8_t*>(root.data()) + 8);
  EXPECT_EQ(
      hyperion::LoadCount(reinterpret_cast<const uint8_t*>(root.data()) + 13),
      7u);
  // The child holds exactly what an embedded C3 would hold.
  HyperionTrie roomy(HyperionOptions{.embed_limit = 255});
  PutAll(&roomy, {"that", "the", "thio", "thou", "thus", "thy", "thz"});
  const std::string roomy_root = ContainerBytes(roomy, roomy.root());
  ASSERT_EQ(uint8_t(roomy_root[6]), 0x85);  // still embedded there
  const uint8_t size = uint8_t(roomy_root[8]);
  EXPECT_EQ(ContainerBytes(store, c3).substr(4), roomy_root.substr(9, size - 1))
      << store.DebugString();
}

TEST(PaperExamples, Figure8EjectionStepByStep) {
  // Figure 8: a container with a T-node x, its S-node y holding an
  // embedded container, and a following T-node z. Ejecting y's embedded
  // container moves its payload to a new container, stores the pointer
  // (c=01) and closes the gap; the free tail stays zero.
  HyperionTrie store(HyperionOptions{.embed_limit = 16});
  PutAll(&store, {"xyab", "xyac", "z"});
  const std::string before = ContainerBytes(store, store.root());
  // T 'x', S 'y' embedded [size][T 'a'][S 'b'][S 'c' delta 1], T 'z'
  // (delta 2).
  EXPECT_EQ(before.substr(4), Bytes({0x01, 'x', 0x85, 'y', 0x06, 0x01, 'a',
                                     0x06, 'b', 0x0e, 0x12}));
  // Each new key under "xy" adds one byte (an S-node with delta 1); the
  // eleventh passes the budget of 16.
  PutAll(&store, {"xyad", "xyae", "xyaf", "xyag", "xyah", "xyai", "xyaj",
                  "xyak", "xyal", "xyam", "xyan", "xyao", "xyap", "xyaq"});
  const std::string after = ContainerBytes(store, store.root());
  EXPECT_EQ(after.substr(4, 4), Bytes({0x01, 'x', 0x45, 'y'}));
  EXPECT_EQ(after.substr(18), Bytes({0x12}));
  const auto* c =
      static_cast<const uint8_t*>(store.memory().Resolve(store.root()));
  for (uint32_t i = hyperion::ContainerUsed(c); i < 32; ++i) {
    EXPECT_EQ(c[i], 0) << "free byte " << i;
  }
  const HyperionPointer child =
      HyperionPointer::Load(reinterpret_cast<const uint8_t*>(after.data()) + 8);
  // The child: T 'a' with S 'b'..'q', all leaves with deltas of 1. Now in
  // a real container, T 'a' has 16 children, more than the default
  // threshold of 2, so it carries a jump successor (section 3.3): flag
  // 0x40, 17 = 0x11 bytes of children (little-endian) and, kvlab's count
  // for GetNth, 16 keys (a one-byte varint).
  std::string expected = Bytes({0x41, 'a', 0x11, 0x00, 0x10, 0x06, 'b'});
  for (char k = 'c'; k <= 'q'; ++k) expected.push_back(char(0x0e));
  EXPECT_EQ(ContainerBytes(store, child).substr(4), expected);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  // Figure 8 itself draws containers without jump successors.
  HyperionTrie plain(HyperionOptions{.embed_limit = 16, .jump_successor = 256});
  PutAll(&plain,
         {"xyab", "xyac", "z", "xyad", "xyae", "xyaf", "xyag", "xyah", "xyai",
          "xyaj", "xyak", "xyal", "xyam", "xyan", "xyao", "xyap", "xyaq"});
  const std::string plain_root = ContainerBytes(plain, plain.root());
  EXPECT_EQ(
      ContainerBytes(
          plain, HyperionPointer::Load(
                     reinterpret_cast<const uint8_t*>(plain_root.data()) + 8))
          .substr(4),
      Bytes({0x01, 'a', 0x06, 'b'}) + std::string(15, char(0x0e)));
  EXPECT_EQ(plain.CheckInvariants(), absl::OkStatus());
}

TEST(PaperExamples, DumpAnnotatesEveryNode) {
  HyperionTrie store;
  PutAll(&store, {"a", "and", "be", "that", "the", "to"});
  const std::string dump = store.DumpContainer(store.root());
  EXPECT_NE(dump.find("32 bytes, 24 used, 8 free"), std::string::npos) << dump;
  EXPECT_NE(dump.find("T 'a' leaf, key explicit"), std::string::npos) << dump;
  EXPECT_NE(dump.find("S 'n' inner, key explicit, suffix 'd'"),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("T 'b' inner, delta 1"), std::string::npos) << dump;
  EXPECT_NE(dump.find("embedded container of 6 bytes"), std::string::npos)
      << dump;
  EXPECT_NE(dump.find("T 'e' leaf, delta 4"), std::string::npos) << dump;
  EXPECT_NE(dump.find("S 'o' leaf, delta 7"), std::string::npos) << dump;
}

}  // namespace
}  // namespace kvlab::stage5
