// A fresh directory for one run of a store that keeps its pairs in files
// (StoreInfo::keeps_files, e.g. ect), made by the parent before the child
// starts and removed by the parent after it ends, so a child that crashes or
// is killed at its timeout leaves nothing behind.
//
// kvbench gives every such child its own directory (the memory guard's
// sample run and each repeat alike): a run must start from an empty store.
// Such a store also runs without a sync per write unless its spec names a
// sync policy: the stores it is compared with keep nothing on disk at all,
// and with one fdatasync per Put (tens of milliseconds on a loaded machine)
// the load would measure the disk alone.

#ifndef KVBENCH_RUN_DIRECTORY_H_
#define KVBENCH_RUN_DIRECTORY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "kvlab/registry.h"

namespace kvbench {

class RunDirectory {
 public:
  // For a store kind that keeps files: a new empty directory under `parent`
  // (the system's temporary directory if empty), named kvbench-<name>-XXXXXX.
  // For any other kind: no directory, and spec() is `spec` unchanged.
  static absl::StatusOr<std::unique_ptr<RunDirectory>> Make(
      const std::string& spec, const kvlab::StoreInfo& info,
      const std::string& parent);
  ~RunDirectory();
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;

  // The spec to build the store from: `spec` with ":dir=<directory>", and
  // ":sync=none" if the kind has a sync option that `spec` leaves out.
  const std::string& spec() const { return spec_; }
  // The directory, or "" for a store kind without files.
  const std::string& path() const { return path_; }
  // Whether spec() turned syncs off (the spec named no sync policy).
  bool sync_turned_off() const { return sync_turned_off_; }

 private:
  RunDirectory(std::string spec, std::string path, bool sync_turned_off)
      : spec_(std::move(spec)),
        path_(std::move(path)),
        sync_turned_off_(sync_turned_off) {}

  const std::string spec_;
  const std::string path_;
  const bool sync_turned_off_;
};

}  // namespace kvbench

#endif  // KVBENCH_RUN_DIRECTORY_H_
