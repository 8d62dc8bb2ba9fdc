// LockedStore: any store behind one reader-writer lock.
//
// Reads (Get, GetNth, Scan, Size, MemoryUsage) take the lock shared, so they
// run in parallel; writes take it exclusively. This is the simplest correct
// way to serve several threads, and the baseline every finer-grained design
// in later stages is measured against.

#ifndef KVLAB_LOCKED_STORE_H_
#define KVLAB_LOCKED_STORE_H_

#include <memory>
#include <shared_mutex>

#include "kvlab/kv_store.h"

namespace kvlab {

// Thread-safe: every method may be called from any thread. A Scan visitor
// runs while the shared lock is held, so it must not write to this store.
class LockedStore final : public KVStore {
 public:
  explicit LockedStore(std::unique_ptr<KVStore> inner);

  bool GetNth(uint64_t n, std::string* key, std::string* value) const override;
  bool DeleteNth(uint64_t n) override;
  uint64_t Scan(std::string_view start, ScanVisitor visitor) const override;
  uint64_t Size() const override;
  std::string_view Name() const override;
  std::optional<size_t> MemoryUsage() const override;
  bool IsThreadSafe() const override { return true; }
  // The inner store's check, under the shared lock.
  absl::Status CheckInvariants() const override;
  absl::Status ExportStructure(const StructureOptions& options,
                               StructureGraph* graph) const override;
  // Forwarded without locking: the answer depends only on the key.
  absl::Status ValidateKey(std::string_view key) const override {
    return inner_->ValidateKey(key);
  }

  const KVStore& inner() const { return *inner_; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override;
  bool GetImpl(std::string_view key, std::string* value) const override;
  bool DeleteImpl(std::string_view key) override;

 private:
  mutable std::shared_mutex mutex_;
  std::unique_ptr<KVStore> inner_;
};

// Returns `store` itself if it is already thread-safe, else it wrapped in a
// LockedStore.
std::unique_ptr<KVStore> MakeThreadSafe(std::unique_ptr<KVStore> store);

}  // namespace kvlab

#endif  // KVLAB_LOCKED_STORE_H_
