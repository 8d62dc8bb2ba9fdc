#include "kvlab/fuzz/fuzz_stores.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/kvlab.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::fuzz {

std::vector<std::string> ParseStoreList(std::string_view text) {
  std::vector<std::string> specs;
  std::string word;
  bool comment = false;
  for (char c : text) {
    if (c == '\n') comment = false;
    if (c == '#') comment = true;
    if (comment || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!word.empty()) specs.push_back(std::move(word));
      word.clear();
    } else {
      word.push_back(c);
    }
  }
  if (!word.empty()) specs.push_back(std::move(word));
  return specs;
}

absl::Status CheckStoreList(const std::vector<std::string>& specs) {
  std::vector<std::string> names;
  for (const std::string& spec : specs) {
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    if (!store.ok()) return store.status();
    names.push_back(ParseStoreSpec(spec)->name);
  }
  for (const StoreInfo& info : BuiltinStores().stores()) {
    if (std::find(names.begin(), names.end(), info.name) == names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("store '", info.name,
                       "' is registered but not in the fuzz store list (",
                       absl::StrJoin(specs, " "), ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> IsOrdered(std::string_view spec) {
  absl::StatusOr<StoreSpec> parsed = ParseStoreSpec(spec);
  if (!parsed.ok()) return parsed.status();
  const StoreInfo* info = BuiltinStores().Find(parsed->name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown store '", parsed->name, "'"));
  }
  return info->ordered;
}

}  // namespace kvlab::fuzz
