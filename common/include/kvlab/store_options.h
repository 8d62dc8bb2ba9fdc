// Parsing of store specs: "name" or "name:key=value:key=value".
//
// A spec names a registered store and optionally sets its options, for
// example "btree:order=32" or "ctrie:lock=global:alloc=malloc". Options are
// separated by ':' so that a comma list of specs ("avl,btree:order=8") stays
// unambiguous.

#ifndef KVLAB_STORE_OPTIONS_H_
#define KVLAB_STORE_OPTIONS_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kvlab {

// The options of one spec, with typed, range-checked accessors. Every
// accessor returns InvalidArgument naming the option and what it accepts.
class StoreOptions {
 public:
  StoreOptions() = default;

  // Parses the part of a spec after the store name ("order=32:foo=bar").
  static absl::StatusOr<StoreOptions> Parse(std::string_view text);

  bool Has(std::string_view key) const;

  // The integer value of `key`, or `default_value` if unset; an error if it
  // is not an integer in [min, max].
  absl::StatusOr<int64_t> GetInt(std::string_view key, int64_t default_value,
                                 int64_t min, int64_t max) const;

  // The value of `key`, or `default_value` if unset; an error if it is not
  // one of `allowed`.
  absl::StatusOr<std::string> GetChoice(
      std::string_view key, std::string_view default_value,
      const std::vector<std::string>& allowed) const;

  // The value of `key` as given, or `default_value` if unset.
  std::string GetString(std::string_view key,
                        std::string_view default_value) const;

  // The option names that were set, in sorted order.
  std::vector<std::string> Keys() const;

  // "key=value:key=value", sorted by key; empty if no options are set.
  std::string ToString() const;

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

// A spec split into its store name and options.
struct StoreSpec {
  std::string name;
  StoreOptions options;
};

absl::StatusOr<StoreSpec> ParseStoreSpec(std::string_view spec);

}  // namespace kvlab

#endif  // KVLAB_STORE_OPTIONS_H_
