// The scan's stack of container levels at its deepest: keys of kMaxKeySize
// bytes that differ only at the end put a container at every two key bytes,
// so both the walk from "" and ScanFrom's descent go as deep as any valid
// store lets them (debug builds assert the stack's bound).
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"
#include "hyperion_store.h"

namespace kvlab::stage5 {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

std::string Show(const std::string& s) {
  return "\"" + absl::CHexEscape(s) + "\"";
}

// Checks Scan(start) whole and stopped after every position up to `stops`.
void CheckScans(const HyperionStore& store,
                const std::map<std::string, std::string>& oracle,
                const std::string& start, size_t stops,
                const std::string& what) {
  const Pairs expected(oracle.lower_bound(start), oracle.end());
  Pairs seen;
  uint64_t visited =
      store.Scan(start, [&](std::string_view k, std::string_view v) {
        seen.emplace_back(k, v);
        return true;
      });
  ASSERT_EQ(visited, expected.size()) << what << " from " << Show(start);
  ASSERT_TRUE(seen == expected) << what << " from " << Show(start);
  const size_t last = std::min(stops, expected.size());
  std::vector<size_t> limits;
  for (size_t l = 1; l <= last; ++l) limits.push_back(l);
  if (expected.size() > stops) limits.push_back(expected.size());
  for (size_t limit : limits) {
    seen.clear();
    visited = store.Scan(start, [&](std::string_view k, std::string_view v) {
      seen.emplace_back(k, v);
      return seen.size() < limit;
    });
    ASSERT_EQ(visited, limit)
        << what << " from " << Show(start) << " stop " << limit;
    ASSERT_TRUE(std::equal(seen.begin(), seen.end(), expected.begin()) &&
                seen.size() == limit)
        << what << " from " << Show(start) << " stop " << limit;
  }
}

// A container at every two key bytes down to the deepest one (base 1022):
// the walk's stack as deep as any valid store makes it, from "" and from a
// start key that ScanFrom follows to the bottom.
TEST(HyperionScan, DeepestChainOfContainers) {
  for (uint32_t embed : {16u, 144u, 255u}) {
    for (bool with_prefixes : {false, true}) {
      HyperionStore store(
          HyperionOptions{.inline_value = 4, .embed_limit = embed});
      std::map<std::string, std::string> oracle;
      std::mt19937_64 rng(embed);
      std::string k(kMaxKeySize, '\0');
      for (char& c : k) c = char(rng() % 3 == 0 ? 0xff : rng() % 8);
      std::string k2 = k;
      k2.back() = char(uint8_t(k2.back()) + 1);
      std::string k3 = k;
      k3[kMaxKeySize - 2] = char(uint8_t(k3[kMaxKeySize - 2]) ^ 0x40);
      std::vector<std::string> keys = {k, k2, k3};
      if (with_prefixes) {
        for (size_t n = 1; n < kMaxKeySize; n += 37)
          keys.push_back(k.substr(0, n));
      }
      for (const std::string& key : keys) {
        const std::string value = std::string(key.size() % 11, 'v');
        ASSERT_TRUE(store.Put(key, value).ok());
        oracle[key] = value;
      }
      ASSERT_EQ(store.CheckInvariants(), absl::OkStatus());
      std::vector<std::string> starts = {"",
                                         k,
                                         k2,
                                         k3,
                                         k.substr(0, kMaxKeySize - 1),
                                         k + '\0',
                                         k2 + '\xff',
                                         k.substr(0, kMaxKeySize - 2)};
      for (const std::string& key : keys) {
        starts.push_back(key);
        starts.push_back(key + '\0');
      }
      for (const std::string& s : starts) {
        CheckScans(store, oracle, s, 64, "deep");
        if (testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace
}  // namespace kvlab::stage5
