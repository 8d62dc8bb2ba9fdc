// The store spec "durable:dir=...:store=...": see durable_store.h.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/durable_store.h"
#include "kvlab/store_options.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {
namespace {

constexpr std::string_view kInnerPrefix = "inner.";

absl::StatusOr<DurabilityOptions> ReadOptions(const StoreOptions& options) {
  DurabilityOptions result;
  absl::StatusOr<std::string> sync =
      options.GetChoice("sync", "group", {"none", "every", "group"});
  if (!sync.ok()) return sync.status();
  result.sync = *sync == "none"    ? SyncPolicy::kNone
                : *sync == "every" ? SyncPolicy::kEvery
                                   : SyncPolicy::kGroup;
  absl::StatusOr<int64_t> checkpoint_mb =
      options.GetInt("checkpoint_mb", 64, 1, 1 << 20);
  if (!checkpoint_mb.ok()) return checkpoint_mb.status();
  result.checkpoint_bytes = static_cast<uint64_t>(*checkpoint_mb) << 20;
  absl::StatusOr<int64_t> log_files = options.GetInt("log_files", 4, 2, 1000);
  if (!log_files.ok()) return log_files.status();
  result.log_files = static_cast<uint32_t>(*log_files);
  absl::StatusOr<int64_t> log_file_mb =
      options.GetInt("log_file_mb", 32, 1, 1 << 16);
  if (!log_file_mb.ok()) return log_file_mb.status();
  result.log_file_bytes = static_cast<uint64_t>(*log_file_mb) << 20;
  return result;
}

}  // namespace

bool IsDurableSpec(std::string_view spec) {
  return spec == "durable" || absl::StartsWith(ToAbsl(spec), "durable:");
}

absl::StatusOr<std::unique_ptr<KVStore>> MakeDurableFromSpec(
    std::string_view spec, const StoreRegistry& registry) {
  absl::StatusOr<StoreSpec> parsed = ParseStoreSpec(spec);
  if (!parsed.ok()) return parsed.status();
  const StoreOptions& options = parsed->options;
  std::vector<std::string> inner_options;
  for (const std::string& key : options.Keys()) {
    if (absl::StartsWith(key, ToAbsl(kInnerPrefix))) {
      inner_options.push_back(absl::StrCat(key.substr(kInnerPrefix.size()), "=",
                                           options.GetString(key, "")));
    } else if (key != "dir" && key != "store" && key != "sync" &&
               key != "checkpoint_mb" && key != "log_files" &&
               key != "log_file_mb") {
      return absl::InvalidArgumentError(absl::StrCat(
          "durable store has no option '", key,
          "'; its options: dir=PATH (required), store=NAME (required), "
          "sync=none|every|group, checkpoint_mb, log_files, log_file_mb, "
          "inner.OPT=VAL (option OPT of the inner store)"));
    }
  }
  const std::string dir = options.GetString("dir", "");
  const std::string store = options.GetString("store", "");
  if (dir.empty() || store.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("durable store spec '", ToAbsl(spec),
                     "' needs dir=PATH and store=NAME, e.g. "
                     "durable:dir=/tmp/kv:store=btree:sync=group"));
  }
  absl::StatusOr<DurabilityOptions> durability = ReadOptions(options);
  if (!durability.ok()) return durability.status();
  const std::string inner_spec =
      inner_options.empty()
          ? store
          : absl::StrCat(store, ":", absl::StrJoin(inner_options, ":"));
  absl::StatusOr<std::unique_ptr<KVStore>> inner = registry.Make(inner_spec);
  if (!inner.ok()) return inner.status();
  const StoreInfo* info = registry.Find(store);
  durability->balanced_load =
      info != nullptr && info->sorted_input_cost == SortedInputCost::kQuadratic;
  return MakeDurable(*std::move(inner), dir, *durability);
}

}  // namespace kvlab
