#include "kvlab/testing/fault_env.h"

#include <random>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace kvlab::durable::testing {

namespace {

void Overlay(std::string* data, uint64_t offset, std::string_view bytes) {
  if (data->size() < offset + bytes.size()) {
    data->resize(offset + bytes.size(), '\0');
  }
  data->replace(offset, bytes.size(), bytes);
}

std::string Parent(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

class FaultFile final : public File {
 public:
  FaultFile(FaultEnv* env, std::shared_ptr<FaultEnv::Inode> inode)
      : env_(env), inode_(std::move(inode)) {}

  absl::Status Read(uint64_t offset, size_t n, std::string* out) override {
    std::lock_guard lock(env_->mutex_);
    out->clear();
    if (offset < inode_->data.size()) {
      *out = inode_->data.substr(offset, n);
    }
    return absl::OkStatus();
  }
  absl::Status Write(uint64_t offset, std::string_view data) override {
    std::lock_guard lock(env_->mutex_);
    return env_->WriteLocked(inode_.get(), offset, data);
  }
  absl::Status Sync() override {
    std::lock_guard lock(env_->mutex_);
    return env_->SyncLocked(inode_.get());
  }
  absl::StatusOr<uint64_t> Size() override {
    std::lock_guard lock(env_->mutex_);
    return inode_->data.size();
  }

 private:
  FaultEnv* const env_;
  const std::shared_ptr<FaultEnv::Inode> inode_;
};

void FaultEnv::FailWriteAfter(int n) {
  std::lock_guard lock(mutex_);
  writes_until_failure_ = n;
}

void FaultEnv::FailSyncAfter(int n) {
  std::lock_guard lock(mutex_);
  syncs_until_failure_ = n;
}

absl::Status FaultEnv::WriteLocked(Inode* inode, uint64_t offset,
                                   std::string_view data) {
  if (writes_until_failure_ == 0) {
    writes_until_failure_ = -1;
    const std::string_view half = data.substr(0, data.size() / 2);
    Overlay(&inode->data, offset, half);
    inode->unsynced.emplace_back(offset, std::string(half));
    return absl::ResourceExhaustedError("injected: no space left on device");
  }
  if (writes_until_failure_ > 0) --writes_until_failure_;
  Overlay(&inode->data, offset, data);
  inode->unsynced.emplace_back(offset, std::string(data));
  return absl::OkStatus();
}

absl::Status FaultEnv::SyncLocked(Inode* inode) {
  if (syncs_until_failure_ == 0) {
    syncs_until_failure_ = -1;
    return absl::InternalError("injected: fdatasync failed (I/O error)");
  }
  if (syncs_until_failure_ > 0) --syncs_until_failure_;
  inode->synced = inode->data;
  inode->unsynced.clear();
  return absl::OkStatus();
}

void FaultEnv::Crash(CrashMode mode, uint64_t seed) {
  std::lock_guard lock(mutex_);
  std::mt19937_64 rng(seed);
  std::set<Inode*> seen;
  for (auto* names : {&names_, &synced_names_}) {
    for (auto& [name, inode] : *names) {
      if (!seen.insert(inode.get()).second) continue;
      std::string data = inode->synced;
      if (mode == CrashMode::kTearUnsynced && !inode->unsynced.empty()) {
        const size_t kept = rng() % (inode->unsynced.size() + 1);
        for (size_t i = 0; i < kept && i < inode->unsynced.size(); ++i) {
          const auto& [offset, bytes] = inode->unsynced[i];
          if (i + 1 == kept) {
            Overlay(
                &data, offset,
                std::string_view(bytes).substr(0, rng() % (bytes.size() + 1)));
          } else {
            Overlay(&data, offset, bytes);
          }
        }
      }
      inode->data = data;
      inode->synced = data;
      inode->unsynced.clear();
    }
  }
  names_ = synced_names_;
}

void FaultEnv::FlipByte(const std::string& path, uint64_t offset) {
  std::lock_guard lock(mutex_);
  Inode* inode = names_.at(path).get();
  inode->data.at(offset) ^= 1;
  inode->synced.at(offset) ^= 1;
}

absl::StatusOr<std::unique_ptr<File>> FaultEnv::Open(const std::string& path,
                                                     bool create) {
  std::lock_guard lock(mutex_);
  auto it = names_.find(path);
  if (it == names_.end()) {
    if (!create) return absl::NotFoundError(absl::StrCat("no file ", path));
    if (dirs_.count(Parent(path)) == 0) {
      return absl::NotFoundError(absl::StrCat("no directory for ", path));
    }
    it = names_.emplace(path, std::make_shared<Inode>()).first;
  }
  return std::unique_ptr<File>(new FaultFile(this, it->second));
}

absl::Status FaultEnv::CreateDir(const std::string& path) {
  std::lock_guard lock(mutex_);
  dirs_.insert(path);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> FaultEnv::List(
    const std::string& path) {
  std::lock_guard lock(mutex_);
  if (dirs_.count(path) == 0) {
    return absl::NotFoundError(absl::StrCat("no directory ", path));
  }
  std::vector<std::string> names;
  for (const auto& [name, inode] : names_) {
    if (Parent(name) == path) names.push_back(name.substr(path.size() + 1));
  }
  return names;
}

absl::Status FaultEnv::Rename(const std::string& from, const std::string& to) {
  std::lock_guard lock(mutex_);
  auto it = names_.find(from);
  if (it == names_.end()) return absl::NotFoundError(from);
  names_[to] = it->second;
  names_.erase(from);
  return absl::OkStatus();
}

absl::Status FaultEnv::Remove(const std::string& path) {
  std::lock_guard lock(mutex_);
  if (names_.erase(path) == 0) return absl::NotFoundError(path);
  return absl::OkStatus();
}

absl::Status FaultEnv::SyncDir(const std::string& path) {
  std::lock_guard lock(mutex_);
  for (auto it = synced_names_.begin(); it != synced_names_.end();) {
    it = Parent(it->first) == path ? synced_names_.erase(it) : std::next(it);
  }
  for (const auto& [name, inode] : names_) {
    if (Parent(name) == path) synced_names_[name] = inode;
  }
  return absl::OkStatus();
}

}  // namespace kvlab::durable::testing
