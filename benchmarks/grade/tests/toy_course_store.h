// A course-API store as a student writes one: the course's Slice and a
// kvStore over std::map behind one mutex. `Buggy` returns the next pair
// from get(N) for N in the upper half, an off-by-one a test can watch the
// grade catch.

#ifndef KVGRADE_TESTS_TOY_COURSE_STORE_H_
#define KVGRADE_TESTS_TOY_COURSE_STORE_H_

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

namespace toy {

struct Slice {
  uint8_t size;
  char* data;
};

template <bool Buggy>
class BasicStore {
 public:
  explicit BasicStore(uint64_t) {}
  bool get(Slice& key, Slice& value) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(std::string(key.data, key.size));
    if (it == map_.end()) return false;
    Out(it->second, value);
    return true;
  }
  bool put(Slice& key, Slice& value) {
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = map_.insert_or_assign(
        std::string(key.data, key.size), std::string(value.data, value.size));
    return !inserted;
  }
  bool del(Slice& key) {
    std::lock_guard<std::mutex> lock(mu_);
    return map_.erase(std::string(key.data, key.size)) == 1;
  }
  bool get(int n, Slice& key, Slice& value) {
    std::lock_guard<std::mutex> lock(mu_);
    if (n < 0 || static_cast<size_t>(n) >= map_.size()) return false;
    if (Buggy && static_cast<size_t>(n) + 1 < map_.size() &&
        static_cast<size_t>(n) >= map_.size() / 2) {
      ++n;
    }
    auto it = std::next(map_.begin(), n);
    Out(it->first, key);
    Out(it->second, value);
    return true;
  }
  bool del(int n) {
    std::lock_guard<std::mutex> lock(mu_);
    if (n < 0 || static_cast<size_t>(n) >= map_.size()) return false;
    map_.erase(std::next(map_.begin(), n));
    return true;
  }

 private:
  static void Out(const std::string& s, Slice& slice) {
    slice.size = static_cast<uint8_t>(s.size());
    slice.data = static_cast<char*>(std::malloc(s.size() + 1));
    std::memcpy(slice.data, s.data(), s.size());
  }
  std::mutex mu_;
  std::map<std::string, std::string> map_;
};

using Store = BasicStore<false>;
using BuggyStore = BasicStore<true>;

}  // namespace toy

#endif  // KVGRADE_TESTS_TOY_COURSE_STORE_H_
