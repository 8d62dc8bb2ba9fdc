#include "kvlab/registry.h"

#include <cstdlib>
#include <iostream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {

void StoreRegistry::Add(StoreInfo info) {
  if (Find(info.name) != nullptr) {
    // Two stages claiming one name is a programming error, found at startup.
    std::cerr << "kvlab: store '" << info.name << "' registered twice\n";
    std::abort();
  }
  stores_.push_back(std::move(info));
}

const StoreInfo* StoreRegistry::Find(std::string_view name) const {
  for (const StoreInfo& info : stores_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::string StoreRegistry::NameList() const {
  return absl::StrJoin(
      stores_, ", ",
      [](std::string* out, const StoreInfo& info) { out->append(info.name); });
}

absl::StatusOr<std::unique_ptr<KVStore>> StoreRegistry::Make(
    std::string_view spec) const {
  absl::StatusOr<StoreSpec> parsed = ParseStoreSpec(spec);
  if (!parsed.ok()) return parsed.status();
  const StoreInfo* info = Find(parsed->name);
  if (info == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown store '", parsed->name, "'; stores: ", NameList()));
  }
  for (const std::string& key : parsed->options.Keys()) {
    bool known = false;
    for (const OptionInfo& option : info->options) known |= option.name == key;
    if (!known) {
      std::string accepted =
          info->options.empty()
              ? std::string("none")
              : absl::StrJoin(info->options, "; ",
                              [](std::string* out, const OptionInfo& o) {
                                absl::StrAppend(out, o.name, ": ", o.help);
                              });
      return absl::InvalidArgumentError(
          absl::StrCat("store '", info->name, "' has no option '", key,
                       "'; its options: ", accepted));
    }
  }
  absl::StatusOr<std::unique_ptr<KVStore>> store =
      info->factory(parsed->options);
  if (!store.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "store spec '", ToAbsl(spec), "': ", store.status().message()));
  }
  return store;
}

}  // namespace kvlab
