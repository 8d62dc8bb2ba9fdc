#include "kvlab/kv_store.h"

#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {

absl::Status ValidateKeyValue(std::string_view key, std::string_view value) {
  if (key.size() > kMaxKeySize) {
    return absl::InvalidArgumentError(
        absl::StrCat("key of ", key.size(), " bytes exceeds kMaxKeySize (",
                     kMaxKeySize, " bytes)"));
  }
  if (value.size() > kMaxValueSize) {
    return absl::InvalidArgumentError(absl::StrCat(
        "value of ", value.size(), " bytes exceeds kMaxValueSize (",
        kMaxValueSize, " bytes)"));
  }
  return absl::OkStatus();
}

namespace {

// ResourceExhausted with a message if there is memory left to write one.
absl::Status OutOfMemory(size_t key_size, size_t value_size) {
  try {
    return absl::ResourceExhaustedError(
        absl::StrCat("out of memory storing a key of ", key_size,
                     " bytes and a value of ", value_size, " bytes"));
  } catch (const std::bad_alloc&) {
    return absl::Status(absl::StatusCode::kResourceExhausted, "");
  }
}

}  // namespace

absl::StatusOr<bool> KVStore::Put(std::string_view key,
                                  std::string_view value) {
  if (absl::Status status = ValidateKeyValue(key, value); !status.ok()) {
    return status;
  }
  if (absl::Status status = ValidateKey(key); !status.ok()) return status;
  try {
    return PutImpl(key, value);
  } catch (const std::bad_alloc&) {
    return OutOfMemory(key.size(), value.size());
  } catch (const WriteError& error) {
    return error.status();
  }
}

absl::Status KVStore::ValidateKey(std::string_view /*key*/) const {
  return absl::OkStatus();
}

absl::Status KVStore::CheckInvariants() const { return absl::OkStatus(); }

absl::Status KVStore::ExportStructure(const StructureOptions& /*options*/,
                                      StructureGraph* /*graph*/) const {
  return absl::UnimplementedError(
      absl::StrCat("store '", ToAbsl(Name()), "' cannot export its structure"));
}

bool KVStore::Get(std::string_view key, std::string* value) const {
  if (key.size() > kMaxKeySize) return false;  // cannot have been stored
  return GetImpl(key, value);
}

bool KVStore::Delete(std::string_view key) {
  if (key.size() > kMaxKeySize) return false;
  return DeleteImpl(key);
}

bool KVStore::DeleteNthByKey(uint64_t n) {
  std::string key;
  if (!GetNth(n, &key, nullptr)) return false;
  return DeleteImpl(key);
}

}  // namespace kvlab
