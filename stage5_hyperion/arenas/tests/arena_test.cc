// The arena store (kvlab/stage5/arena_store.h) on one thread: its options,
// where keys go, GetNth/DeleteNth/Scan across arenas against a sorted
// copy, and its per-arena checks and export. The concurrent behaviour is
// arena_concurrent_test.cc's.

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/locked_store.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/stores.h"
#include "kvlab/string_view_compat.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab::stage5 {
namespace {

using testing::Contents;
using testing::Oracle;

std::unique_ptr<KVStore> Make(const std::string& spec) {
  StoreRegistry registry;
  RegisterStage5Stores(&registry);
  absl::StatusOr<std::unique_ptr<KVStore>> made = registry.Make(spec);
  EXPECT_TRUE(made.ok()) << spec << ": " << made.status();
  return made.ok() ? *std::move(made) : nullptr;
}

TEST(HyperionArenas, Options) {
  StoreRegistry registry;
  RegisterStage5Stores(&registry);
  for (const char* spec :
       {"hyperion:arenas=1", "hyperion:arenas=256", "hyperion:arenas=3:lock=rw",
        "hyperion:arenas=2:lock=mutex:embed=16",
        "hyperion:arenas=4:partition=byte",
        "hyperion:arenas=4:partition=balanced:lock=mutex",
        "hyperion:arenas=5:lock=leftright"}) {
    absl::StatusOr<std::unique_ptr<KVStore>> made = registry.Make(spec);
    ASSERT_TRUE(made.ok()) << spec;
    EXPECT_TRUE((*made)->IsThreadSafe()) << spec;
    EXPECT_EQ((*made)->Name(), "hyperion");
    // kvbench and the course API then use it as it is, without the global
    // lock.
    KVStore* raw = made->get();
    EXPECT_EQ(MakeThreadSafe(*std::move(made)).get(), raw) << spec;
  }
  for (const char* spec :
       {"hyperion:arenas=0", "hyperion:arenas=257", "hyperion:arenas=x",
        "hyperion:arenas=2:lock=ticket", "hyperion:lock=rw",
        "hyperion:arenas=2:embed=8", "hyperion:partition=balanced",
        "hyperion:arenas=2:partition=range",
        // Balanced routing is checked under a lock left-right readers do
        // not take.
        "hyperion:arenas=2:partition=balanced:lock=leftright"}) {
    EXPECT_FALSE(registry.Make(spec).ok()) << spec;
  }
}

// Every first byte and the empty key, a few keys each.
Oracle KeysOfEveryFirstByte() {
  Oracle keys;
  keys[""] = "empty";
  for (int b = 0; b < 256; ++b) {
    const std::string first(1, char(b));
    for (const char* tail : {"", "a", "ab", "b\xff", "zzzz"}) {
      keys[first + tail] = absl::StrCat(b, tail);
    }
  }
  return keys;
}

TEST(HyperionArenas, KeysLiveInTheArenaOfTheirFirstByte) {
  for (const auto& [n, lock] : {std::pair{1u, ArenaOptions::Lock::kSpin},
                                {2u, ArenaOptions::Lock::kSpin},
                                {3u, ArenaOptions::Lock::kSpin},
                                {16u, ArenaOptions::Lock::kSpin},
                                {256u, ArenaOptions::Lock::kSpin},
                                {1u, ArenaOptions::Lock::kLeftRight},
                                {3u, ArenaOptions::Lock::kLeftRight},
                                {256u, ArenaOptions::Lock::kLeftRight}}) {
    SCOPED_TRACE(absl::StrCat(n, " arenas, lock ", int(lock)));
    std::unique_ptr<HyperionArenaStore> store =
        NewHyperionArenaStore({}, {.arenas = n, .lock = lock});
    ASSERT_EQ(store->arena_count(), n);
    const Oracle keys = KeysOfEveryFirstByte();
    for (const auto& [k, v] : keys) ASSERT_TRUE(store->Put(k, v).ok());
    EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
    EXPECT_EQ(store->Size(), keys.size());
    EXPECT_EQ(Contents(*store), keys);
    uint64_t total = 0;
    size_t memory = 0;
    for (size_t a = 0; a < n; ++a) {
      const HyperionStore& arena = store->arena(a);
      total += arena.Size();
      memory += *arena.MemoryUsage();
      arena.Scan("", [&](std::string_view k, std::string_view) {
        EXPECT_EQ(k.empty() ? 0 : uint8_t(k[0]) % n, a) << k;
        return true;
      });
    }
    EXPECT_EQ(total, keys.size());
    EXPECT_GT(*store->MemoryUsage(), memory);
    // Both copies counted: arena(a) is the one readers use.
    if (lock == ArenaOptions::Lock::kLeftRight) {
      EXPECT_GT(*store->MemoryUsage(), 2 * memory);
    }
    // GetNth across the arenas is the sorted order.
    uint64_t i = 0;
    for (const auto& [k, v] : keys) {
      std::string key, value;
      ASSERT_TRUE(store->GetNth(i++, &key, &value));
      EXPECT_EQ(key, k);
      EXPECT_EQ(value, v);
    }
    EXPECT_FALSE(store->GetNth(keys.size(), nullptr, nullptr));
    // DeleteNth from the back, then the middle, then the front.
    Oracle left = keys;
    for (uint64_t n_th : {uint64_t(keys.size() - 1), uint64_t(600), 0ul}) {
      ASSERT_TRUE(store->DeleteNth(n_th));
      left.erase(std::next(left.begin(), n_th));
    }
    EXPECT_FALSE(store->DeleteNth(left.size()));
    EXPECT_EQ(Contents(*store), left);
    EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  }
}

TEST(HyperionArenas, ScanCopiesBatchesAndResumesInOrder) {
  // Far more than a batch under one first byte, and keys on both sides.
  std::unique_ptr<HyperionArenaStore> store =
      NewHyperionArenaStore({}, {.arenas = 3});
  Oracle model;
  for (int i = 0; i < 1000; ++i) {
    model[absl::StrCat("m", i)] = absl::StrCat(i);
    model[absl::StrCat(i % 7 == 0 ? "l" : "n", i)] = "x";
  }
  model[std::string(1024, 'm')] = "longest";  // resumes from a longest key
  for (const auto& [k, v] : model) ASSERT_TRUE(store->Put(k, v).ok());
  for (const std::string start : {"", "m", "m5", "m999", "mz", "n", "zz"}) {
    for (uint64_t limit : {1ul, 63ul, 64ul, 65ul, 129ul, 100000ul}) {
      std::vector<std::string> want;
      for (auto it = model.lower_bound(start);
           it != model.end() && want.size() < limit; ++it) {
        want.push_back(it->first + "=" + it->second);
      }
      std::vector<std::string> got;
      const uint64_t visited =
          store->Scan(start, [&](std::string_view k, std::string_view v) {
            got.push_back(absl::StrCat(ToAbsl(k), "=", ToAbsl(v)));
            return got.size() < limit;
          });
      EXPECT_EQ(got, want) << start << " " << limit;
      EXPECT_EQ(visited, want.size());
    }
  }
}

TEST(HyperionArenas, CheckerNamesAMisplacedOrMiscountedKey) {
  // The checker must be able to fail: a key put into the wrong arena
  // behind the store's back (a const_cast no user may do) is both
  // misplaced and uncounted.
  std::unique_ptr<HyperionArenaStore> store =
      NewHyperionArenaStore({}, {.arenas = 4});
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(store->Put(absl::StrCat(i), "v").ok());
  }
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  const_cast<HyperionStore&>(store->arena(1)).Put("\x02key", "v").IgnoreError();
  const absl::Status status = store->CheckInvariants();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("arena 1"), std::string_view::npos) << status;
}

TEST(HyperionArenas, SingleThreadedDifferential) {
  for (const char* spec :
       {"hyperion:arenas=1", "hyperion:arenas=3:lock=rw",
        "hyperion:arenas=16:split_above=64:embed=16",
        "hyperion:arenas=256:lock=mutex",
        "hyperion:arenas=2:partition=balanced",
        "hyperion:arenas=16:partition=balanced:split_above=64:embed=16",
        "hyperion:arenas=3:lock=leftright:embed=16"}) {
    SCOPED_TRACE(spec);
    std::unique_ptr<KVStore> store = Make(spec);
    ASSERT_NE(store, nullptr);
    testing::DifferentialOptions options;
    options.operations = testing::Scaled(20'000, 500);
    uint64_t ops = 0;
    options.after_each_operation = [&](const KVStore& s) {
      if (++ops % 97 == 0) {
        ASSERT_EQ(s.CheckInvariants(), absl::OkStatus());
      }
    };
    testing::RunDifferential(store.get(), options);
    EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  }
}

// Keys that share their first 23 bytes, as urls do, in a shuffled order.
std::vector<std::string> SkewedKeys(size_t count) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < count; ++i) {
    keys.push_back(absl::StrCat("http://www.example.com/", i * 7919 % count));
  }
  return keys;
}

// The byte partition puts keys sharing their first byte into one arena; the
// balanced one spreads them over all, contiguous, in key order.
TEST(HyperionArenas, BalancedPartitionSpreadsSkewedKeys) {
  constexpr uint32_t kArenas = 8;
  const std::vector<std::string> keys = SkewedKeys(20000);
  std::unique_ptr<HyperionArenaStore> byte =
      NewHyperionArenaStore({}, {.arenas = kArenas});
  std::unique_ptr<HyperionArenaStore> store = NewHyperionArenaStore(
      {}, {.arenas = kArenas, .partition = ArenaOptions::Partition::kBalanced});
  Oracle model;
  for (const std::string& k : keys) {
    ASSERT_TRUE(byte->Put(k, k).ok());
    ASSERT_TRUE(store->Put(k, k).ok());
    model[k] = k;
  }
  EXPECT_EQ(byte->arena(uint8_t('h') % kArenas).Size(), keys.size());
  EXPECT_EQ(byte->repartitions(), 0u);
  // Grown by half from a few keys per arena to 2,500: about a dozen times.
  EXPECT_GE(store->repartitions(), 5u);
  EXPECT_LE(store->repartitions(), 20u);
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  const uint64_t share = keys.size() / kArenas;
  std::string last;
  for (size_t a = 0; a < kArenas; ++a) {
    const HyperionStore& arena = store->arena(a);
    // Within the slack of a kept split and the growth since the last
    // repartition.
    EXPECT_GE(arena.Size(), share / 4) << a;
    EXPECT_LE(arena.Size(), 2 * share) << a;
    arena.Scan("", [&](std::string_view k, std::string_view) {
      EXPECT_LT(last, k) << "arena " << a << " out of order";
      last = k;
      return true;
    });
  }
  EXPECT_EQ(Contents(*store), model);
  uint64_t i = 0;
  for (const auto& [k, v] : model) {
    if (i % 97 == 0) {
      std::string key;
      ASSERT_TRUE(store->GetNth(i, &key, nullptr));
      EXPECT_EQ(key, k);
    }
    ++i;
  }
  // Deleting the first half empties the low arenas; nothing misroutes.
  for (size_t n = 0; n < keys.size() / 2; ++n) {
    ASSERT_TRUE(store->DeleteNth(0));
    model.erase(model.begin());
  }
  EXPECT_EQ(Contents(*store), model);
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
}

TEST(HyperionArenas, BalancedCheckerNamesAMisplacedOrMiscountedKey) {
  std::unique_ptr<HyperionArenaStore> store = NewHyperionArenaStore(
      {}, {.arenas = 4, .partition = ArenaOptions::Partition::kBalanced});
  for (const std::string& k : SkewedKeys(500)) {
    ASSERT_TRUE(store->Put(k, "v").ok());
  }
  ASSERT_GT(store->repartitions(), 0u);
  EXPECT_EQ(store->CheckInvariants(), absl::OkStatus());
  // A key of arena 3's range put into arena 1 behind the store's back.
  const_cast<HyperionStore&>(store->arena(1)).Put("\xff", "v").IgnoreError();
  const absl::Status status = store->CheckInvariants();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("arena 1 holds key"), std::string_view::npos)
      << status;
}

TEST(HyperionArenas, ExportsEachArenaAsACluster) {
  std::unique_ptr<HyperionArenaStore> store =
      NewHyperionArenaStore({}, {.arenas = 3});
  for (const char* k : {"apple", "banana", "cherry", "date", "\xff"}) {
    ASSERT_TRUE(store->Put(k, "v").ok());
  }
  for (int i = 0; i < 3000; ++i) {  // containers below the roots
    ASSERT_TRUE(store->Put(absl::StrCat("apple", i), "v").ok());
  }
  StructureGraph graph;
  ASSERT_EQ(store->ExportStructure({}, &graph), absl::OkStatus());
  std::set<std::string> ids, clusters;
  for (const StructureCluster& c : graph.clusters) clusters.insert(c.id);
  for (const StructureNode& n : graph.nodes) {
    EXPECT_TRUE(ids.insert(n.id).second) << "duplicate id " << n.id;
    EXPECT_TRUE(clusters.count(n.cluster)) << n.id << " in " << n.cluster;
  }
  for (const char* c : {"arena0", "arena1", "arena2"}) {
    EXPECT_TRUE(clusters.count(c)) << c;
  }
  for (const StructureEdge& e : graph.edges) {
    EXPECT_TRUE(ids.count(e.from) && ids.count(e.to)) << e.from << e.to;
  }
  StructureGraph small;
  StructureOptions one;
  one.max_nodes = 1;
  ASSERT_EQ(store->ExportStructure(one, &small), absl::OkStatus());
  size_t per_arena = 0;  // the limits apply to each arena alone
  for (size_t a = 0; a < 3; ++a) {
    StructureGraph part;
    ASSERT_EQ(store->arena(a).ExportStructure(one, &part), absl::OkStatus());
    per_arena += part.nodes.size();
  }
  EXPECT_EQ(small.nodes.size(), per_arena);
  EXPECT_LT(small.nodes.size(), graph.nodes.size());
  StructureOptions from;
  from.has_from_key = true;
  from.from_key = "a";
  StructureGraph refused;
  EXPECT_FALSE(store->ExportStructure(from, &refused).ok());
}

}  // namespace
}  // namespace kvlab::stage5
