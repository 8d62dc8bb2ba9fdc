#include "kvbench/durable_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "kvlab/kvlab.h"

namespace kvbench {

absl::StatusOr<std::unique_ptr<DurableRun>> DurableRun::Start(
    const std::string& spec, const std::string& sync, const std::string& parent,
    std::unique_ptr<kvlab::KVStore>* store) {
  kvlab::DurabilityOptions options;
  options.sync = sync == "none"    ? kvlab::SyncPolicy::kNone
                 : sync == "every" ? kvlab::SyncPolicy::kEvery
                                   : kvlab::SyncPolicy::kGroup;
  const std::filesystem::path base =
      parent.empty() ? std::filesystem::temp_directory_path()
                     : std::filesystem::path(parent);
  std::string pattern = (base / "kvbench-durable-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--durable_dir: cannot create a directory in ", base.string()));
  }
  std::unique_ptr<DurableRun> run(new DurableRun(spec, pattern, options));
  const absl::StatusOr<kvlab::StoreSpec> parsed = kvlab::ParseStoreSpec(spec);
  if (parsed.ok()) {
    const kvlab::StoreInfo* info = kvlab::BuiltinStores().Find(parsed->name);
    run->options_balanced_ =
        info != nullptr &&
        info->sorted_input_cost == kvlab::SortedInputCost::kQuadratic;
  }
  kvlab::DurabilityOptions opened = options;
  opened.balanced_load = run->options_balanced_;
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> durable =
      kvlab::MakeDurable(std::move(*store), run->dir_, opened);
  if (!durable.ok()) return durable.status();
  *store = *std::move(durable);
  return run;
}

DurableRun::~DurableRun() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

absl::Status DurableRun::Finish(std::unique_ptr<kvlab::KVStore> store,
                                RunRecord* record) {
  const auto& durable = static_cast<const kvlab::DurableStore&>(*store);
  const kvlab::DurabilityStats stats = durable.stats();
  const uint64_t size = store->Size();
  store.reset();
  const double bytes_per_write =
      stats.writes == 0
          ? 0
          : static_cast<double>(stats.log_bytes + stats.checkpoint_bytes) /
                static_cast<double>(stats.writes);
  record->Set(metric::kDurableWrites, static_cast<double>(stats.writes));
  record->Set(metric::kDurableBytesPerWrite, bytes_per_write);
  record->Set(metric::kDurableSyncs, static_cast<double>(stats.syncs));

  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> inner =
      kvlab::MakeStore(spec_);
  if (!inner.ok()) return inner.status();
  kvlab::DurabilityOptions options = options_;
  options.balanced_load = options_balanced_;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<kvlab::DurableStore>> reopened =
      kvlab::DurableStore::Open(*std::move(inner), dir_, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!reopened.ok()) return reopened.status();
  if ((*reopened)->Size() != size) {
    return absl::InternalError(
        absl::StrCat("recovery: ", (*reopened)->Size(), " pairs, not ", size));
  }
  record->Set(metric::kRecoverSeconds, seconds);
  const kvlab::RecoveryReport& report = (*reopened)->recovery();
  const double writes = stats.writes == 0 ? 1 : stats.writes;
  record->notes.push_back(absl::StrFormat(
      "durable: %d writes logged, %.1f log + %.1f checkpoint bytes per "
      "write, %d syncs, %d checkpoints; recovery %.3f s (checkpoint of %d "
      "pairs + %d log records)",
      stats.writes, stats.log_bytes / writes, stats.checkpoint_bytes / writes,
      stats.syncs, stats.checkpoints, seconds, report.checkpoint_pairs,
      report.replayed));
  return absl::OkStatus();
}

}  // namespace kvbench
