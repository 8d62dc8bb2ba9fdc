// The trie's shape after splits and merges, in both compression modes, on
// the student report's example; prefix keys, the empty key, any byte; the
// pool's bookkeeping.

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/testing/differential.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::Scaled;

CTrieOptions Suffix() {
  CTrieOptions o;
  o.compress = CTrieOptions::Compress::kSuffix;
  return o;
}

void Put(CTrieStore* store, std::string_view key, std::string_view value) {
  absl::StatusOr<bool> replaced = store->Put(key, value);
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants() << "\n"
                                             << store->DebugString();
}

void Delete(CTrieStore* store, std::string_view key) {
  ASSERT_TRUE(store->Delete(key)) << key;
  ASSERT_TRUE(store->CheckInvariants().ok()) << store->CheckInvariants() << "\n"
                                             << store->DebugString();
}

// The tree part of DebugString (the pool's lines follow it).
std::string Tree(const CTrieStore& store) {
  std::string s = store.DebugString();
  return s.substr(0, s.find("pool:"));
}

// The report's words (section 6.1), values 1..4 in insertion order.
void PutReportWords(CTrieStore* store) {
  Put(store, "abc", "1");
  Put(store, "aardvark", "2");
  Put(store, "bc", "3");
  Put(store, "aid", "4");
}

TEST(CTrieShapeTest, FullCompressionOfTheReportsExample) {
  CTrieStore store;
  PutReportWords(&store);
  EXPECT_EQ(Tree(store),
            "root [4]\n"
            "  'a' [3]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' \"c\" =1\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
  // "abd" diverges inside the label "c" of "ab": the node splits.
  Put(&store, "abd", "5");
  EXPECT_EQ(Tree(store),
            "root [5]\n"
            "  'a' [4]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' [2]\n"
            "      'c' =1\n"
            "      'd' =5\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
  // Deleting it leaves "ab" one child and no value: it merges back.
  Delete(&store, "abd");
  EXPECT_EQ(Tree(store),
            "root [4]\n"
            "  'a' [3]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' \"c\" =1\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
}

TEST(CTrieShapeTest, SuffixCompressionOfTheReportsExample) {
  CTrieStore store(Suffix());
  PutReportWords(&store);
  EXPECT_EQ(Tree(store),
            "root [4]\n"
            "  'a' [3]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' \"c\" =1\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
  Put(&store, "abd", "5");
  EXPECT_EQ(Tree(store),
            "root [5]\n"
            "  'a' [4]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' [2]\n"
            "      'c' =1\n"
            "      'd' =5\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
  Delete(&store, "abd");
  EXPECT_EQ(Tree(store),
            "root [4]\n"
            "  'a' [3]\n"
            "    'a' \"rdvark\" =2\n"
            "    'b' \"c\" =1\n"
            "    'i' \"d\" =4\n"
            "  'b' \"c\" =3\n");
}

// Where the two schemes differ: a long shared prefix. Full compression keeps
// it in one label; suffix compression spends one node per shared byte.
TEST(CTrieShapeTest, SharedPrefixIsOneLabelOrAChain) {
  CTrieStore full;
  Put(&full, "aardvark", "1");
  Put(&full, "aardwolf", "2");
  EXPECT_EQ(Tree(full),
            "root [2]\n"
            "  'a' \"ard\" [2]\n"
            "    'v' \"ark\" =1\n"
            "    'w' \"olf\" =2\n");
  CTrieStore suffix(Suffix());
  Put(&suffix, "aardvark", "1");
  Put(&suffix, "aardwolf", "2");
  EXPECT_EQ(Tree(suffix),
            "root [2]\n"
            "  'a' [2]\n"
            "    'a' [2]\n"
            "      'r' [2]\n"
            "        'd' [2]\n"
            "          'v' \"ark\" =1\n"
            "          'w' \"olf\" =2\n");
  // Deleting one folds the whole chain back into a single leaf.
  Delete(&suffix, "aardwolf");
  EXPECT_EQ(Tree(suffix),
            "root [1]\n"
            "  'a' \"ardvark\" =1\n");
  Delete(&full, "aardwolf");
  EXPECT_EQ(Tree(full),
            "root [1]\n"
            "  'a' \"ardvark\" =1\n");
}

// "ab" and "abcde": a key that is a prefix of another holds its value in an
// inner node.
TEST(CTrieShapeTest, PrefixKeysHoldValuesInInnerNodes) {
  for (const CTrieOptions& options : {CTrieOptions(), Suffix()}) {
    CTrieStore store(options);
    Put(&store, "abcde", "long");
    Put(&store, "ab", "short");
    const bool full = options.compress == CTrieOptions::Compress::kFull;
    EXPECT_EQ(Tree(store), full ? "root [2]\n"
                                  "  'a' \"b\" =short [2]\n"
                                  "    'c' \"de\" =long\n"
                                : "root [2]\n"
                                  "  'a' [2]\n"
                                  "    'b' =short [2]\n"
                                  "      'c' \"de\" =long\n");
    // The longer key goes: the prefix key's node becomes a leaf again.
    Delete(&store, "abcde");
    EXPECT_EQ(Tree(store), full ? "root [1]\n"
                                  "  'a' \"b\" =short\n"
                                : "root [1]\n"
                                  "  'a' \"b\" =short\n");
    // A key ending inside a label splits it and takes the new node.
    Put(&store, "a", "one");
    EXPECT_EQ(Tree(store),
              "root [2]\n"
              "  'a' =one [2]\n"
              "    'b' =short\n");
  }
}

TEST(CTrieShapeTest, EmptyKeyLivesInTheRoot) {
  CTrieStore store;
  Put(&store, "", "empty");
  Put(&store, "x", "ex");
  EXPECT_EQ(Tree(store),
            "root =empty [2]\n"
            "  'x' =ex\n");
  std::string key, value;
  ASSERT_TRUE(store.GetNth(0, &key, &value));
  EXPECT_EQ(key, "");
  EXPECT_EQ(value, "empty");
  Delete(&store, "");
  EXPECT_EQ(Tree(store),
            "root [1]\n"
            "  'x' =ex\n");
  EXPECT_FALSE(store.Get("", nullptr));
}

TEST(CTrieShapeTest, AnyByteIncludingNulAndFF) {
  for (const CTrieOptions& options : {CTrieOptions(), Suffix()}) {
    CTrieStore store(options);
    const std::string keys[] = {std::string("\0", 1), std::string("\0\0", 2),
                                "\xff", std::string("a\0b", 3), "\x7f\x80"};
    for (const std::string& k : keys) Put(&store, k, k);
    std::vector<std::string> sorted(std::begin(keys), std::end(keys));
    std::sort(sorted.begin(), sorted.end());  // std::string: unsigned order
    for (size_t i = 0; i < sorted.size(); ++i) {
      std::string key;
      ASSERT_TRUE(store.GetNth(i, &key, nullptr));
      EXPECT_EQ(key, sorted[i]);
    }
  }
}

// GetNth and DeleteNth follow the counts, in both modes.
TEST(CTrieShapeTest, NthMatchesSortedOrder) {
  for (const CTrieOptions& options : {CTrieOptions(), Suffix()}) {
    CTrieStore store(options);
    std::mt19937_64 rng(7);
    std::map<std::string, std::string> oracle;
    for (int i = 0; i < 500; ++i) {
      std::string key(rng() % 6, 'a');
      for (char& c : key) c = static_cast<char>('a' + rng() % 3);
      oracle[key] = std::to_string(i);
      ASSERT_TRUE(store.Put(key, std::to_string(i)).ok());
    }
    ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
    while (!oracle.empty()) {
      const uint64_t n = rng() % oracle.size();
      auto it = std::next(oracle.begin(), static_cast<ptrdiff_t>(n));
      std::string key, value;
      ASSERT_TRUE(store.GetNth(n, &key, &value));
      EXPECT_EQ(key, it->first);
      EXPECT_EQ(value, it->second);
      ASSERT_TRUE(store.DeleteNth(n));
      oracle.erase(it);
      ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
    }
    EXPECT_EQ(store.Size(), 0u);
    EXPECT_EQ(store.GetShape().nodes, 1u);  // the root alone
  }
}

TEST(CTrieShapeTest, PoolReusesFreedNodesWithoutNewSlabs) {
  CTrieStore store;
  const uint64_t n = Scaled(20'000, 2'000);
  auto key = [](uint64_t i) {
    return "key" + std::to_string(i * 7919 % 100003);
  };
  for (uint64_t i = 0; i < n; ++i) ASSERT_TRUE(store.Put(key(i), "v").ok());
  const CTrieStore::PoolStats filled = store.GetPoolStats();
  EXPECT_GT(filled.slabs, 0u);
  for (uint64_t i = 0; i < n; i += 2) ASSERT_TRUE(store.Delete(key(i)));
  const CTrieStore::PoolStats thinned = store.GetPoolStats();
  EXPECT_GT(thinned.free_objects, 0u);
  EXPECT_LT(thinned.live_objects, filled.live_objects);
  // The same keys again: their nodes come from free lists, no new slab.
  for (uint64_t i = 0; i < n; i += 2) ASSERT_TRUE(store.Put(key(i), "v").ok());
  const CTrieStore::PoolStats refilled = store.GetPoolStats();
  EXPECT_EQ(refilled.slabs, filled.slabs);
  EXPECT_EQ(refilled.bytes_reserved, filled.bytes_reserved);
  ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
  EXPECT_NE(store.PoolDebugString().find("class "), std::string::npos);
}

// Rounds of fill, then delete everything, each round with values of another
// length: an emptied store's own accounting returns to within one slab (the
// pool's current one, kept for reuse) of a new store's, however the rounds
// before it went. Free blocks of one round's sizes must not pile up.
TEST(CTrieShapeTest, EmptiedStoreGivesItsMemoryBack) {
  constexpr size_t kSlab = size_t{2} << 20;
  // What may grow besides: the pool's slab list, the epoch list.
  constexpr size_t kTables = 64 << 10;
  CTrieOptions global, suffix, node, malloc;
  global.lock = CTrieOptions::Lock::kGlobal;
  suffix.compress = CTrieOptions::Compress::kSuffix;
  node.lock = CTrieOptions::Lock::kNode;
  malloc.alloc = CTrieOptions::Alloc::kMalloc;
  const uint64_t n = Scaled(10'000, 1'000);
  for (const CTrieOptions& options :
       {CTrieOptions(), global, suffix, node, malloc}) {
    CTrieStore store(options);
    const size_t empty = *store.MemoryUsage();
    std::mt19937_64 rng(7);
    int round = 0;
    for (size_t value_length : {20, 400, 60, 2000, 8, 1000, 4000, 90}) {
      SCOPED_TRACE("round " + std::to_string(++round) + ", values of " +
                   std::to_string(value_length) + " bytes");
      for (uint64_t i = 0; i < n; ++i) {
        const std::string key =
            std::to_string(round) + "/" + std::to_string(rng() % (8 * n));
        ASSERT_TRUE(store.Put(key, std::string(value_length, 'v')).ok());
      }
      EXPECT_GT(store.GetPoolStats().bytes_live, n * value_length / 2);
      // Half by key (the smallest left, from a scan), half by rank.
      while (store.Size() > 0) {
        if (store.Size() % 2 == 0) {
          std::string first;
          store.Scan("", [&](std::string_view k, std::string_view) {
            first = k;
            return false;
          });
          ASSERT_TRUE(store.Delete(first));
        } else {
          ASSERT_TRUE(store.DeleteNth(rng() % store.Size()));
        }
      }
      ASSERT_TRUE(store.CheckInvariants().ok()) << store.CheckInvariants();
      EXPECT_LE(*store.MemoryUsage(), empty + kSlab + kTables);
    }
  }
}

TEST(CTrieShapeTest, MemoryUsageCountsSlabsOrLiveBytes) {
  CTrieStore pooled;
  CTrieOptions malloc_options;
  malloc_options.alloc = CTrieOptions::Alloc::kMalloc;
  CTrieStore malloced(malloc_options);
  const size_t pooled_empty = *pooled.MemoryUsage();
  const size_t malloced_empty = *malloced.MemoryUsage();
  for (int i = 0; i < 1000; ++i) {
    const std::string key = "k" + std::to_string(i);
    ASSERT_TRUE(pooled.Put(key, std::string(100, 'v')).ok());
    ASSERT_TRUE(malloced.Put(key, std::string(100, 'v')).ok());
  }
  // 1000 values of 100 bytes: at least 100,000 bytes more in both.
  EXPECT_GE(*malloced.MemoryUsage(), malloced_empty + 100'000);
  // Pool mode charges whole slabs (the first came with the root), and
  // counts the live bytes inside them.
  EXPECT_LT(*pooled.MemoryUsage(), pooled_empty + 4096);  // scratch only
  EXPECT_EQ(pooled.GetPoolStats().slabs, 1u);
  EXPECT_GE(pooled.GetPoolStats().bytes_live, 100'000u);
  EXPECT_EQ(malloced.GetPoolStats().slabs, 0u);
  EXPECT_EQ(pooled.GetPoolStats().live_objects,
            malloced.GetPoolStats().live_objects);
}

}  // namespace
}  // namespace kvlab
