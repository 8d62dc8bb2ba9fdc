// The operations kvlab-draw applies to a store, one drawing after each.
//
// One operation a line (--ops=FILE) or per --op flag:
//   put KEY VALUE     delete KEY     delete_nth N     get KEY
// KEY and VALUE are single words in which C escapes stand for any byte
// ("a\x00b", "two\x20words"). Blank lines and lines starting with # are
// skipped.

#ifndef KVLAB_DRAW_OPERATIONS_H_
#define KVLAB_DRAW_OPERATIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"

namespace kvdraw {

struct Operation {
  enum class Kind { kPut, kDelete, kDeleteNth, kGet };
  Kind kind = Kind::kPut;
  std::string key;
  std::string value;
  uint64_t n = 0;  // delete_nth

  // The operation as written, keys and values quoted and escaped, a
  // value's first 16 bytes only: "put \"b\" \"2\"".
  std::string ToString() const;
};

// Parses one operation; InvalidArgument naming what is wrong.
absl::StatusOr<Operation> ParseOperation(std::string_view line);

// Parses a file's text, one operation a line; errors name the line.
absl::StatusOr<std::vector<Operation>> ParseOperations(std::string_view text);

// Applies `op` to `store` and returns what it answered ("new key",
// "replaced", "absent", "deleted \"k\"", "found 42", ...), or the store's
// error.
absl::StatusOr<std::string> Apply(const Operation& op, kvlab::KVStore* store);

}  // namespace kvdraw

#endif  // KVLAB_DRAW_OPERATIONS_H_
