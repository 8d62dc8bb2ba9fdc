#include "kvbench/run_directory.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "kvlab/store_options.h"

namespace kvbench {

absl::StatusOr<std::unique_ptr<RunDirectory>> RunDirectory::Make(
    const std::string& spec, const kvlab::StoreInfo& info,
    const std::string& parent) {
  if (!info.keeps_files) {
    return std::unique_ptr<RunDirectory>(new RunDirectory(spec, "", false));
  }
  std::error_code error;
  const std::filesystem::path base =
      parent.empty() ? std::filesystem::temp_directory_path(error)
                     : std::filesystem::path(parent);
  if (base.string().find(':') != std::string::npos) {
    // The directory goes into the store's spec, whose separator is ':'.
    return absl::InvalidArgumentError(
        absl::StrCat("--dir: ", base.string(), " contains ':'"));
  }
  std::string pattern =
      (base / absl::StrCat("kvbench-", info.name, "-XXXXXX")).string();
  if (error || ::mkdtemp(pattern.data()) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("--dir: cannot create a directory in ", base.string()));
  }
  std::string run_spec = absl::StrCat(spec, ":dir=", pattern);
  const absl::StatusOr<kvlab::StoreSpec> parsed = kvlab::ParseStoreSpec(spec);
  const bool has_sync_option =
      std::any_of(info.options.begin(), info.options.end(),
                  [](const kvlab::OptionInfo& o) { return o.name == "sync"; });
  const bool turn_off =
      has_sync_option && parsed.ok() && !parsed->options.Has("sync");
  if (turn_off) absl::StrAppend(&run_spec, ":sync=none");
  return std::unique_ptr<RunDirectory>(
      new RunDirectory(std::move(run_spec), pattern, turn_off));
}

RunDirectory::~RunDirectory() {
  if (path_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace kvbench
