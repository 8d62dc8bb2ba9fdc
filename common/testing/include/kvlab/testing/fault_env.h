// FaultEnv: an in-memory file system for the durable store's tests that
// remembers what was synced, so that a test can crash it, and that fails a
// write or a sync on command.
//
// A crash keeps, of each file, the bytes synced (File::Sync) and, of each
// directory, the names synced (Env::SyncDir); what happens to the rest
// depends on the CrashMode. Files and names are shared with the store under
// test, which must be destroyed before Crash().

#ifndef KVLAB_TESTING_FAULT_ENV_H_
#define KVLAB_TESTING_FAULT_ENV_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "kvlab/durable/file.h"

namespace kvlab::durable::testing {

enum class CrashMode {
  kDropUnsynced,  // every write not yet synced is lost
  kTearUnsynced,  // unsynced writes survive in order up to a random one,
                  // which survives only in part (a torn write)
};

// Thread-safe.
class FaultEnv final : public Env {
 public:
  FaultEnv() = default;

  // The next `n` writes succeed, the one after fails having written only
  // half its bytes (ResourceExhausted, as a full disk). Negative: never.
  void FailWriteAfter(int n);
  // The next `n` syncs succeed, the one after fails and syncs nothing.
  void FailSyncAfter(int n);
  // Loses what a crash loses; `seed` picks where a torn write is cut.
  void Crash(CrashMode mode, uint64_t seed);

  // Flips bit 0 of byte `offset` of file `path`, synced (disk damage).
  void FlipByte(const std::string& path, uint64_t offset);

  absl::StatusOr<std::unique_ptr<File>> Open(const std::string& path,
                                             bool create) override;
  absl::Status CreateDir(const std::string& path) override;
  absl::StatusOr<std::vector<std::string>> List(
      const std::string& path) override;
  absl::Status Rename(const std::string& from, const std::string& to) override;
  absl::Status Remove(const std::string& path) override;
  absl::Status SyncDir(const std::string& path) override;

 private:
  friend class FaultFile;
  struct Inode {
    std::string data;    // what reads see
    std::string synced;  // what survives any crash
    std::vector<std::pair<uint64_t, std::string>> unsynced;  // in order
  };

  absl::Status WriteLocked(Inode* inode, uint64_t offset,
                           std::string_view data);
  absl::Status SyncLocked(Inode* inode);

  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Inode>> names_;
  std::map<std::string, std::shared_ptr<Inode>> synced_names_;
  std::set<std::string> dirs_;
  int writes_until_failure_ = -1;
  int syncs_until_failure_ = -1;
};

}  // namespace kvlab::durable::testing

#endif  // KVLAB_TESTING_FAULT_ENV_H_
