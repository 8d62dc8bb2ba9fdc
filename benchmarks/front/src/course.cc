#include "kvlab/course.h"

#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "course_output.h"
#include "kvlab/kvlab.h"

namespace {

using kvlab::course_output::CopyOut;
using kvlab::course_output::CopyOutPair;
using kvlab::course_output::SetEmpty;

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
  // A harness may pass {0, NULL}; stores then never see a null pointer,
  // which memcpy and memcmp may not be given even for 0 bytes.
  if (slice.size == 0) return std::string_view("", 0);
  return std::string_view(slice.data, slice.size);
}

}  // namespace

kvStore::kvStore(uint64_t /*max_entries*/)
    : store_(MakeCourseStore(SpecFromEnvironment())) {}

kvStore::kvStore(uint64_t /*max_entries*/, const char* spec)
    : store_(MakeCourseStore(spec == nullptr ? kvlab::DefaultStoreSpec()
                                             : std::string_view(spec))) {}

kvStore::~kvStore() = default;

bool kvStore::get(Slice& key, Slice& value) {
  // Viewed before `value` is touched: the two may be the same Slice.
  const std::string_view wanted = View(key);
  SetEmpty(value);
  try {
    std::string found;
    if (!store_->Get(wanted, &found)) return false;
    return CopyOut(found, value, std::malloc);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool kvStore::put(Slice& key, Slice& value) {
  absl::StatusOr<bool> replaced = store_->Put(View(key), View(value));
  if (replaced.ok()) return *replaced;
  if (absl::IsResourceExhausted(replaced.status())) throw std::bad_alloc();
  // A Slice holds at most 255 bytes, far within kMaxKeySize and
  // kMaxValueSize; only a store that restricts its alphabet refuses a key.
  std::string message =
      "kvStore::put: " + std::string(replaced.status().message());
  if (absl::IsInvalidArgument(replaced.status())) {
    throw std::invalid_argument(message);
  }
  throw std::runtime_error(message);
}

bool kvStore::del(Slice& key) { return store_->Delete(View(key)); }

bool kvStore::get(int N, Slice& key, Slice& value) {
  SetEmpty(key);
  SetEmpty(value);
  if (N < 0) return false;
  try {
    std::string found_key, found_value;
    if (!store_->GetNth(static_cast<uint64_t>(N), &found_key, &found_value)) {
      return false;
    }
    return CopyOutPair(found_key, found_value, key, value, std::malloc);
  } catch (const std::bad_alloc&) {
    return false;
  }
}

bool kvStore::del(int N) {
  if (N < 0) return false;
  return store_->DeleteNth(static_cast<uint64_t>(N));
}
