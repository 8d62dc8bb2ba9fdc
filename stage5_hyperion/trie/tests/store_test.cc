// hyperion's own cases beyond the conformance suite: the empty key, the
// longest keys and values, memory reclaimed by deletes, GetNth through
// child containers, scans from every kind of start position, options.

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hyperion_trie.h"
#include "jump_table.h"
#include "kvlab/stage5/hyperion_store.h"
#include "kvlab/stage5/stores.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::stage5 {
namespace {

std::vector<std::pair<std::string, std::string>> ScanAll(
    const HyperionTrie& store, std::string_view start) {
  std::vector<std::pair<std::string, std::string>> out;
  store.Scan(start, [&](std::string_view k, std::string_view v) {
    out.emplace_back(k, v);
    return true;
  });
  return out;
}

// The checker names what it finds: a corrupted node or a wrong key count
// is Internal, with the violation and where it is.
TEST(HyperionStore, CheckInvariantsNamesTheFirstViolation) {
  HyperionTrie store;
  ASSERT_TRUE(store.Put("ab", "1").ok());
  ASSERT_TRUE(store.Put("ac", "2").ok());
  ASSERT_TRUE(store.CheckInvariants().ok());
  auto* c = static_cast<uint8_t*>(store.memory().Resolve(store.root()));
  const hyperion::Region region = hyperion::WholeContainer(c);
  // A zero byte where the first T-node starts.
  const uint8_t saved = c[region.begin];
  c[region.begin] = 0;
  const absl::Status broken = store.CheckInvariants();
  EXPECT_EQ(broken.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(broken.message(),
            absl::StrCat("root: in container: zero byte inside the nodes at "
                         "offset ",
                         region.begin));
  c[region.begin] = saved;
  EXPECT_TRUE(store.CheckInvariants().ok());
}

TEST(HyperionStore, EmptyKeyLivesBesideTheRoot) {
  HyperionTrie store;
  const auto empty_usage = store.MemoryUsage();
  ASSERT_FALSE(*store.Put("", "root value"));
  EXPECT_TRUE(store.root().IsNull());  // no container for it
  ASSERT_FALSE(*store.Put("a", "x"));
  std::string v;
  ASSERT_TRUE(store.Get("", &v));
  EXPECT_EQ(v, "root value");
  ASSERT_TRUE(*store.Put("", ""));
  ASSERT_TRUE(store.Get("", &v));
  EXPECT_EQ(v, "");
  std::string k;
  ASSERT_TRUE(store.GetNth(0, &k, &v));
  EXPECT_EQ(k, "");
  ASSERT_TRUE(store.GetNth(1, &k, &v));
  EXPECT_EQ(k, "a");
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_TRUE(store.Delete(""));
  EXPECT_TRUE(store.Delete("a"));
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionStore, LongestKeysAndValues) {
  HyperionTrie store;
  std::mt19937_64 rng(3);
  std::map<std::string, std::string> oracle;
  for (int i = 0; i < 200; ++i) {
    // Keys of up to 1024 bytes sharing long prefixes, values up to 4096.
    std::string key(size_t(rng() % 4) * 250, 'p');
    key.resize(std::min<size_t>(kMaxKeySize, key.size() + rng() % 300), 'q');
    for (size_t j = key.size() / 2; j < key.size(); j += 1 + rng() % 40) {
      key[j] = char(rng());
    }
    std::string value(rng() % 4 == 0 ? kMaxValueSize : rng() % 300, 'v');
    ASSERT_TRUE(store.Put(key, value).ok());
    oracle[key] = value;
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << "put #" << i;
  }
  EXPECT_EQ(store.Size(), oracle.size());
  const std::vector<std::pair<std::string, std::string>> expected(
      oracle.begin(), oracle.end());
  EXPECT_TRUE(ScanAll(store, "") == expected);
  for (const auto& [k, v] : oracle) {
    std::string got;
    ASSERT_TRUE(store.Get(k, &got));
    EXPECT_EQ(got, v);
    ASSERT_TRUE(store.Delete(k));
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  }
  EXPECT_EQ(store.MemoryUsage(), HyperionTrie().MemoryUsage());
}

TEST(HyperionStore, DeletingEverythingReturnsToEmptyMemory) {
  HyperionTrie store;
  const auto empty_usage = store.MemoryUsage();
  std::mt19937_64 rng(5);
  std::vector<std::string> keys;
  const uint64_t n = testing::Scaled(30'000, 1'000);
  for (uint64_t i = 0; i < n; ++i) {
    std::string k(1 + rng() % 40, ' ');
    for (char& c : k) c = char('a' + rng() % 26);
    keys.push_back(k);
    ASSERT_TRUE(store.Put(k, std::string(rng() % 255 + 1, 'x')).ok());
  }
  EXPECT_GT(*store.MemoryUsage(), *empty_usage);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const std::string& k : keys) store.Delete(k);
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_TRUE(store.root().IsNull());
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 0u);
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

// Puts against a std::map, on keys from a three-letter alphabet and from
// bytes 1 to 3 (so that suffixes split into new containers whose keys end
// at T-nodes and S-nodes, siblings are delta-coded from their base, and
// embedded containers grow): each Put's answer, the key read back, and at
// checkpoints the checker (canonical deltas, embedded sizes), Size and
// every pair by Scan. Once with the default embedding budget, once with a
// small one.
TEST(HyperionInsert, PutsAgainstAMap) {
  for (const uint32_t embed_limit : {144u, 16u}) {
    SCOPED_TRACE(embed_limit);
    HyperionTrie store(HyperionOptions{.embed_limit = embed_limit});
    std::mt19937_64 rng(31);
    std::map<std::string, std::string> model;
    const uint64_t n = testing::Scaled(3'000, 300);
    for (uint64_t i = 0; i < n; ++i) {
      std::string k(1 + rng() % 7, ' ');
      const char base = i % 2 == 0 ? 'a' : '\x01';
      for (char& c : k) c = char(base + rng() % 3);
      const std::string v = rng() % 8 == 0 ? std::string(40, char('A' + i % 26))
                                           : std::to_string(i);
      const size_t size_before = store.Size();
      ASSERT_TRUE(store.Put(k, v).ok()) << k;
      const bool is_new = model.count(k) == 0;
      model[k] = v;
      ASSERT_EQ(store.Size(), size_before + (is_new ? 1 : 0)) << k;
      std::string got;
      ASSERT_TRUE(store.Get(k, &got)) << k;
      ASSERT_EQ(got, v) << k;
      if (i % 100 == 0 || i + 1 == n) {
        ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << "after " << k;
        const std::vector<std::pair<std::string, std::string>> expected(
            model.begin(), model.end());
        ASSERT_TRUE(ScanAll(store, "") == expected) << "after putting " << k;
      }
    }
    for (const auto& [k, v] : model) {
      std::string got;
      ASSERT_TRUE(store.Get(k, &got)) << k;
      ASSERT_EQ(got, v) << k;
    }
  }
}

// Deletes against a std::map, on keys from a three-letter alphabet (so
// that they share prefixes, end at T-nodes, S-nodes, suffixes and inside
// embedded containers): each Delete's answer, the deleted key gone, the
// neighbours intact (a removed node's next sibling is re-encoded), and at
// checkpoints the checker and every remaining pair by Get and by Scan.
TEST(HyperionErase, DeletesAgainstAMap) {
  HyperionTrie store;
  std::mt19937_64 rng(17);
  std::map<std::string, std::string> model;
  const uint64_t n = testing::Scaled(4'000, 400);
  for (uint64_t i = 0; i < n; ++i) {
    std::string k(1 + rng() % 7, ' ');
    for (char& c : k) c = char('a' + rng() % 3);
    // Short values stay inline; a few go to chunks of their own.
    std::string v = rng() % 8 == 0 ? std::string(40, char('A' + i % 26))
                                   : std::to_string(i);
    ASSERT_TRUE(store.Put(k, v).ok());
    model[k] = v;
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  std::vector<std::string> keys;
  for (const auto& [k, v] : model) keys.push_back(k);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (size_t i = 0; i < keys.size(); ++i) {
    const std::string& k = keys[i];
    ASSERT_TRUE(store.Delete(k)) << k;
    model.erase(k);
    ASSERT_FALSE(store.Get(k, nullptr)) << k;
    ASSERT_FALSE(store.Delete(k)) << k;
    // The keys next to it in order, which may share its container.
    const auto next = model.lower_bound(k);
    std::string v;
    if (next != model.end()) {
      ASSERT_TRUE(store.Get(next->first, &v)) << "after deleting " << k;
      ASSERT_EQ(v, next->second);
    }
    if (next != model.begin() && !model.empty()) {
      const auto before = std::prev(next);
      ASSERT_TRUE(store.Get(before->first, &v)) << "after deleting " << k;
      ASSERT_EQ(v, before->second);
    }
    if (i % 50 == 0 || model.size() < 20) {
      ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << "after " << k;
      ASSERT_EQ(store.Size(), model.size());
      const std::vector<std::pair<std::string, std::string>> expected(
          model.begin(), model.end());
      ASSERT_TRUE(ScanAll(store, "") == expected) << "after deleting " << k;
    }
  }
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_TRUE(store.root().IsNull());
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 0u);
}

// The root container's node bytes.
std::string RootNodes(const HyperionTrie& store) {
  const auto* c =
      static_cast<const uint8_t*>(store.memory().Resolve(store.root()));
  return std::string(reinterpret_cast<const char*>(c) + hyperion::NodesBegin(c),
                     hyperion::ContainerUsed(c) - hyperion::NodesBegin(c));
}

TEST(HyperionStore, JumpSuccessorsFollowTheChildCount) {
  HyperionTrie store;  // the default threshold: more than 2 children
  for (const char* key : {"ab", "ac", "b"}) ASSERT_FALSE(*store.Put(key, ""));
  EXPECT_EQ(RootNodes(store)[0], 0x01);  // T 'a', two children: no jump
  ASSERT_FALSE(*store.Put("ad", ""));
  // Three children: flag set, jump over the S-nodes: b with its explicit
  // key byte (2 bytes), c and d as deltas (1 byte each); then 3 keys (a
  // one-byte varint).
  EXPECT_EQ(RootNodes(store).substr(0, 5),
            std::string("\x41\x61\x04\x00\x03", 5));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  // A value on the T-node (length byte and 3 bytes) lies between the jump
  // and the next T-node.
  ASSERT_FALSE(*store.Put("a", "xyz"));
  EXPECT_EQ(RootNodes(store).substr(0, 5),
            std::string("\x43\x61\x08\x00\x04", 5));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  // Growing a child (an embedded container below "ac") moves the jump.
  ASSERT_FALSE(*store.Put("acxy", "1"));
  ASSERT_FALSE(*store.Put("acxz", "2"));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  std::string v;
  ASSERT_TRUE(store.Get("b", &v));
  // Back to two children: the jump successor goes.
  ASSERT_TRUE(store.Delete("ad"));
  ASSERT_TRUE(store.Delete("ab"));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(RootNodes(store)[0] & hyperion::kJumpSuccessorFlag, 0);
  ASSERT_TRUE(store.Get("b", &v));
  // Switched off, no T-node has one.
  HyperionTrie off(HyperionOptions{.jump_successor = 256});
  for (int i = 0; i < 256; ++i) {
    ASSERT_FALSE(*off.Put(std::string{'a', char(i)}, "v"));
  }
  EXPECT_EQ(RootNodes(off)[0] & hyperion::kJumpSuccessorFlag, 0);
  EXPECT_EQ(off.CheckInvariants(), absl::OkStatus());
}

TEST(HyperionStore, ContainerJumpTableGrowsWithItsTNodes) {
  // The default rebuilds after walking past more than 8 T-nodes, in
  // containers of 1,024 bytes or more; these are smaller.
  HyperionTrie store(HyperionOptions{.jump_table_min = 0});
  auto groups = [&] {
    return hyperion::ContainerJumpBits(
        static_cast<const uint8_t*>(store.memory().Resolve(store.root())));
  };
  // Nine T-nodes: reaching the last walks past eight, not more.
  for (char t = 'a'; t <= 'i'; ++t) {
    ASSERT_FALSE(*store.Put(std::string{t, 'x'}, "v"));
  }
  EXPECT_EQ(groups(), 0u);
  // A tenth walks past nine: this change builds a table of 7 entries
  // (about one per four T-nodes, in groups of 7).
  ASSERT_FALSE(*store.Put("jx", "v"));
  EXPECT_EQ(groups(), 1u);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  const std::string dump = store.DumpContainer(store.root());
  EXPECT_NE(dump.find("jump table: T 'a' at 003c, 0 keys before"),
            std::string::npos)
      << dump;
  // 256 T-nodes fill all 7 groups: 49 entries.
  for (int t = 0; t < 256; ++t) {
    ASSERT_TRUE(store.Put(std::string{char(t), 'z'}, "w").ok());
  }
  ASSERT_TRUE(store.Put(std::string{char(255), 'y'}, "w").ok());
  EXPECT_EQ(groups(), hyperion::kMaxJumpTableGroups);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  // GetNth starts from the entries' key counts.
  const auto all = ScanAll(store, "");
  ASSERT_EQ(all.size(), store.Size());
  std::string key;
  for (uint64_t n = 0; n < store.Size(); ++n) {
    ASSERT_TRUE(store.GetNth(n, &key, nullptr));
    EXPECT_EQ(key, all[n].first) << n;
  }
  // Switched off, no table is built; by default, not below 1,024 bytes.
  HyperionTrie off(HyperionOptions{.jump_table = 0, .jump_table_min = 0});
  HyperionTrie small_only;
  for (HyperionTrie* s : {&off, &small_only}) {
    for (int t = 0; t < 100; ++t) {
      ASSERT_TRUE(s->Put(std::string{char(t), 'z'}, "w").ok());
    }
    ASSERT_TRUE(s->Put(std::string{char(99), 'y'}, "w").ok());
    const auto* c = static_cast<const uint8_t*>(s->memory().Resolve(s->root()));
    ASSERT_LT(hyperion::ContainerUsed(c), 1024u);
    EXPECT_EQ(hyperion::ContainerJumpBits(c), 0u);
  }
  // Past 1,024 bytes (a few hundred two-byte keys with 1-byte values) the
  // default builds one.
  for (int t = 100; t < 256; ++t) {
    ASSERT_TRUE(small_only.Put(std::string{char(t), 'z'}, "w").ok());
  }
  ASSERT_TRUE(small_only.Put(std::string{char(255), 'y'}, "w").ok());
  EXPECT_GT(hyperion::ContainerJumpBits(static_cast<const uint8_t*>(
                small_only.memory().Resolve(small_only.root()))),
            0u);
  EXPECT_EQ(small_only.CheckInvariants(), absl::OkStatus());
}

// The table is not only kept right but used: FindT starts near its target,
// and GetNth trusts an entry's key count (a deliberately wrong count moves
// its answer), as SkipTNode trusts a jump successor.
TEST(HyperionStore, LookupsStartAtTheJumpTable) {
  HyperionTrie store(HyperionOptions{.jump_table_min = 0});
  for (char t = 'a'; t <= 't'; ++t) {
    ASSERT_FALSE(*store.Put(std::string{t, 'x'}, "v"));
  }
  auto* c = static_cast<uint8_t*>(store.memory().Resolve(store.root()));
  ASSERT_GT(hyperion::ContainerJumpBits(c), 0u);
  // Without the table, reaching 't' walks past 19 T-nodes.
  const hyperion::SiblingSearch ts =
      hyperion::FindT(hyperion::WholeContainer(c), 't');
  ASSERT_TRUE(ts.found);
  EXPECT_LE(ts.steps, 8u);
  // The last used entry (one key per T-node here).
  uint32_t last = 0;
  while (last + 1 < hyperion::JumpTableEntries(c) &&
         hyperion::JumpTableSlotUsed(c, last + 1)) {
    ++last;
  }
  ASSERT_GT(last, 0u);
  hyperion::JumpTableEntry e = hyperion::LoadJumpTableEntry(c, last);
  std::string key;
  ASSERT_TRUE(store.GetNth(e.keys_before - 1, &key, nullptr));
  EXPECT_EQ(key, std::string({char(e.key - 1), 'x'}));
  --e.keys_before;
  hyperion::StoreJumpTableEntry(c, last, e);
  ASSERT_TRUE(store.GetNth(e.keys_before, &key, nullptr));
  EXPECT_EQ(key, std::string({char(e.key), 'x'}));  // started at the entry
  ++e.keys_before;
  hyperion::StoreJumpTableEntry(c, last, e);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

TEST(HyperionStore, JumpSuccessorKeyCountGrowsAndShrinksItsVarint) {
  // T 'a' of the root with three children; the keys below "ab" soon live
  // in a container of their own, so most puts only pass through the root
  // and its count goes from one varint byte to two at 128 keys and back.
  HyperionTrie store;
  for (const char* key : {"ab", "ac", "ad"}) ASSERT_FALSE(*store.Put(key, ""));
  auto key_count = [&] {
    const std::string nodes = RootNodes(store);
    return hyperion::LoadJumpKeys(
        reinterpret_cast<const uint8_t*>(nodes.data()) + 2);
  };
  auto varint_bytes = [&] {
    const std::string nodes = RootNodes(store);
    return hyperion::VarintBytes(
        reinterpret_cast<const uint8_t*>(nodes.data()) + 4);
  };
  for (int i = 0; i < 200; ++i) {
    ASSERT_FALSE(*store.Put(absl::StrCat("ab", i * 7919 % 1000), "v"));
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << i;
    ASSERT_EQ(key_count(), 4u + i);
    ASSERT_EQ(varint_bytes(), 4u + i < 128 ? 1u : 2u);
  }
  std::string k;
  ASSERT_TRUE(store.GetNth(150, &k, nullptr));
  for (int i = 0; i < 200; ++i) {
    ASSERT_TRUE(store.Delete(absl::StrCat("ab", i * 7919 % 1000)));
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << i;
    ASSERT_EQ(key_count(), 202u - i);
  }
  EXPECT_EQ(varint_bytes(), 1u);
}

TEST(HyperionStore, LargeContainersEjectTheEmbeddedContainersThatGrow) {
  // 60 two-byte keys make a root of more than 64 bytes; "qx1" then puts a
  // suffix below "qx" and "qx2" turns it into a small embedded container.
  // With eject_above=64 the next key growing it ejects it, far below the
  // embedding budget; with the option off it stays embedded.
  for (const uint32_t eject_above : {64u, 0u}) {
    HyperionTrie store(HyperionOptions{.eject_above = eject_above});
    for (int i = 0; i < 60; ++i) {
      ASSERT_FALSE(*store.Put(std::string{'a', char('A' + i)}, ""));
    }
    ASSERT_FALSE(*store.Put("qx1", "v"));
    ASSERT_FALSE(*store.Put("qx2", "v"));
    ASSERT_FALSE(*store.Put("qx3", "v"));
    EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
    const std::string dump = store.DebugString();
    const bool ejected = dump.find("S 'x' inner, key explicit, -> container") !=
                         std::string::npos;
    EXPECT_EQ(ejected, eject_above != 0) << dump;
    std::string v;
    EXPECT_TRUE(store.Get("qx2", &v));
  }
}

TEST(HyperionStore, JumpSuccessorTooFarForSixteenBitsIsZero) {
  // 256 children with 255-byte values: about 66,000 bytes under T 'a'.
  // Checked after every Put: the jump grows by each Put's change in size
  // until it no longer fits and is stored as 0.
  HyperionTrie store;
  const std::string value(255, 'v');
  for (int i = 0; i < 256; ++i) {
    ASSERT_FALSE(*store.Put(std::string{'a', char(i)}, value));
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << "after child " << i;
  }
  ASSERT_FALSE(*store.Put("b", "after"));
  const std::string nodes = RootNodes(store);
  ASSERT_EQ(uint8_t(nodes[0]) & hyperion::kJumpSuccessorFlag,
            hyperion::kJumpSuccessorFlag);
  EXPECT_EQ(
      hyperion::LoadJump(reinterpret_cast<const uint8_t*>(nodes.data()) + 2),
      0u);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  std::string v;
  ASSERT_TRUE(store.Get("b", &v));
  EXPECT_EQ(v, "after");
  // Below 65,536 bytes again, the jump is stored.
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(store.Delete(std::string{'a', char(i)}));
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus())
        << "after deleting child " << i;
  }
  EXPECT_NE(hyperion::LoadJump(
                reinterpret_cast<const uint8_t*>(RootNodes(store).data()) + 2),
            0u);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

TEST(HyperionStore, GetNthThroughChildContainers) {
  // Dense 8-byte keys: a chain of pointer children whose counts GetNth
  // must use to skip.
  HyperionTrie store;
  const uint64_t n = testing::Scaled(20'000, 3'000);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < n; ++i) {
    std::string k(8, '\0');
    uint64_t v = i * 7919;
    for (int b = 7; b >= 0; --b, v >>= 8) k[b] = char(v);
    keys.push_back(k);
    ASSERT_TRUE(store.Put(k, k.substr(6)).ok());
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  std::mt19937_64 rng(9);
  std::string k, v;
  for (int i = 0; i < 2000; ++i) {
    const uint64_t nth = rng() % n;
    ASSERT_TRUE(store.GetNth(nth, &k, &v));
    ASSERT_EQ(k, keys[nth]);
    ASSERT_EQ(v, keys[nth].substr(6));
  }
  EXPECT_FALSE(store.GetNth(n, &k, &v));
  ASSERT_TRUE(store.DeleteNth(0));
  ASSERT_TRUE(store.GetNth(0, &k, nullptr));
  EXPECT_EQ(k, keys[1]);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

// Every rank against a std::map, on keys of every shape in one store:
// three-letter ones (ending at T-nodes and S-nodes, in embedded
// containers), long random tails (suffix children) and dense three-byte
// ones (pointer children and their counts); then again after deleting a
// third of them.
TEST(HyperionGetNth, EveryRankAgainstAMap) {
  HyperionTrie store;
  std::mt19937_64 rng(23);
  std::map<std::string, std::string> model;
  const uint64_t n = testing::Scaled(3'000, 300);
  for (uint64_t i = 0; i < n; ++i) {
    std::string k;
    if (i % 3 == 0) {
      k.assign(1 + rng() % 6, ' ');
      for (char& c : k) c = char('a' + rng() % 3);
    } else if (i % 3 == 1) {
      k.assign(3 + rng() % 12, ' ');
      for (char& c : k) c = char('a' + rng() % 26);
    } else {
      const uint32_t v = uint32_t(i * 7);
      k = {'\x01', char(v >> 16), char(v >> 8), char(v)};
    }
    const std::string v = std::to_string(i);
    ASSERT_TRUE(store.Put(k, v).ok());
    model[k] = v;
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  const auto check_every_rank = [&] {
    ASSERT_EQ(store.Size(), model.size());
    uint64_t rank = 0;
    std::string k, v;
    for (const auto& [key, value] : model) {
      ASSERT_TRUE(store.GetNth(rank, &k, &v)) << rank;
      ASSERT_EQ(k, key) << rank;
      ASSERT_EQ(v, value) << rank;
      ++rank;
    }
    EXPECT_FALSE(store.GetNth(rank, &k, &v));
  };
  ASSERT_NO_FATAL_FAILURE(check_every_rank());
  std::vector<std::string> keys;
  for (const auto& [k, v] : model) keys.push_back(k);
  std::shuffle(keys.begin(), keys.end(), rng);
  keys.resize(keys.size() / 3);
  for (const std::string& k : keys) {
    ASSERT_TRUE(store.Delete(k)) << k;
    model.erase(k);
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  ASSERT_NO_FATAL_FAILURE(check_every_rank());
}

TEST(HyperionStore, ScanFromEveryKindOfStartPosition) {
  // Keys ending at T-nodes, at S-nodes, in suffixes, in embedded and in
  // pointed-to containers; scans start at each key, just before and just
  // after it, at each proper prefix and past the longest key allowed; each
  // runs whole and stopped after 1, 2 and 3 pairs. Once more with jump
  // tables everywhere, so that the descent starts at a table entry.
  const std::vector<std::string> keys = {
      "a",      "ab",     "abc",    "abcd",   "abcde",  "abd",    "b",
      "ba",     "bab",    "babab",  "bb",     "c",      "cat",    "cats",
      "catsz",  "dog",    "doge",   "dz",     "x",      "xyzzy1", "xyzzy2",
      "xyzzy3", "xyzzy4", "xyzzy5", "xyzzy6", "xyzzy7", "\xff",   "\xff\xff"};
  std::vector<std::string> starts = {"", "x" + std::string(kMaxKeySize, 'y')};
  for (const std::string& k : keys) {
    starts.push_back(k);
    starts.push_back(k + '\0');
    starts.push_back(k + "\xff");
    for (size_t i = 1; i < k.size(); ++i) starts.push_back(k.substr(0, i));
    std::string before = k;
    before.back() = char(uint8_t(before.back()) - 1);
    starts.push_back(before);
  }
  for (const HyperionOptions& options :
       {HyperionOptions{.embed_limit = 24}, HyperionOptions{.embed_limit = 24,
                                            .jump_successor = 0,
                                            .jump_table = 1,
                                            .jump_table_min = 0}}) {
    HyperionTrie store(options);
    std::map<std::string, std::string> oracle;
    for (const std::string& k : keys) {
      ASSERT_TRUE(store.Put(k, "v" + k).ok());
      oracle[k] = "v" + k;
    }
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
    const bool tables = options.jump_table_min == 0;
    if (tables) {
      ASSERT_NE(hyperion::ContainerJumpBits(static_cast<const uint8_t*>(
                    store.memory().Resolve(store.root()))),
                0u);
    }
    for (const std::string& start : starts) {
      const std::vector<std::pair<std::string, std::string>> expected(
          oracle.lower_bound(start), oracle.end());
      EXPECT_EQ(ScanAll(store, start), expected)
          << "from \"" << start << "\", tables " << tables;
      for (size_t limit = 1; limit <= 3; ++limit) {
        std::vector<std::pair<std::string, std::string>> seen;
        const uint64_t visited =
            store.Scan(start, [&](std::string_view k, std::string_view v) {
              seen.emplace_back(k, v);
              return seen.size() < limit;
            });
        const size_t want = std::min(limit, expected.size());
        EXPECT_EQ(visited, want) << "from \"" << start << "\"";
        EXPECT_TRUE(std::equal(seen.begin(), seen.end(), expected.begin()) &&
                    seen.size() == want)
            << "from \"" << start << "\", stopped after " << limit;
      }
    }
  }
}

// 40,000 random 8-byte keys under 16,384 two-byte prefixes, three in four
// deleted again. With embed 16 most prefixes get a small container of
// their own, which grows and shrinks chunk by chunk, so superbins 1-3 span
// several bins each, sparse after the deletes. Values are out of line.
const HyperionOptions kFragmenting{.inline_value = 4, .embed_limit = 16};

void FragmentWithRandomIntegers(HyperionTrie* store,
                                std::map<std::string, std::string>* oracle) {
  std::mt19937_64 rng(5);
  std::vector<std::string> keys;
  for (int i = 0; i < 40'000; ++i) {
    const uint64_t x = rng() & ~(uint64_t{0xc000} << 48);
    std::string key(8, '\0');
    for (int b = 0; b < 8; ++b) key[b] = char(x >> (56 - 8 * b));
    const std::string value = "value" + std::to_string(i);
    ASSERT_TRUE(store->Put(key, value).ok());
    (*oracle)[key] = value;
    keys.push_back(key);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 4 == 0) continue;
    ASSERT_TRUE(store->Delete(keys[i]));
    oracle->erase(keys[i]);
  }
}

std::vector<std::pair<std::string, std::string>> Sorted(
    const std::map<std::string, std::string>& oracle) {
  return {oracle.begin(), oracle.end()};
}

TEST(HyperionStore, CompactionForwardsEveryPointer) {
  HyperionTrie store(kFragmenting);
  std::map<std::string, std::string> oracle;
  FragmentWithRandomIntegers(&store, &oracle);
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  const uint64_t footprint = store.memory().Stats().FootprintBytes();
  const CompactionStats done = store.Compact();
  EXPECT_GT(done.chunks_moved, 0u);
  EXPECT_GT(done.bins_released, 0u);
  EXPECT_LT(store.memory().Stats().FootprintBytes(), footprint);
  // The checker resolves every pointer and accounts for every chunk.
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(ScanAll(store, ""), Sorted(oracle));
  // The moved containers and values take further changes.
  for (auto it = oracle.begin(); it != oracle.end();) {
    ASSERT_TRUE(store.Put(it->first, "again").ok());
    it->second = "again";
    ++it;
    if (it == oracle.end()) break;
    ASSERT_TRUE(store.Delete(it->first));
    it = oracle.erase(it);
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(ScanAll(store, ""), Sorted(oracle));
  // A second compaction right away finds little or nothing to move.
  store.Compact();
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

TEST(HyperionStore, CompactsByItselfPastTheThreshold) {
  HyperionOptions compacting = kFragmenting;
  compacting.compact = 50;
  HyperionTrie never(kFragmenting);
  HyperionTrie automatic(compacting);
  std::map<std::string, std::string> oracle_never, oracle_automatic;
  FragmentWithRandomIntegers(&never, &oracle_never);
  FragmentWithRandomIntegers(&automatic, &oracle_automatic);
  EXPECT_EQ(never.compactions(), 0u);
  EXPECT_GT(automatic.compactions(), 0u);
  ASSERT_EQ(automatic.CheckInvariants(), absl::OkStatus());
  EXPECT_EQ(ScanAll(automatic, ""), Sorted(oracle_automatic));
  EXPECT_LT(automatic.memory().Stats().FootprintBytes(),
            never.memory().Stats().FootprintBytes());
  // Off by default.
  EXPECT_EQ(HyperionOptions().compact, 0u);
}

TEST(HyperionStore, ExternalValuesAreFreedOnReplaceAndDelete) {
  HyperionTrie store(HyperionOptions{.inline_value = 8});
  const auto empty_usage = store.MemoryUsage();
  ASSERT_FALSE(*store.Put("key", std::string(100, 'a')));
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 2u);
  ASSERT_TRUE(*store.Put("key", "short"));
  EXPECT_EQ(store.memory().Stats().Total().chunks_in_use, 1u);
  ASSERT_TRUE(*store.Put("key", std::string(3000, 'b')));
  std::string v;
  ASSERT_TRUE(store.Get("key", &v));
  EXPECT_EQ(v, std::string(3000, 'b'));
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
  ASSERT_TRUE(store.Delete("key"));
  EXPECT_EQ(store.MemoryUsage(), empty_usage);
}

TEST(HyperionStore, RegisteredWithOptions) {
  StoreRegistry registry;
  RegisterStage5Stores(&registry);
  EXPECT_TRUE(registry.Make("hyperion").ok());
  EXPECT_TRUE(registry.Make("hyperion:inline_value=0:embed=16").ok());
  EXPECT_FALSE(registry.Make("hyperion:inline_value=256").ok());
  EXPECT_FALSE(registry.Make("hyperion:embed=8").ok());
  EXPECT_FALSE(registry.Make("hyperion:embed=256").ok());
  EXPECT_FALSE((*registry.Make("hyperion"))->IsThreadSafe());
}

// The public header's interface, on a store from NewHyperionStore.
TEST(HyperionStore, MadeByNewHyperionStore) {
  std::unique_ptr<HyperionStore> store = NewHyperionStore();
  EXPECT_EQ(store->Name(), "hyperion");
  EXPECT_TRUE(store->root().IsNull());
  for (int i = 0; i < 3000; ++i) {
    ASSERT_TRUE(store->Put(absl::StrCat("key", i * 7919 % 3000), "v").ok());
  }
  EXPECT_EQ(store->Size(), 3000u);
  ASSERT_FALSE(store->root().IsNull());
  EXPECT_NE(store->DumpContainer(store->root()), "");
  EXPECT_NE(store->DebugString(), "");
  EXPECT_GT(store->memory().Stats().Total().held_bytes, 0u);
  EXPECT_EQ(store->compactions(), 0u);
  store->Compact();
  EXPECT_EQ(store->compactions(), 1u);
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  std::string value;
  EXPECT_TRUE(store->Get("key2999", &value));
  EXPECT_EQ(value, "v");
}

TEST(HyperionStore, ByteSizedLimitsAreCappedWhenBuiltFromAStruct) {
  // A length byte holds 255: a longer "inline" value or embedded container
  // would overflow it (and the encoding buffer) instead of being stored.
  HyperionTrie store(
      HyperionOptions{.inline_value = 1000, .embed_limit = 1000});
  const std::string value(300, 'v');
  std::map<std::string, std::string> model;
  for (int i = 0; i < 200; ++i) {
    const std::string key = "k" + std::to_string(i * 7919 % 1000);
    model[key] = value + key;
    ASSERT_TRUE(store.Put(key, model[key]).ok());
  }
  for (const auto& [key, want] : model) {
    std::string got;
    ASSERT_TRUE(store.Get(key, &got)) << key;
    EXPECT_EQ(got, want) << key;
  }
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

TEST(HyperionStore, CheckerCatchesCorruption) {
  // The checker must be able to fail: break a count, a free byte, a delta.
  HyperionTrie store(HyperionOptions{.embed_limit = 16});
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(store.Put("prefix" + std::to_string(i), "v").ok());
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  auto* c = static_cast<uint8_t*>(store.memory().Resolve(store.root()));
  const uint32_t used = hyperion::ContainerUsed(c);
  if (used < hyperion::ContainerSize(c)) {
    c[used] = 0x01;
    EXPECT_NE(store.CheckInvariants(), absl::OkStatus());
    c[used] = 0;
  }
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  // T 'p', then S 'r' pointing to the ejected rest: [45 'r'][hp][count].
  ASSERT_EQ(c[5], 'p');
  ASSERT_EQ(c[6], 0x45);
  ++c[13];  // a wrong key count
  EXPECT_NE(store.CheckInvariants(), absl::OkStatus());
  --c[13];
  c[6] = 0x46;  // S 'r' claims a key of its own: one key too many
  EXPECT_NE(store.CheckInvariants(), absl::OkStatus());
  c[6] = 0x45;
  ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
  // A chunk nothing references: a leak.
  auto& mm = const_cast<MemoryManager&>(store.memory());
  const HyperionPointer leak = mm.Allocate(40);
  EXPECT_NE(store.CheckInvariants(), absl::OkStatus());
  mm.Free(leak);
  EXPECT_EQ(store.CheckInvariants(), absl::OkStatus());
}

}  // namespace
}  // namespace kvlab::stage5
