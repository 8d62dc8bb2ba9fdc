#include "kvlab/store_options.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {

absl::StatusOr<StoreOptions> StoreOptions::Parse(std::string_view text) {
  StoreOptions options;
  if (text.empty()) return options;
  for (absl::string_view item : absl::StrSplit(ToAbsl(text), ':')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (kv.first.empty() || item.find('=') == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("malformed option '", item, "': expected key=value"));
    }
    if (!options.values_.emplace(std::string(kv.first), std::string(kv.second))
             .second) {
      return absl::InvalidArgumentError(
          absl::StrCat("option '", kv.first, "' is given twice"));
    }
  }
  return options;
}

bool StoreOptions::Has(std::string_view key) const {
  return values_.find(key) != values_.end();
}

absl::StatusOr<int64_t> StoreOptions::GetInt(std::string_view key,
                                             int64_t default_value, int64_t min,
                                             int64_t max) const {
  auto it = values_.find(key);
  if (it == values_.end()) return default_value;
  int64_t value;
  if (!absl::SimpleAtoi(it->second, &value) || value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("option ", ToAbsl(key), "=", it->second,
                     ": expected an integer in [", min, ", ", max, "]"));
  }
  return value;
}

absl::StatusOr<std::string> StoreOptions::GetChoice(
    std::string_view key, std::string_view default_value,
    const std::vector<std::string>& allowed) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::string(default_value);
  for (const std::string& choice : allowed) {
    if (choice == it->second) return choice;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("option ", ToAbsl(key), "=", it->second,
                   ": expected one of ", absl::StrJoin(allowed, ", ")));
}

std::string StoreOptions::GetString(std::string_view key,
                                    std::string_view default_value) const {
  auto it = values_.find(key);
  return it == values_.end() ? std::string(default_value) : it->second;
}

std::vector<std::string> StoreOptions::Keys() const {
  std::vector<std::string> keys;
  for (const auto& [key, value] : values_) keys.push_back(key);
  return keys;
}

std::string StoreOptions::ToString() const {
  return absl::StrJoin(values_, ":", absl::PairFormatter("="));
}

absl::StatusOr<StoreSpec> ParseStoreSpec(std::string_view spec) {
  std::pair<absl::string_view, absl::string_view> parts =
      absl::StrSplit(ToAbsl(spec), absl::MaxSplits(':', 1));
  if (parts.first.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("empty store name in spec '", ToAbsl(spec), "'"));
  }
  absl::StatusOr<StoreOptions> options =
      StoreOptions::Parse(FromAbsl(parts.second));
  if (!options.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "in store spec '", ToAbsl(spec), "': ", options.status().message()));
  }
  return StoreSpec{std::string(parts.first), *std::move(options)};
}

}  // namespace kvlab
