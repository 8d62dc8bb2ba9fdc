#include "kvlab/ect/huffman_tables.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace kvlab::ect {
namespace {

TEST(HuffmanTablesTest, RefusesHmaxOutOfRange) {
  EXPECT_FALSE(HuffmanTables::Build(0).ok());
  EXPECT_FALSE(HuffmanTables::Build(kMaxHuffmanTrieSize + 1).ok());
  EXPECT_TRUE(HuffmanTables::Build(1).ok());
}

TEST(HuffmanTablesTest, ProbabilitiesAreTheBinomialWithBothEndsMerged) {
  EXPECT_DOUBLE_EQ(CountProbability(2, 0), 0.5);
  EXPECT_DOUBLE_EQ(CountProbability(2, 1), 0.5);
  EXPECT_DOUBLE_EQ(CountProbability(4, 0), 2.0 / 16);
  EXPECT_DOUBLE_EQ(CountProbability(4, 2), 6.0 / 16);
  for (int n = 2; n <= 64; ++n) {
    double sum = 0;
    for (int s = 0; s < n; ++s) sum += CountProbability(n, s);
    EXPECT_NEAR(sum, 1.0, 1e-12) << n;
  }
}

// Every table is a complete prefix code (Kraft sum exactly 1) whose lengths
// Huffman's bound puts within one bit of the entropy.
TEST(HuffmanTablesTest, CompletePrefixCodesNearTheEntropy) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  for (int n = 2; n <= 64; ++n) {
    long double kraft = 0;
    for (int s = 0; s < n; ++s) {
      const int l = tables->CodeLength(n, s);
      ASSERT_GE(l, 1);
      ASSERT_LE(l, n - 1);
      kraft += std::ldexp(1.0L, -l);
      for (int t = 0; t < n; ++t) {
        if (t == s) continue;
        const int m = tables->CodeLength(n, t);
        if (m < l) continue;
        // s's code is not a prefix of t's.
        ASSERT_NE(tables->Code(n, t) >> (m - l), tables->Code(n, s))
            << "n=" << n << " s=" << s << " t=" << t;
      }
    }
    EXPECT_EQ(kraft, 1.0L) << n;
    const double h = HuffmanTables::Entropy(n);
    EXPECT_GE(tables->ExpectedLength(n), h - 1e-9) << n;
    EXPECT_LT(tables->ExpectedLength(n), h + 1) << n;
  }
}

TEST(HuffmanTablesTest, CanonicalShorterCodesForLikelierCounts) {
  auto tables = HuffmanTables::Build(16);
  ASSERT_TRUE(tables.ok());
  // n = 2: two equally likely symbols, one bit each, 0 then 1.
  EXPECT_EQ(tables->CodeLength(2, 0), 1);
  EXPECT_EQ(tables->Code(2, 0), 0u);
  EXPECT_EQ(tables->Code(2, 1), 1u);
  for (int n = 3; n <= 16; ++n) {
    // A strictly likelier count never gets a longer code.
    for (int s = 0; s < n; ++s) {
      for (int t = 0; t < n; ++t) {
        if (CountProbability(n, s) > CountProbability(n, t)) {
          EXPECT_LE(tables->CodeLength(n, s), tables->CodeLength(n, t))
              << "n=" << n << " s=" << s << " t=" << t;
        }
      }
    }
    // Canonical: within one length, codes grow with the symbol.
    for (int s = 0; s + 1 < n; ++s) {
      for (int t = s + 1; t < n; ++t) {
        if (tables->CodeLength(n, s) == tables->CodeLength(n, t)) {
          EXPECT_LT(tables->Code(n, s), tables->Code(n, t));
        }
      }
    }
  }
}

TEST(HuffmanTablesTest, EveryNIsBuiltTheSameWayEachTime) {
  auto a = HuffmanTables::Build(64);
  auto b = HuffmanTables::Build(32);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int n = 2; n <= 32; ++n) {
    for (int s = 0; s < n; ++s) {
      ASSERT_EQ(a->Code(n, s), b->Code(n, s));
      ASSERT_EQ(a->CodeLength(n, s), b->CodeLength(n, s));
    }
  }
}

TEST(HuffmanTablesTest, EncodeDecodeEverySymbol) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  BitWriter w;
  std::vector<std::pair<int, int>> written;
  for (int n = 2; n <= 64; ++n) {
    for (int s = 0; s < n; ++s) {
      tables->Encode(n, s, &w);
      written.emplace_back(n, s);
    }
  }
  BitReader r(w.words().data(), w.size());
  for (const auto& [n, s] : written) ASSERT_EQ(tables->Decode(n, &r), s);
  EXPECT_EQ(r.position(), w.size());
}

TEST(HuffmanTablesTest, TruncatedCodeDecodesToMinusOne) {
  auto tables = HuffmanTables::Build(64);
  ASSERT_TRUE(tables.ok());
  BitWriter w;
  tables->Encode(64, 1, &w);  // among the longest codes of n = 64
  ASSERT_GT(w.size(), 2u);
  BitReader r(w.words().data(), w.size() - 1);
  EXPECT_EQ(tables->Decode(64, &r), -1);
}

}  // namespace
}  // namespace kvlab::ect
