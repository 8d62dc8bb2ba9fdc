// kvbench --durable: the store under test wrapped in a durable store
// (kvlab/durable_store.h), and what durability cost: log and checkpoint
// bytes per write, syncs, and the time to recover the store from its
// directory after the run.

#ifndef KVBENCH_DURABLE_RUN_H_
#define KVBENCH_DURABLE_RUN_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "kvbench/run_record.h"
#include "kvlab/durable_store.h"

namespace kvbench {

// One run's durable directory: a fresh one under `parent` (or the system's
// temporary directory if empty), removed when this object goes.
class DurableRun {
 public:
  // Wraps `store`, built from `spec`, with sync policy `sync` ("none",
  // "every" or "group").
  static absl::StatusOr<std::unique_ptr<DurableRun>> Start(
      const std::string& spec, const std::string& sync,
      const std::string& parent, std::unique_ptr<kvlab::KVStore>* store);
  ~DurableRun();

  // Records the write counters of `store` (the wrapper Start made, possibly
  // moved), destroys it, then times reopening the directory into a fresh
  // store built from the spec, and records that too.
  absl::Status Finish(std::unique_ptr<kvlab::KVStore> store, RunRecord* record);

 private:
  DurableRun(std::string spec, std::string dir,
             kvlab::DurabilityOptions options)
      : spec_(std::move(spec)), dir_(std::move(dir)), options_(options) {}

  const std::string spec_;
  const std::string dir_;
  const kvlab::DurabilityOptions options_;
  // A store kind that degrades on sorted input is reloaded middle first.
  bool options_balanced_ = false;
};

}  // namespace kvbench

#endif  // KVBENCH_DURABLE_RUN_H_
