#include "kvlab/locked_store.h"

#include <mutex>
#include <new>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kvlab {

LockedStore::LockedStore(std::unique_ptr<KVStore> inner)
    : inner_(std::move(inner)) {}

bool LockedStore::PutImpl(std::string_view key, std::string_view value) {
  std::unique_lock lock(mutex_);
  // KVStore::Put validated the sizes and, through ValidateKey, the inner
  // store's own key rules, so the inner Put can fail only for lack of memory
  // (or, for a durable inner store, of its log), with the inner store
  // unchanged. Our Put returns the inner status unchanged.
  absl::StatusOr<bool> replaced = inner_->Put(key, value);
  if (!replaced.ok()) throw WriteError(replaced.status());
  return *replaced;
}

bool LockedStore::GetImpl(std::string_view key, std::string* value) const {
  std::shared_lock lock(mutex_);
  return inner_->Get(key, value);
}

bool LockedStore::DeleteImpl(std::string_view key) {
  std::unique_lock lock(mutex_);
  return inner_->Delete(key);
}

bool LockedStore::GetNth(uint64_t n, std::string* key,
                         std::string* value) const {
  std::shared_lock lock(mutex_);
  return inner_->GetNth(n, key, value);
}

bool LockedStore::DeleteNth(uint64_t n) {
  std::unique_lock lock(mutex_);
  return inner_->DeleteNth(n);
}

uint64_t LockedStore::Scan(std::string_view start, ScanVisitor visitor) const {
  std::shared_lock lock(mutex_);
  return inner_->Scan(start, visitor);
}

uint64_t LockedStore::Size() const {
  std::shared_lock lock(mutex_);
  return inner_->Size();
}

std::string_view LockedStore::Name() const { return inner_->Name(); }

std::optional<size_t> LockedStore::MemoryUsage() const {
  std::shared_lock lock(mutex_);
  std::optional<size_t> inner = inner_->MemoryUsage();
  if (!inner) return std::nullopt;
  return *inner + sizeof(*this);
}

absl::Status LockedStore::CheckInvariants() const {
  std::shared_lock lock(mutex_);
  return inner_->CheckInvariants();
}

absl::Status LockedStore::ExportStructure(const StructureOptions& options,
                                          StructureGraph* graph) const {
  std::shared_lock lock(mutex_);
  return inner_->ExportStructure(options, graph);
}

std::unique_ptr<KVStore> MakeThreadSafe(std::unique_ptr<KVStore> store) {
  if (store->IsThreadSafe()) return store;
  return std::make_unique<LockedStore>(std::move(store));
}

}  // namespace kvlab
