// Stage 5 when memory runs out: the memory manager's calls either succeed
// or throw std::bad_alloc having changed nothing (memory_manager.h), the
// store keeps kv_store.h's contract on the paths the common sweep reaches
// rarely (values in heap blocks, splits and jump tables at every write,
// compaction), and a process whose address space is used up gets
// ResourceExhausted and a store that still works.
//
// The k-th allocation fails for every k (failing_allocator.h); builds
// without a sanitizer also fail malloc, realloc and mmap.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hyperion_trie.h"
#include "kvlab/stage5/arena_store.h"
#include "kvlab/stage5/memory_manager.h"
#include "kvlab/testing/allocation_failure.h"
#include "kvlab/testing/failing_allocator.h"

namespace kvlab::testing {
// This binary links the shared test library for the sweep only.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);
}  // namespace kvlab::testing

namespace kvlab::stage5 {
namespace {

using kvlab::testing::FailingAllocations;

// Live allocations of a manager and the bytes each must hold. Its own
// bookkeeping allocates, so it pauses `failing` meanwhile.
class Contents {
 public:
  Contents(MemoryManager* mm, FailingAllocations* failing)
      : mm_(mm), failing_(failing) {}

  // Fills `hp` (of `size` bytes) with bytes of its own and tracks it.
  void Track(HyperionPointer hp, size_t size) {
    Paused paused(failing_);
    std::string bytes(size, '\0');
    for (size_t i = 0; i < size; ++i) bytes[i] = char(next_++ * 131 + i);
    std::memcpy(mm_->Resolve(hp), bytes.data(), size);
    live_.emplace_back(hp, std::move(bytes));
  }
  // Allocation i was resized to `size` bytes, now at `to`: its bytes are
  // kept up to the smaller size, and the rest is filled anew.
  void Resized(size_t i, HyperionPointer to, size_t size) {
    Paused paused(failing_);
    auto& [hp, bytes] = live_[i];
    hp = to;
    const size_t kept = std::min(bytes.size(), size);
    bytes.resize(size);
    for (size_t b = kept; b < size; ++b) bytes[b] = char(next_++ + b);
    std::memcpy(mm_->Resolve(to), bytes.data(), size);
  }
  HyperionPointer Get(size_t i) const { return live_[i].first; }
  void set_failing(FailingAllocations* failing) { failing_ = failing; }
  void ForwardAll() {
    for (auto& entry : live_) entry.first = mm_->Forward(entry.first);
  }
  // Every tracked allocation has its size and bytes.
  void Check(const std::string& where) const {
    for (const auto& [hp, bytes] : live_) {
      ASSERT_EQ(mm_->Size(hp), bytes.size()) << where;
      ASSERT_EQ(std::memcmp(mm_->Resolve(hp), bytes.data(), bytes.size()), 0)
          << where;
    }
  }

 private:
  class Paused {
   public:
    explicit Paused(FailingAllocations* failing) : failing_(failing) {
      if (failing_ != nullptr) failing_->Pause();
    }
    ~Paused() {
      if (failing_ != nullptr) failing_->Resume();
    }

   private:
    FailingAllocations* failing_;
  };

  MemoryManager* mm_;
  FailingAllocations* failing_;
  std::vector<std::pair<HyperionPointer, std::string>> live_;
  int next_ = 0;
};

using ManagerStep = std::function<void(MemoryManager*, Contents*)>;

// Runs `steps` (one call each that may allocate) on a manager set up by
// `setup`, the k-th allocation failing (and every later one if
// `persistent`), for k = 1, 2, ... until a run makes fewer than k
// allocations. A call that throws must leave the manager consistent, and
// its statistics and every allocation as they were.
void SweepManager(const ManagerStep& setup,
                  const std::vector<ManagerStep>& steps, bool persistent) {
  for (uint64_t k = 1;; ++k) {
    MemoryManager mm;
    bool reached;
    {
      Contents contents(&mm, nullptr);
      setup(&mm, &contents);
      FailingAllocations failing(k, persistent);
      failing.Pause();
      contents.set_failing(&failing);
      for (size_t i = 0; i < steps.size(); ++i) {
        const std::string where = "allocation " + std::to_string(k) +
                                  " failing, step " + std::to_string(i);
        const SuperbinStats before = mm.Stats().Total();
        failing.Resume();
        try {
          steps[i](&mm, &contents);
          failing.Pause();
        } catch (const std::bad_alloc&) {
          failing.Pause();
          ASSERT_FALSE(mm.compacting()) << where;
          const SuperbinStats after = mm.Stats().Total();
          EXPECT_EQ(after.chunks_in_use, before.chunks_in_use) << where;
          EXPECT_EQ(after.requested_bytes, before.requested_bytes) << where;
          EXPECT_EQ(after.extended_heap_bytes, before.extended_heap_bytes)
              << where;
        }
        ASSERT_EQ(mm.CheckConsistency(), absl::OkStatus()) << where;
        contents.Check(where);
        if (::testing::Test::HasFailure()) return;
      }
      reached = failing.allocations() >= k;
      contents.set_failing(nullptr);
      // Memory is back: the manager works as before.
      contents.Track(mm.Allocate(3000), 3000);
      contents.Check("after the run failing allocation " + std::to_string(k));
      ASSERT_EQ(mm.CheckConsistency(), absl::OkStatus());
    }
    if (!reached) break;
  }
}

// A manager with allocations in a few classes and the heap, and a
// fragmented class (superbin 2: two bins a quarter full) to compact.
void FragmentedManager(MemoryManager* mm, Contents* contents) {
  for (size_t size : {40, 100, 2000, 3000, 9000}) {
    contents->Track(mm->Allocate(size), size);
  }
  std::vector<HyperionPointer> small;
  for (size_t i = 0; i < 2 * kChunksPerBin; ++i) {
    small.push_back(mm->Allocate(64));
  }
  for (size_t i = 0; i < small.size(); ++i) {
    if (i % 4 == 0) {
      contents->Track(small[i], 64);
    } else {
      mm->Free(small[i]);
    }
  }
}

// Calls that need a new bin (a class not used yet), a heap block, a block
// that moves, a chunk that changes class, and a compaction.
std::vector<ManagerStep> ManagerSteps() {
  auto allocate = [](size_t size) {
    return [size](MemoryManager* mm, Contents* contents) {
      contents->Track(mm->Allocate(size), size);
    };
  };
  // Resizes tracked allocation i (FragmentedManager's first five are 40,
  // 100, 2000, 3000 and 9000 bytes) to `size`.
  auto resize = [](size_t i, size_t size) {
    return [i, size](MemoryManager* mm, Contents* contents) {
      contents->Resized(i, mm->Reallocate(contents->Get(i), size), size);
    };
  };
  return {
      allocate(200),
      allocate(1500),
      allocate(5000),
      allocate(20000),
      resize(0, 400),   // a new class
      resize(3, 7000),  // a heap block that moves
      resize(4, 100),   // from the heap into a bin
      resize(1, 2500),  // from a bin to the heap
      [](MemoryManager* mm, Contents* contents) {
        EXPECT_GT(mm->BeginCompaction().bins_released, 0u);
        contents->ForwardAll();
        mm->FinishCompaction();
      },
  };
}

TEST(MemoryManagerOutOfMemory, EachAllocationFailingOnce) {
  SweepManager(FragmentedManager, ManagerSteps(), /*persistent=*/false);
}

TEST(MemoryManagerOutOfMemory, MemoryGoneForGoodFromEachAllocation) {
  SweepManager(FragmentedManager, ManagerSteps(), /*persistent=*/true);
}

// The store on the paths the common sweep reaches rarely: values up to
// kMaxValueSize in heap blocks, containers split and jump tables rebuilt at
// nearly every write, every T-node with jump structures.
std::unique_ptr<KVStore> BusyStore() {
  return std::make_unique<HyperionTrie>(
      HyperionOptions{.inline_value = 16,
                      .embed_limit = 16,
                      .jump_successor = 1,
                      .tnode_table = 2,
                      .tnode_table_keys = 0,
                      .jump_table = 1,
                      .jump_table_min = 0,
                      .split_above = 256,
                      .split_large_above = 128,
                      .large_node = 1});
}

kvlab::testing::AllocationFailureOptions BusyOptions() {
  kvlab::testing::AllocationFailureOptions options;
  options.operations = 150;
  options.preload = 150;
  options.max_value_length = kMaxValueSize;
  return options;
}

TEST(HyperionOutOfMemory, BusyStoreEachAllocationFailingOnce) {
  kvlab::testing::RunAllocationFailureSweep(BusyStore, BusyOptions());
}

TEST(HyperionOutOfMemory, BusyStoreMemoryGoneForGood) {
  kvlab::testing::AllocationFailureOptions options = BusyOptions();
  options.persistent = true;
  kvlab::testing::RunAllocationFailureSweep(BusyStore, options);
}

// The same store with key pre-processing: a failed write leaves the images
// as they were, and the caller sees its own keys.
TEST(HyperionOutOfMemory, PreprocessedBusyStoreEachAllocationFailingOnce) {
  kvlab::testing::RunAllocationFailureSweep(
      [] {
        return std::unique_ptr<KVStore>(
            NewHyperionStore(HyperionOptions{.inline_value = 16,
                                             .embed_limit = 16,
                                             .jump_table = 1,
                                             .jump_table_min = 0,
                                             .split_above = 256,
                                             .preprocess = true}));
      },
      BusyOptions());
}

// Arenas under lock=leftright: a write whose second copy finds no memory
// has succeeded (readers see the first copy), and the arena's next write
// replays it onto that copy before changing it, or fails having changed
// nothing. Two arenas, so that a change left pending in one waits while
// the other is written.
std::unique_ptr<KVStore> LeftRightArenas() {
  return NewHyperionArenaStore(
      HyperionOptions{.inline_value = 16,
                      .embed_limit = 16,
                      .jump_table = 1,
                      .jump_table_min = 0,
                      .split_above = 256},
      {.arenas = 2, .lock = ArenaOptions::Lock::kLeftRight});
}

// Fewer operations than BusyOptions: every write allocates twice as often.
kvlab::testing::AllocationFailureOptions LeftRightOptions() {
  kvlab::testing::AllocationFailureOptions options = BusyOptions();
  options.operations = 80;
  options.preload = 80;
  return options;
}

TEST(HyperionOutOfMemory, LeftRightArenasEachAllocationFailingOnce) {
  kvlab::testing::RunAllocationFailureSweep(LeftRightArenas,
                                            LeftRightOptions());
}

TEST(HyperionOutOfMemory, LeftRightArenasMemoryGoneForGood) {
  kvlab::testing::AllocationFailureOptions options = LeftRightOptions();
  options.persistent = true;
  kvlab::testing::RunAllocationFailureSweep(LeftRightArenas, options);
}

// Arenas over contiguous ranges: a store that grows from a few keys
// repartitions several times during the sweep, and a failed allocation
// inside a repartition must leave the store as it was.
TEST(HyperionOutOfMemory, BalancedArenasEachAllocationFailingOnce) {
  kvlab::testing::AllocationFailureOptions options;
  options.preload = 10;
  options.operations = 250;
  kvlab::testing::RunAllocationFailureSweep(
      [] {
        return std::unique_ptr<KVStore>(NewHyperionArenaStore(
            {},
            {.arenas = 3, .partition = ArenaOptions::Partition::kBalanced}));
      },
      options);
}

// The Put that sets off a repartition, with each allocation failing in
// turn: the Put fails cleanly, or succeeds with the repartition whole or
// not at all.
TEST(HyperionOutOfMemory, RepartitionFindingNoMemory) {
  auto make = [] {
    return NewHyperionArenaStore(
        {}, {.arenas = 4, .partition = ArenaOptions::Partition::kBalanced});
  };
  std::vector<std::string> keys;
  for (int i = 0; i < 200; ++i) {
    keys.push_back("http://www.example.com/" + std::to_string(i * 37 % 200));
  }
  size_t trigger = 0;  // the Put that repartitions first
  {
    std::unique_ptr<HyperionArenaStore> store = make();
    while (trigger < keys.size()) {
      ASSERT_TRUE(store->Put(keys[trigger], "v").ok());
      if (store->repartitions() > 0) break;
      ++trigger;
    }
    ASSERT_LT(trigger, keys.size());
  }
  bool kept_put_without_repartition = false;
  for (uint64_t k = 1;; ++k) {
    std::unique_ptr<HyperionArenaStore> store = make();
    std::map<std::string, std::string> model;
    for (size_t i = 0; i < trigger; ++i) {
      ASSERT_TRUE(store->Put(keys[i], "v").ok());
      model[keys[i]] = "v";
    }
    absl::StatusOr<bool> put;
    bool reached;
    {
      FailingAllocations failing(k);
      put = store->Put(keys[trigger], "v");
      reached = failing.allocations() >= k;
    }
    const std::string where = "allocation " + std::to_string(k) + " failing";
    if (put.ok()) {
      model[keys[trigger]] = "v";
      if (store->repartitions() == 0) kept_put_without_repartition = true;
    } else {
      EXPECT_TRUE(absl::IsResourceExhausted(put.status())) << where;
      EXPECT_EQ(store->repartitions(), 0u) << where;
    }
    ASSERT_EQ(store->CheckInvariants(), absl::OkStatus()) << where;
    ASSERT_EQ(store->Size(), model.size()) << where;
    std::map<std::string, std::string> contents;
    store->Scan("", [&](std::string_view key, std::string_view value) {
      contents[std::string(key)] = value;
      return true;
    });
    ASSERT_EQ(contents, model) << where;
    if (!reached) {
      EXPECT_EQ(store->repartitions(), 1u);
      break;
    }
  }
  // Some failure fell inside the repartition, after the Put's own write.
  EXPECT_TRUE(kept_put_without_repartition);
}

// A store whose bins are fragmented: 12,000 keys, each value in a chunk of
// its own (superbin 2), two of every three deleted again.
void FragmentedStore(HyperionTrie* store, std::map<std::string, int>* model) {
  std::vector<std::string> keys;
  for (int i = 0; i < 12000; ++i) {
    const std::string key = "k" + std::to_string(i * 7919 % 12000);
    ASSERT_TRUE(store->Put(key, std::string(40, char(i))).ok());
    (*model)[key] = i;
    keys.push_back(key);
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i % 3 == 0) continue;
    ASSERT_TRUE(store->Delete(keys[i]));
    model->erase(keys[i]);
  }
}

// Compact() either compacts or throws std::bad_alloc having moved nothing.
TEST(HyperionOutOfMemory, CompactionFindingNoMemory) {
  for (uint64_t k = 1;; ++k) {
    HyperionTrie store(HyperionOptions{.inline_value = 0});
    std::map<std::string, int> model;
    FragmentedStore(&store, &model);
    if (::testing::Test::HasFatalFailure()) return;
    bool reached, threw = false;
    CompactionStats stats;
    {
      FailingAllocations failing(k);
      try {
        stats = store.Compact();
      } catch (const std::bad_alloc&) {
        threw = true;
      }
      reached = failing.allocations() >= k;
    }
    const std::string where = "allocation " + std::to_string(k) + " failing";
    EXPECT_TRUE(threw || stats.bins_released > 0) << where;
    ASSERT_EQ(store.CheckInvariants(), absl::OkStatus()) << where;
    ASSERT_EQ(store.Size(), model.size()) << where;
    for (const auto& [key, i] : model) {
      std::string value;
      ASSERT_TRUE(store.Get(key, &value)) << where;
      ASSERT_EQ(value, std::string(40, char(i))) << where;
    }
    if (!reached) break;
  }
}

// The bytes of address space this process has mapped, from /proc.
uint64_t MappedBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    unsigned long long kib;
    if (std::sscanf(line.c_str(), "VmSize: %llu kB", &kib) == 1) {
      return kib * 1024;
    }
  }
  return 0;
}

// What the child reports through its exit status.
enum ChildResult {
  kChildOk = 0,
  kNoLimit = 10,        // setrlimit failed
  kFullTooSoon,         // no pair could be put under the limit
  kWrongStatus,         // a Put failed otherwise than ResourceExhausted
  kBrokenAfterFull,     // invariants or an acknowledged pair wrong
  kBrokenAfterDeletes,  // the same after the deletes
  kNoPutAfterDeletes,   // deleting half freed no room for one more Put
};

// The child puts kEnoughPairs pairs before it limits itself, so that the
// store's bins of most chunk sizes are mapped (one of each size would
// reserve 252 MiB of address space), and then allows kHeadroom more.
constexpr uint64_t kEnoughPairs = 5000;
constexpr uint64_t kHeadroom = uint64_t{16} << 20;

// Pair i, written into a buffer kept from the start: once memory is out,
// the child must not need any to name a key.
class Pairs {
 public:
  Pairs() : values_(150, 'v') {}
  std::string_view Key(uint64_t i) {
    const int n = std::snprintf(key_, sizeof(key_), "key/%llu/%llu",
                                (unsigned long long)(i * 2654435761u % 1000003),
                                (unsigned long long)i);
    return std::string_view(key_, size_t(n));
  }
  std::string_view Value(uint64_t i) const {
    return std::string_view(values_).substr(0, 100 + i % 50);
  }

 private:
  char key_[64];
  std::string values_;
};

// In a child: puts kEnoughPairs pairs, limits its address space to
// `headroom` bytes more than it has mapped then, fills the store until Put
// says ResourceExhausted, checks it, deletes every other pair and puts
// again. Returns a ChildResult.
int FillUntilFull(uint64_t headroom) {
  Pairs pairs;
  std::string value;
  value.reserve(kMaxValueSize);
  // Reading needs no memory but for the value copied out.
  auto holds = [&](auto& store, uint64_t i) {
    return store.Get(pairs.Key(i), &value) && value == pairs.Value(i);
  };
  HyperionTrie store;
  uint64_t stored = 0;
  for (; stored < kEnoughPairs; ++stored) {
    if (!store.Put(pairs.Key(stored), pairs.Value(stored)).ok()) {
      return kWrongStatus;
    }
  }
  const uint64_t limit = MappedBytes() + headroom;
  const rlimit rl{limit, limit};
  if (setrlimit(RLIMIT_AS, &rl) != 0) return kNoLimit;
  for (;; ++stored) {
    const absl::StatusOr<bool> put =
        store.Put(pairs.Key(stored), pairs.Value(stored));
    if (put.ok()) continue;
    if (put.status().code() != absl::StatusCode::kResourceExhausted) {
      return kWrongStatus;
    }
    break;
  }
  if (stored == kEnoughPairs) return kFullTooSoon;
  if (!store.CheckInvariants().ok() || store.Size() != stored) {
    return kBrokenAfterFull;
  }
  for (uint64_t i = 0; i < stored; ++i) {
    if (!holds(store, i)) return kBrokenAfterFull;
  }
  uint64_t deleted = 0;
  for (uint64_t i = 0; i < stored; i += 2) {
    try {
      if (store.Delete(pairs.Key(i))) ++deleted;
    } catch (const std::bad_alloc&) {
    }
  }
  uint64_t put_again = 0;
  for (uint64_t i = stored; i < stored + deleted; ++i) {
    const absl::StatusOr<bool> put = store.Put(pairs.Key(i), pairs.Value(i));
    if (put.ok()) {
      ++put_again;
    } else if (put.status().code() != absl::StatusCode::kResourceExhausted) {
      return kWrongStatus;
    }
  }
  if (put_again == 0) return kNoPutAfterDeletes;
  if (!store.CheckInvariants().ok() ||
      store.Size() != stored - deleted + put_again) {
    return kBrokenAfterDeletes;
  }
  for (uint64_t i = 1; i < stored; i += 2) {
    if (!holds(store, i)) return kBrokenAfterDeletes;
  }
  return kChildOk;
}

TEST(HyperionOutOfMemory, AddressSpaceUsedUpInAChildProcess) {
  if (std::string_view(KVLAB_SANITIZER) != "") {
    GTEST_SKIP() << "sanitizers reserve far more address space than a "
                    "limit for this test leaves";
  }
  const pid_t child = fork();
  ASSERT_NE(child, -1);
  if (child == 0) _exit(FillUntilFull(kHeadroom));
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status))
      << "the child died of signal "
      << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), kChildOk);
}

}  // namespace
}  // namespace kvlab::stage5
