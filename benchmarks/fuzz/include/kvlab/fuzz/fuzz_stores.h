// The list of store specs the fuzzer covers (benchmarks/fuzz/stores.txt).

#ifndef KVLAB_FUZZ_FUZZ_STORES_H_
#define KVLAB_FUZZ_FUZZ_STORES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kvlab::fuzz {

// The specs in `text`: words separated by white space, '#' starting a
// comment that runs to the end of its line.
std::vector<std::string> ParseStoreList(std::string_view text);

// OK if every spec builds with MakeStore and every registered store is named
// by at least one spec; otherwise InvalidArgument naming the first problem.
absl::Status CheckStoreList(const std::vector<std::string>& specs);

// Whether the store `spec` names is ordered (StoreInfo::ordered), or
// InvalidArgument for an unknown store.
absl::StatusOr<bool> IsOrdered(std::string_view spec);

}  // namespace kvlab::fuzz

#endif  // KVLAB_FUZZ_FUZZ_STORES_H_
