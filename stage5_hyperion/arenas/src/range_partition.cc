#include "range_partition.h"

#include <algorithm>
#include <cassert>
#include <utility>

namespace kvlab::stage5 {

RoutingTable::RoutingTable(std::vector<std::string> splits, uint64_t size)
    : splits_(std::move(splits)),
      size_(size),
      limit_(2 * std::max(size / arenas(), kMinShare)) {
  assert(std::is_sorted(splits_.begin(), splits_.end()));
}

RoutingTable RoutingTable::ByFirstByte(size_t arenas) {
  std::vector<std::string> splits;
  for (size_t i = 1; i < arenas; ++i) {
    splits.push_back(std::string(1, char(i * 256 / arenas)));
  }
  return RoutingTable(std::move(splits), 0);
}

size_t RoutingTable::ArenaOf(std::string_view key) const {
  return size_t(std::upper_bound(splits_.begin(), splits_.end(), key,
                                 [](std::string_view k, const std::string& s) {
                                   return k < s;
                                 }) -
                splits_.begin());
}

RangePartition::RangePartition(size_t arenas) {
  tables_.push_back(
      std::make_unique<RoutingTable>(RoutingTable::ByFirstByte(arenas)));
  current_.store(tables_.back().get(), std::memory_order_release);
}

void RangePartition::Publish(
    std::unique_ptr<const RoutingTable> table) noexcept {
  assert(tables_.size() < tables_.capacity());
  tables_.push_back(std::move(table));
  // Release: a thread that reads the new table also sees the arenas'
  // contents and counts written before it.
  current_.store(tables_.back().get(), std::memory_order_release);
}

namespace {

// The shortest prefix of `key` greater than `before` (< key).
std::string Separator(std::string_view before, std::string_view key) {
  size_t common = 0;
  while (common < before.size() && before[common] == key[common]) ++common;
  return std::string(key.substr(0, common + 1));
}

}  // namespace

std::vector<std::string> ChooseSplits(
    const RoutingTable& old, const std::vector<uint64_t>& counts, uint64_t size,
    const std::function<std::string(uint64_t)>& key_at) {
  const size_t n = old.arenas();
  const uint64_t slack = size / (4 * n);
  std::vector<std::string> splits;
  splits.reserve(n - 1);
  uint64_t old_rank = 0;  // keys before old split i
  for (size_t i = 0; i + 1 < n; ++i) {
    old_rank += counts[i];
    const uint64_t rank = (i + 1) * size / n;
    const uint64_t off = old_rank > rank ? old_rank - rank : rank - old_rank;
    if (off <= slack) {
      splits.push_back(old.splits()[i]);
    } else if (rank == 0) {
      splits.emplace_back();
    } else {
      splits.push_back(Separator(key_at(rank - 1), key_at(rank)));
    }
    // A kept split and a new one of the same rank may compare either way;
    // no key lies between them, so the larger serves as both.
    if (i > 0 && splits[i] < splits[i - 1]) splits[i] = splits[i - 1];
  }
  return splits;
}

}  // namespace kvlab::stage5
