#include "kvlab/ect/huffman_tables.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <queue>
#include <tuple>

#include "absl/strings/str_cat.h"

namespace kvlab::ect {
namespace {

// Exact binomial weights: C(64, 32) fits in 64 bits, but the sum of all
// weights of n = 64 is 2^64, so the merging below adds in 128 bits.
using Weight = unsigned __int128;

Weight Binomial(int n, int k) {
  Weight c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<Weight>(n - k + i) / i;
  return c;
}

// handout: cut
// The weight (probability times 2^n) of each symbol of a trie of n keys.
std::vector<Weight> SymbolWeights(int n) {
  std::vector<Weight> w(static_cast<size_t>(n));
  w[0] = 2;  // l = 0 and l = n
  for (int l = 1; l < n; ++l) w[static_cast<size_t>(l)] = Binomial(n, l);
  return w;
}
// handout: end

}  // namespace

double CountProbability(int n, int symbol) {
  assert(n >= 2 && symbol >= 0 && symbol < n);
  const double w = symbol == 0 ? 2.0 : static_cast<double>(Binomial(n, symbol));
  return w / std::ldexp(1.0, n);
}

absl::StatusOr<HuffmanTables> HuffmanTables::Build(int hmax) {
  if (hmax < 1 || hmax > kMaxHuffmanTrieSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("hmax must be 1..", kMaxHuffmanTrieSize, ", not ", hmax));
  }
  HuffmanTables tables(hmax);
  tables.tables_.resize(static_cast<size_t>(hmax) + 1);
  for (int n = 2; n <= hmax; ++n) {
    tables.tables_[static_cast<size_t>(n)] = BuildTable(n);
  }
  return tables;
}

HuffmanTables::Table HuffmanTables::BuildTable(int n) {
  // handout: HuffmanTables::BuildTable -> #3-the-codes
  // Huffman's algorithm on the exact weights. Ties are broken by the order
  // nodes were made, so every build gives the same lengths.
  const std::vector<Weight> weights = SymbolWeights(n);
  struct Node {
    Weight weight;
    int order;
    int index;  // into `parent`
  };
  auto heavier = [](const Node& a, const Node& b) {
    return std::tie(a.weight, a.order) > std::tie(b.weight, b.order);
  };
  std::priority_queue<Node, std::vector<Node>, decltype(heavier)> queue(
      heavier);
  std::vector<int> parent(static_cast<size_t>(2 * n - 1), -1);
  for (int s = 0; s < n; ++s) {
    queue.push({weights[static_cast<size_t>(s)], s, s});
  }
  int next = n;
  while (queue.size() > 1) {
    const Node a = queue.top();
    queue.pop();
    const Node b = queue.top();
    queue.pop();
    parent[static_cast<size_t>(a.index)] = next;
    parent[static_cast<size_t>(b.index)] = next;
    queue.push({a.weight + b.weight, next, next});
    ++next;
  }

  Table t;
  t.length.resize(static_cast<size_t>(n));
  int max_length = 0;
  for (int s = 0; s < n; ++s) {
    int depth = 0;
    for (int i = s; parent[static_cast<size_t>(i)] != -1;
         i = parent[static_cast<size_t>(i)]) {
      ++depth;
    }
    t.length[static_cast<size_t>(s)] = static_cast<uint8_t>(depth);
    max_length = std::max(max_length, depth);
  }

  // Canonical codes: symbols sorted by (length, symbol) get consecutive
  // numbers, shifted left by one each time the length grows.
  t.sorted.resize(static_cast<size_t>(n));
  for (int s = 0; s < n; ++s) t.sorted[static_cast<size_t>(s)] = s;
  std::stable_sort(t.sorted.begin(), t.sorted.end(), [&](int a, int b) {
    return t.length[static_cast<size_t>(a)] < t.length[static_cast<size_t>(b)];
  });
  t.code.resize(static_cast<size_t>(n));
  t.first_code.assign(static_cast<size_t>(max_length) + 1, 0);
  t.count.assign(static_cast<size_t>(max_length) + 1, 0);
  t.start.assign(static_cast<size_t>(max_length) + 1, 0);
  uint64_t code = 0;
  int length = 0;
  for (int i = 0; i < n; ++i) {
    const int s = t.sorted[static_cast<size_t>(i)];
    const int l = t.length[static_cast<size_t>(s)];
    if (l != length) {
      code <<= (l - length);
      length = l;
      t.first_code[static_cast<size_t>(l)] = code;
      t.start[static_cast<size_t>(l)] = i;
    }
    t.code[static_cast<size_t>(s)] = code;
    ++t.count[static_cast<size_t>(l)];
    ++code;
  }
  return t;
  // handout: end
}

int HuffmanTables::CodeLength(int n, int symbol) const {
  assert(n >= 2 && n <= hmax_ && symbol >= 0 && symbol < n);
  return tables_[static_cast<size_t>(n)].length[static_cast<size_t>(symbol)];
}

uint64_t HuffmanTables::Code(int n, int symbol) const {
  assert(n >= 2 && n <= hmax_ && symbol >= 0 && symbol < n);
  return tables_[static_cast<size_t>(n)].code[static_cast<size_t>(symbol)];
}

void HuffmanTables::Encode(int n, int symbol, BitWriter* out) const {
  out->Write(Code(n, symbol), CodeLength(n, symbol));
}

int HuffmanTables::Decode(int n, BitReader* in) const {
  // handout: HuffmanTables::Decode -> #3-the-codes
  assert(n >= 2 && n <= hmax_);
  const Table& t = tables_[static_cast<size_t>(n)];
  // Canonical decoding: grow the code a bit at a time until it falls in the
  // range of codes of its length.
  uint64_t code = 0;
  const int max_length = static_cast<int>(t.count.size()) - 1;
  for (int l = 1; l <= max_length; ++l) {
    code = (code << 1) | (in->ReadBit() ? 1 : 0);
    if (in->overrun()) return -1;
    const auto li = static_cast<size_t>(l);
    if (t.count[li] > 0 &&
        code - t.first_code[li] < static_cast<uint64_t>(t.count[li])) {
      return t.sorted[static_cast<size_t>(t.start[li]) +
                      static_cast<size_t>(code - t.first_code[li])];
    }
  }
  return -1;  // a complete code never gets here
  // handout: end
}

double HuffmanTables::ExpectedLength(int n) const {
  double bits = 0;
  for (int s = 0; s < n; ++s) {
    bits += CountProbability(n, s) * CodeLength(n, s);
  }
  return bits;
}

double HuffmanTables::Entropy(int n) {
  double h = 0;
  for (int s = 0; s < n; ++s) {
    const double p = CountProbability(n, s);
    h -= p * std::log2(p);
  }
  return h;
}

}  // namespace kvlab::ect
