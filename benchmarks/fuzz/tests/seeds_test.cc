#include "kvlab/fuzz/seeds.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/fuzz/fuzz_stores.h"
#include "kvlab/fuzz/program.h"
#include "kvlab/fuzz/run_program.h"
#include "kvlab/kvlab.h"

namespace kvlab::fuzz {
namespace {

using namespace std::literals;

const std::filesystem::path kCorpus =
    std::filesystem::path(KVLAB_FUZZ_SOURCE_DIR) / "corpus";

std::string SeedBytes(std::string_view name) {
  for (const Seed& seed : Seeds()) {
    if (seed.name == name) return seed.bytes;
  }
  ADD_FAILURE() << "no seed " << name;
  return "";
}

Op Put(std::string key, size_t serial, size_t length) {
  return Op::Put(std::move(key), PatternValue(serial, length));
}

// The 400 keys "\0\0" + char(i / 4) + char(1 + i % 4) + "wxyz" with
// `prefix` for "\0\0", 200-byte values, appended to `ops`.
void AppendWxyzPuts(const std::string& prefix, std::vector<Op>* ops) {
  for (int i = 0; i < 400; ++i) {
    const size_t serial = ops->size();
    ops->push_back(
        Put(prefix + char(i / 4) + char(1 + i % 4) + "wxyz", serial, 200));
  }
}

TEST(Seeds, CommittedCorpusIsTheGeneratedOne) {
  std::set<std::string> names;
  for (const Seed& seed : Seeds()) {
    EXPECT_TRUE(names.insert(seed.name).second) << "two seeds " << seed.name;
    std::ifstream in(kCorpus / seed.name, std::ios::binary);
    ASSERT_TRUE(in) << (kCorpus / seed.name)
                    << " missing: run kvlab_fuzz_seeds " << kCorpus;
    std::ostringstream content;
    content << in.rdbuf();
    EXPECT_EQ(content.str(), seed.bytes)
        << seed.name << " differs from its description in seeds.cc: run "
        << "kvlab_fuzz_seeds " << kCorpus;
  }
  // Anything else in the corpus is an input a fuzzer found, kept as it was.
  for (const auto& entry : std::filesystem::directory_iterator(kCorpus)) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(names.count(name) == 1 || name.starts_with("found-"))
        << name << " is neither a seed of seeds.cc nor named found-*";
  }
}

TEST(Seeds, ScanAmongNulKeysDecodesToTheIntendedOperations) {
  std::vector<Op> expected = {Put(std::string(1024, '\0'), 0, 16),
                              Put(std::string(1023, '\0'), 1, 16)};
  AppendWxyzPuts("\0\0"s, &expected);
  expected.push_back(Op::Scan(std::string(1024, '\0'), 0));
  ASSERT_EQ(expected.size(), 403u);
  const Program program = Decode(SeedBytes("scan_among_nul_keys"));
  EXPECT_EQ(program.ops, expected);
}

TEST(Seeds, ScanAmongNulKeysDeeperDecodesToTheIntendedOperations) {
  std::vector<Op> expected = {Put(std::string(1024, '\0'), 0, 16),
                              Put(std::string(1023, '\0'), 1, 16)};
  AppendWxyzPuts("\0\0"s, &expected);
  AppendWxyzPuts("\0\0\0\0"s, &expected);
  for (size_t start : {5, 1024}) {
    expected.push_back(Op::Scan(std::string(start, '\0'), 0));
  }
  EXPECT_EQ(Decode(SeedBytes("scan_among_nul_keys_deeper")).ops, expected);
}

TEST(Seeds, ScanAmongLongKeysAfterSplitsDecodesToTheIntendedOperations) {
  const std::vector<Op> expected = {
      Put(std::string(128, 'k') + '\xff' + std::string(128, 'k'), 0, 255),
      Put(std::string(1023, 'k'), 1, 255),
      Put(std::string(1024, 'k'), 2, 0),
      Op::Scan(std::string(1024, 'k'), 0),
  };
  EXPECT_EQ(Decode(SeedBytes("scan_among_long_keys_after_splits")).ops,
            expected);
}

TEST(Seeds, ScanFromOversizedStartDecodesToTheIntendedOperations) {
  const std::vector<Op> expected = {
      Put("a", 0, 8),
      Put(std::string(1024, '\0'), 1, 8),
      Put(std::string(1024, '\x01'), 2, 300),
      Op::Scan(std::string(1025, '\0'), 0),
      Op::Scan(std::string(1100, '\x01'), 0),
      Op::Scan(std::string(4096, 'a'), 0),
      Op::Get(std::string(2000, '\0')),
      Op::Delete(std::string(2000, '\0')),
  };
  EXPECT_EQ(Decode(SeedBytes("scan_from_oversized_start")).ops, expected);
}

TEST(Seeds, DeleteThenGrowDecodesToTheIntendedOperations) {
  std::vector<Op> expected = {Put("aa", 0, 8), Put("ab", 1, 8),
                              Op::Delete("ab")};
  for (int i = 0; i < 600; ++i) {
    expected.push_back(Put("a"s + char(i / 256) + char(i % 256), 3 + i, 8));
  }
  expected.push_back(Op::Get("aa"));
  EXPECT_EQ(Decode(SeedBytes("delete_then_grow")).ops, expected);
}

TEST(Seeds, FirstBytePicksTheStoreEachWasWrittenFor) {
  const std::vector<std::string> specs = ParseStoreList(KVLAB_FUZZ_STORES);
  for (const Seed& seed : Seeds()) {
    EXPECT_EQ(specs[Decode(seed.bytes).store_byte % specs.size()], seed.store)
        << seed.name;
  }
  // Not all on one store.
  EXPECT_NE(Seeds().front().store, Seeds().back().store);
}

// The reference store answers every seed as the model does.
TEST(Seeds, RunOnTheReferenceStore) {
  for (const Seed& seed : Seeds()) {
    std::unique_ptr<KVStore> store = *MakeStore("std_map");
    const Program program = Decode(seed.bytes);
    EXPECT_FALSE(program.ops.empty()) << seed.name;
    const absl::Status status = RunProgram(program, store.get(), {});
    EXPECT_TRUE(status.ok()) << seed.name << ": " << status;
  }
}

}  // namespace
}  // namespace kvlab::fuzz
