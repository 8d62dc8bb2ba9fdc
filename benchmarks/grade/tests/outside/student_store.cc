#include "student_store.h"

#include <cstdlib>
#include <cstring>
#include <iterator>

namespace {

// Returned Slices get a malloc'd copy the caller frees (kvlab/course.h).
void Out(const std::string& bytes, Slice& slice) {
  slice.size = static_cast<uint8_t>(bytes.size());
  slice.data = static_cast<char*>(std::malloc(bytes.size() + 1));
  std::memcpy(slice.data, bytes.data(), bytes.size());
}

std::string In(const Slice& slice) {
  return std::string(slice.data, slice.size);
}

}  // namespace

StudentStore::StudentStore(uint64_t) {}

bool StudentStore::get(Slice& key, Slice& value) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(In(key));
  if (it == map_.end()) return false;
  Out(it->second, value);
  return true;
}

bool StudentStore::put(Slice& key, Slice& value) {
  std::lock_guard<std::mutex> lock(mu_);
  return !map_.insert_or_assign(In(key), In(value)).second;
}

bool StudentStore::del(Slice& key) {
  std::lock_guard<std::mutex> lock(mu_);
  return map_.erase(In(key)) == 1;
}

bool StudentStore::get(int n, Slice& key, Slice& value) {
  std::lock_guard<std::mutex> lock(mu_);
  if (n < 0 || static_cast<size_t>(n) >= map_.size()) return false;
  auto it = std::next(map_.begin(), n);
  Out(it->first, key);
  Out(it->second, value);
  return true;
}

bool StudentStore::del(int n) {
  std::lock_guard<std::mutex> lock(mu_);
  if (n < 0 || static_cast<size_t>(n) >= map_.size()) return false;
  map_.erase(std::next(map_.begin(), n));
  return true;
}
