// ScanBatch: pairs copied out of an arena under its lock, for an arena
// store's Scan to hand to its visitor after the lock is released. All keys
// and values lie back to back in one string, with where each pair ends.
//
// Not thread-safe: one batch belongs to one Scan.

#ifndef KVLAB_STAGE5_ARENAS_SRC_SCAN_BATCH_H_
#define KVLAB_STAGE5_ARENAS_SRC_SCAN_BATCH_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kvlab::stage5 {

class ScanBatch {
 public:
  void Clear() {
    bytes_.clear();
    ends_.clear();
  }
  void Add(std::string_view key, std::string_view value) {
    bytes_.append(key);
    bytes_.append(value);
    ends_.push_back({bytes_.size() - value.size(), bytes_.size()});
  }
  size_t size() const { return ends_.size(); }
  std::string_view key(size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1].second;
    return std::string_view(bytes_).substr(begin, ends_[i].first - begin);
  }
  std::string_view value(size_t i) const {
    return std::string_view(bytes_).substr(ends_[i].first,
                                           ends_[i].second - ends_[i].first);
  }

 private:
  std::string bytes_;
  std::vector<std::pair<size_t, size_t>> ends_;  // key end, value end
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_ARENAS_SRC_SCAN_BATCH_H_
