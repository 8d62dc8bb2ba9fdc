#include "kvbench/options.h"

#include <cmath>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "kvbench/datasets.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

absl::Status Invalid(absl::string_view flag, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", message));
}

}  // namespace

std::string PhaseSet::ToString() const {
  std::vector<std::string> names;
  if (load) names.push_back("load");
  if (get) names.push_back("get");
  if (scan) names.push_back("scan");
  if (course_all) {
    names.push_back("course_all");
  } else if (course) {
    names.push_back("course");
  }
  return absl::StrJoin(names, ",");
}

std::vector<std::string> SplitList(std::string_view text) {
  std::vector<std::string> items;
  for (absl::string_view item : absl::StrSplit(kvlab::ToAbsl(text), ',')) {
    item = absl::StripAsciiWhitespace(item);
    if (!item.empty()) items.emplace_back(item);
  }
  return items;
}

absl::StatusOr<PhaseSet> ParsePhases(std::string_view text) {
  PhaseSet phases;
  for (const std::string& name : SplitList(text)) {
    if (name == "load") {
      phases.load = true;
    } else if (name == "get") {
      phases.get = true;
    } else if (name == "scan") {
      phases.scan = true;
    } else if (name == "course") {
      phases.course = true;
    } else if (name == "course_all") {
      phases.course = phases.course_all = true;
    } else {
      return Invalid("phases",
                     absl::StrCat("unknown phase '", name,
                                  "'; phases: load, get, scan, course, "
                                  "course_all"));
    }
  }
  if (!phases.load) {
    return Invalid("phases",
                   "must include load: every other phase needs a loaded "
                   "store");
  }
  return phases;
}

absl::StatusOr<BenchOptions> ValidateOptions(
    const RawOptions& raw, const kvlab::StoreRegistry& registry) {
  BenchOptions options;
  if (raw.n < 1 || raw.n > kMaxN) {
    return Invalid(
        "n",
        absl::StrCat(raw.n, " is out of range; n must be in [1, ", kMaxN, "]"));
  }
  options.n = static_cast<uint64_t>(raw.n);
  if (raw.threads < 1 || raw.threads > 1024) {
    return Invalid("threads",
                   absl::StrCat(raw.threads, " is out of range [1, 1024]"));
  }
  options.threads = static_cast<int>(raw.threads);
  // !(x > 0) also rejects NaN.
  if (!(raw.seconds > 0) || raw.seconds > 3600) {
    return Invalid("seconds",
                   absl::StrCat(raw.seconds, " is out of range (0, 3600]"));
  }
  options.seconds = raw.seconds;
  if (raw.course_ops < 0 || raw.course_ops > kMaxCourseOps) {
    return Invalid("course_ops",
                   absl::StrCat(raw.course_ops, " is out of range [0, ",
                                kMaxCourseOps, "] (0: run for --seconds)"));
  }
  options.course_ops = static_cast<uint64_t>(raw.course_ops);
  if (raw.repeat < 1 || raw.repeat > 1000) {
    return Invalid("repeat",
                   absl::StrCat(raw.repeat, " is out of range [1, 1000]"));
  }
  options.repeat = static_cast<int>(raw.repeat);
  if (!(raw.max_predicted_seconds >= 0)) {
    return Invalid("max_predicted_seconds", "must be >= 0");
  }
  options.max_predicted_seconds = raw.max_predicted_seconds;
  if (!(raw.child_timeout >= 0)) {
    return Invalid("child_timeout", "must be >= 0 (0: no timeout)");
  }
  options.child_timeout = raw.child_timeout;
  options.seed = raw.seed;
  options.json_path = raw.json;
  options.verify = raw.verify;
  options.allow_debug = raw.allow_debug;
  options.allow_memory_overcommit = raw.allow_memory_overcommit;
  if (!raw.durable.empty() && raw.durable != "none" && raw.durable != "every" &&
      raw.durable != "group") {
    return Invalid("durable", absl::StrCat("'", raw.durable,
                                           "': expected none, every or group"));
  }
  if (raw.durable.empty() && !raw.durable_dir.empty()) {
    return Invalid("durable_dir", "needs --durable");
  }
  options.durable = raw.durable;
  options.durable_dir = raw.durable_dir;
  if (!raw.dir.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(raw.dir, error)) {
      return Invalid("dir", absl::StrCat("'", raw.dir, "' is not a directory"));
    }
    if (raw.dir.find(':') != std::string::npos) {
      return Invalid("dir", absl::StrCat("'", raw.dir,
                                         "' contains ':', the store spec's "
                                         "separator"));
    }
  }
  options.dir = raw.dir;

  absl::StatusOr<PhaseSet> phases = ParsePhases(raw.phases);
  if (!phases.ok()) return phases.status();
  options.phases = *phases;

  options.datasets = SplitList(raw.dataset);
  if (options.datasets.empty()) return Invalid("dataset", "no data set given");
  for (const std::string& name : options.datasets) {
    if (!IsDataSetName(name)) {
      return Invalid("dataset",
                     absl::StrCat("unknown data set '", name, "'; data sets: ",
                                  absl::StrJoin(DataSetNames(), ", ")));
    }
  }

  std::vector<std::string> specs = SplitList(raw.store);
  if (specs.size() == 1 && specs[0] == "all") {
    specs.clear();
    for (const kvlab::StoreInfo& info : registry.stores()) {
      specs.push_back(info.name);
    }
  }
  if (specs.empty()) return Invalid("store", "no store given");
  for (const std::string& spec : specs) {
    // Checked before the store is built: building one with dir= would open
    // that directory.
    absl::StatusOr<kvlab::StoreSpec> parsed = kvlab::ParseStoreSpec(spec);
    const kvlab::StoreInfo* found =
        parsed.ok() ? registry.Find(parsed->name) : nullptr;
    if (found != nullptr && found->keeps_files && parsed->options.Has("dir")) {
      return Invalid("store",
                     absl::StrCat("'", spec,
                                  "': kvbench gives each run of a store that "
                                  "keeps files a fresh directory of its own "
                                  "(under --dir); leave dir= out"));
    }
    // Building the store validates the name and every option value.
    absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store = registry.Make(spec);
    if (!store.ok()) return Invalid("store", store.status().message());
    const kvlab::StoreInfo* info = registry.Find(parsed->name);
    if (info->keeps_files && !options.durable.empty()) {
      return Invalid("durable", absl::StrCat(info->name,
                                             " keeps its own files and log; "
                                             "run it without --durable"));
    }
    options.stores.push_back(StoreChoice{spec, *info});
  }
  return options;
}

}  // namespace kvbench
