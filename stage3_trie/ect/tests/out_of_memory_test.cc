// EctStore when memory runs out (kv_store.h, "Out of memory"): a Put or
// Delete whose allocation fails -- in the lookup of the file, the buffer's
// log, the buffer itself, the tombstone's removal or the merge the write
// starts -- returns ResourceExhausted (Put) or throws std::bad_alloc
// (Delete) and leaves the store exactly as it was, or succeeds and says so.
// Each case fails its k-th allocation for every k, once (transient) or from
// there on (memory gone for good); afterwards the store must answer as the
// model says, keep its invariants, merge, and reopen to the same pairs. The
// sweep over every store (benchmarks/front/tests/allocation_failure_test.cc)
// runs random sequences on a sample of k; these are the writes of ect that
// matter most, every k.

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/ect/ect_store.h"
#include "kvlab/std_map_store.h"
#include "kvlab/testing/failing_allocator.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab::testing {
// The failing allocator brings the conformance suite along; this binary
// does not run it.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(KVStoreConformanceTest);
}  // namespace kvlab::testing

namespace kvlab::ect {
namespace {

using Model = std::map<std::string, std::string>;
using testing::FailingAllocations;

// Writes per merge: the store below starts with merge_pairs - 1 entries in
// its buffer, so that the next write starts a merge.
constexpr uint64_t kMergePairs = 8;

EctOptions Options(const std::string& dir, uint64_t merge_pairs) {
  EctOptions o;
  o.dir = dir;
  o.bucket_size = 4;
  o.merge_pairs = merge_pairs;
  o.sync = SyncPolicy::kNone;  // memory is the subject, not the disk
  return o;
}

// A buffer store whose Delete allocates before it removes the key, as a
// store that rebuilds a node on delete does (hyperion, ect's default
// buffer): so a buffered delete too can run out of memory. std::map's erase
// allocates nothing.
class AllocatingDeleteStore final : public KVStore {
 public:
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    return map_.GetNth(n, key, value);
  }
  bool DeleteNth(uint64_t n) override { return DeleteNthByKey(n); }
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override {
    return map_.Scan(start, visitor);
  }
  uint64_t Size() const override { return map_.Size(); }
  std::string_view Name() const override { return "allocating_delete"; }
  std::optional<size_t> MemoryUsage() const override {
    return map_.MemoryUsage();
  }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    absl::StatusOr<bool> put = map_.Put(key, value);
    if (!put.ok()) throw std::bad_alloc();
    return *put;
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    return map_.Get(key, value);
  }
  bool DeleteImpl(std::string_view key) override {
    // The rebuilt node, made before the store changes.
    const std::unique_ptr<char[]> node(new char[64]);
    return map_.Delete(key);
  }

 private:
  StdMapStore map_;
};

// The buffer's store kind.
enum class Buffer { kStdMap, kAllocatingDelete };

std::unique_ptr<EctStore> Open(const EctOptions& o,
                               Buffer buffer = Buffer::kStdMap) {
  absl::StatusOr<std::unique_ptr<EctStore>> store =
      EctStore::Open(o, [buffer]() -> absl::StatusOr<std::unique_ptr<KVStore>> {
        if (buffer == Buffer::kAllocatingDelete) {
          return std::make_unique<AllocatingDeleteStore>();
        }
        return std::make_unique<StdMapStore>();
      });
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

void ExpectHolds(const EctStore& store, const Model& model,
                 const std::string& where) {
  const absl::Status invariants = store.CheckInvariants();
  EXPECT_TRUE(invariants.ok()) << where << ": " << invariants;
  EXPECT_EQ(store.Size(), model.size()) << where;
  for (const auto& [key, value] : model) {
    std::string found;
    ASSERT_TRUE(store.Get(key, &found)) << where << ": lost " << key;
    ASSERT_EQ(found, value) << where << ": value of " << key;
  }
  for (const char* absent : {"gone", "never", "new"}) {
    if (model.count(absent) == 0) {
      EXPECT_FALSE(store.Get(absent, nullptr)) << where << ": " << absent;
    }
  }
}

// A store whose file holds "a", "b", "c", "e", "f" and "h" (one merge) and
// whose buffer holds 7 entries, one short of kMergePairs: "a" and "c"
// replaced, "b" tombstoned, "d", "g" and "i" new, "e" put and then deleted.
// So a write meets every case: a key of the file alone, one replaced in the
// buffer, a tombstoned one, a new one buffered, an absent one.
std::unique_ptr<EctStore> Prepare(const EctOptions& o, Buffer buffer,
                                  Model* model) {
  std::unique_ptr<EctStore> store = Open(o, buffer);
  if (store == nullptr) return nullptr;
  for (const char* key : {"a", "b", "c", "e", "f", "h"}) {
    EXPECT_TRUE(store->Put(key, absl::StrCat("file ", key)).ok());
    (*model)[key] = absl::StrCat("file ", key);
  }
  EXPECT_TRUE(store->Merge().ok());
  EXPECT_TRUE(store->Put("a", "buffer a").ok());
  EXPECT_TRUE(store->Delete("b"));
  EXPECT_TRUE(store->Put("c", "buffer c").ok());
  EXPECT_TRUE(store->Put("d", "buffer d").ok());
  EXPECT_TRUE(store->Put("g", "buffer g").ok());
  EXPECT_TRUE(store->Put("i", "buffer i").ok());
  EXPECT_TRUE(store->Put("e", "buffer e").ok());
  EXPECT_TRUE(store->Delete("e"));
  (*model)["a"] = "buffer a";
  model->erase("b");
  (*model)["c"] = "buffer c";
  (*model)["d"] = "buffer d";
  (*model)["g"] = "buffer g";
  (*model)["i"] = "buffer i";
  model->erase("e");
  const EctStats stats = store->stats();
  EXPECT_EQ(stats.buffer_puts + stats.buffer_tombstones, kMergePairs - 1);
  return store;
}

// One write under test: a Put (value set) or a Delete of `key`.
struct Write {
  std::string key;
  std::optional<std::string> value;
};

std::string Describe(const Write& w) {
  return w.value.has_value() ? absl::StrCat("Put(\"", w.key, "\")")
                             : absl::StrCat("Delete(\"", w.key, "\")");
}

// Runs `write` on a prepared store with the k-th allocation failing (and,
// if `persistent`, every later one); then, memory back, checks the store as
// above. k steps through the write's allocations: every one when it makes
// at most `sample` of them, else about `sample` evenly spaced from k = 1
// (each run opens a store, merges and reopens it: tens of milliseconds of
// file syncs). Returns the allocations the write makes.
uint64_t Sweep(uint64_t merge_pairs, const Write& write, bool persistent,
               uint64_t sample, Buffer buffer = Buffer::kStdMap) {
  uint64_t allocations = 0;
  {
    testing::TempDir dir;
    Model model;
    std::unique_ptr<EctStore> store =
        Prepare(Options(dir.path(), merge_pairs), buffer, &model);
    if (store == nullptr) return 0;
    FailingAllocations counting(0);
    if (write.value.has_value()) {
      EXPECT_TRUE(store->Put(write.key, *write.value).ok());
    } else {
      store->Delete(write.key);
    }
    allocations = counting.allocations();
  }
  const uint64_t step = std::max<uint64_t>(1, allocations / sample);
  for (uint64_t k = 1;; k += step) {
    const std::string where =
        absl::StrCat(Describe(write), ", allocation ", k,
                     persistent ? " and after" : "", " failing");
    testing::TempDir dir;
    const EctOptions o = Options(dir.path(), merge_pairs);
    Model model;
    std::unique_ptr<EctStore> store = Prepare(o, buffer, &model);
    if (store == nullptr || ::testing::Test::HasFailure()) return 0;
    const bool had = model.count(write.key) == 1;
    bool reached;
    {
      FailingAllocations failing(k, persistent);
      if (write.value.has_value()) {
        const absl::StatusOr<bool> replaced =
            store->Put(write.key, *write.value);
        failing.Pause();
        if (replaced.ok()) {
          EXPECT_EQ(*replaced, had) << where;
          model[write.key] = *write.value;
        } else {
          EXPECT_EQ(replaced.status().code(),
                    absl::StatusCode::kResourceExhausted)
              << where << ": " << replaced.status();
        }
      } else {
        try {
          const bool deleted = store->Delete(write.key);
          failing.Pause();
          EXPECT_EQ(deleted, had) << where;
          model.erase(write.key);
        } catch (const std::bad_alloc&) {
          failing.Pause();  // the store unchanged
        }
      }
      reached = failing.allocations() >= k;
    }
    ExpectHolds(*store, model, where);
    // Memory is back: the store reopens as it was (its logs hold what it
    // answered, a write that ran out of memory undone), merges, and takes
    // writes.
    store.reset();
    store = Open(o, buffer);
    if (store == nullptr) return 0;
    ExpectHolds(*store, model, absl::StrCat(where, ", reopened"));
    const absl::Status merged = store->Merge();
    EXPECT_TRUE(merged.ok()) << where << ": " << merged;
    ExpectHolds(*store, model, absl::StrCat(where, ", merged"));
    store.reset();
    store = Open(o, buffer);
    if (store == nullptr) return 0;
    ExpectHolds(*store, model, absl::StrCat(where, ", merged and reopened"));
    EXPECT_TRUE(store->Put("new", "works").ok()) << where;
    model["new"] = "works";
    ExpectHolds(*store, model, absl::StrCat(where, ", written"));
    if (::testing::Test::HasFailure() || !reached) return allocations;
  }
}

// Every write kind against the buffer, no merge: a new key, a key of the
// file, a tombstoned key; a delete of a key of the file, of one both
// buffered and in the file, of a tombstoned one (no allocation at all).
TEST(EctOutOfMemoryTest, EachWriteFailingAtEachAllocationChangesNothing) {
  const std::vector<Write> writes = {{"new", "v"}, {"f", "v"}, {"b", "v"},
                                     {"f", {}},    {"a", {}},  {"b", {}}};
  for (const Write& write : writes) {
    for (const bool persistent : {false, true}) {
      Sweep(/*merge_pairs=*/1000, write, persistent, /*sample=*/12);
      if (HasFailure()) return;
    }
  }
}

// A write that fills the buffer starts a merge once it is logged and
// applied: whatever allocation of the merge fails, the write's own answer
// stands (the merge is tried again later), and a merge that gets past
// CURRENT's rename installs the new generation whole. A new key and a
// delete of a key of the file: each adds an entry.
TEST(EctOutOfMemoryTest, AWriteThatStartsAMergeKeepsItsAnswer) {
  for (const Write& write : {Write{"new", "v"}, Write{"f", std::nullopt}}) {
    // Memory gone for good first: the first merge that runs out of memory
    // in this process is also the first to report it.
    for (const bool persistent : {true, false}) {
      EXPECT_GT(Sweep(kMergePairs, write, persistent, /*sample=*/16), 200u)
          << Describe(write) << ": the merge made too few allocations";
      if (HasFailure()) return;
    }
  }
}

// A buffer whose delete allocates: with memory gone for good from any
// allocation of the write, the removal of a tombstone (a Put of a
// tombstoned key) or of a buffered put (a Delete of a buffered key, new or
// in the file) fails and says so, and the store keeps its count of
// buffered new keys and of tombstones its puts shadow -- so Size -- as they
// were. Every allocation of each write, no merge.
TEST(EctOutOfMemoryTest, ABufferWhoseDeleteRunsOutKeepsTheCounts) {
  const std::vector<Write> writes = {{"b", "v"}, {"d", {}}, {"a", {}}};
  for (const Write& write : writes) {
    for (const bool persistent : {true, false}) {
      Sweep(/*merge_pairs=*/1000, write, persistent, /*sample=*/1000,
            Buffer::kAllocatingDelete);
      if (HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace kvlab::ect
