#include "kvlab/course.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kvlab/kvlab.h"

namespace {

std::unique_ptr<kvlab::KVStore> MakeCourseStore(std::string_view spec) {
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore(spec);
  if (!store.ok()) {
    throw std::invalid_argument("kvStore: " +
                                std::string(store.status().message()));
  }
  return kvlab::MakeThreadSafe(*std::move(store));
}

std::string_view SpecFromEnvironment() {
  const char* spec = std::getenv("KVLAB_STORE");
  if (spec == nullptr || *spec == '\0') return kvlab::DefaultStoreSpec();
  return spec;
}

std::string_view View(const Slice& slice) {
  return std::string_view(slice.data, slice.size);
}

// Fills `out` with a malloc'd copy of `bytes`; false if it cannot be
// expressed as a Slice (over 255 bytes).
bool CopyOut(const std::string& bytes, Slice& out) {
  if (bytes.size() > UINT8_MAX) return false;
  // malloc(0) may return NULL; the contract promises a non-NULL pointer.
  char* data =
      static_cast<char*>(std::malloc(bytes.empty() ? 1 : bytes.size()));
  if (data == nullptr) throw std::bad_alloc();
  std::memcpy(data, bytes.data(), bytes.size());
  out.size = static_cast<uint8_t>(bytes.size());
  out.data = data;
  return true;
}

}  // namespace

kvStore::kvStore(uint64_t /*max_entries*/)
    : store_(MakeCourseStore(SpecFromEnvironment())) {}

kvStore::kvStore(uint64_t /*max_entries*/, const char* spec)
    : store_(MakeCourseStore(spec == nullptr ? kvlab::DefaultStoreSpec()
                                             : std::string_view(spec))) {}

kvStore::~kvStore() = default;

bool kvStore::get(Slice& key, Slice& value) {
  std::string found;
  if (!store_->Get(View(key), &found)) return false;
  return CopyOut(found, value);
}

bool kvStore::put(Slice& key, Slice& value) {
  // A Slice holds at most 255 bytes, far within kMaxKeySize and
  // kMaxValueSize; only a store that restricts its alphabet can refuse.
  absl::StatusOr<bool> replaced = store_->Put(View(key), View(value));
  if (!replaced.ok()) {
    throw std::invalid_argument("kvStore::put: " +
                                std::string(replaced.status().message()));
  }
  return *replaced;
}

bool kvStore::del(Slice& key) { return store_->Delete(View(key)); }

bool kvStore::get(int N, Slice& key, Slice& value) {
  if (N < 0) return false;
  std::string found_key, found_value;
  if (!store_->GetNth(static_cast<uint64_t>(N), &found_key, &found_value)) {
    return false;
  }
  if (found_value.size() > UINT8_MAX || found_key.size() > UINT8_MAX) {
    return false;
  }
  CopyOut(found_key, key);
  CopyOut(found_value, value);
  return true;
}

bool kvStore::del(int N) {
  if (N < 0) return false;
  return store_->DeleteNth(static_cast<uint64_t>(N));
}
