#include "operations.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "kvlab/structure.h"

namespace kvdraw {
namespace {

absl::StatusOr<std::string> Unescape(const std::string& word) {
  std::string out;
  std::string error;
  if (!absl::CUnescape(word, &out, &error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad escape in '", word, "': ", error));
  }
  return out;
}

}  // namespace

std::string Operation::ToString() const {
  switch (kind) {
    case Kind::kPut:
      return absl::StrCat("put ", kvlab::QuotedKey(key), " \"",
                          kvlab::PrintablePrefix(value), "\"");
    case Kind::kDelete:
      return absl::StrCat("delete ", kvlab::QuotedKey(key));
    case Kind::kDeleteNth:
      return absl::StrCat("delete_nth ", n);
    case Kind::kGet:
      return absl::StrCat("get ", kvlab::QuotedKey(key));
  }
  return "";
}

absl::StatusOr<Operation> ParseOperation(std::string_view line) {
  std::vector<std::string> words =
      absl::StrSplit(std::string(line), ' ', absl::SkipWhitespace());
  if (words.empty()) return absl::InvalidArgumentError("empty operation");
  const std::string& verb = words[0];
  const size_t want =
      verb == "put"                                                 ? 3
      : (verb == "delete" || verb == "get" || verb == "delete_nth") ? 2
                                                                    : 0;
  if (want == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown operation '", verb,
                     "' (put KEY VALUE, delete KEY, delete_nth N, get KEY)"));
  }
  if (words.size() != want) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", verb, "' takes ", want - 1, " argument(s), got ",
                     words.size() - 1, " in '", std::string(line), "'"));
  }
  Operation op;
  if (verb == "delete_nth") {
    op.kind = Operation::Kind::kDeleteNth;
    if (!absl::SimpleAtoi(words[1], &op.n)) {
      return absl::InvalidArgumentError(
          absl::StrCat("delete_nth needs a number, got '", words[1], "'"));
    }
    return op;
  }
  op.kind = verb == "put"      ? Operation::Kind::kPut
            : verb == "delete" ? Operation::Kind::kDelete
                               : Operation::Kind::kGet;
  absl::StatusOr<std::string> key = Unescape(words[1]);
  if (!key.ok()) return key.status();
  op.key = *std::move(key);
  if (op.kind == Operation::Kind::kPut) {
    absl::StatusOr<std::string> value = Unescape(words[2]);
    if (!value.ok()) return value.status();
    op.value = *std::move(value);
  }
  return op;
}

absl::StatusOr<std::vector<Operation>> ParseOperations(std::string_view text) {
  std::vector<Operation> ops;
  int line_number = 0;
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view trimmed = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    ++line_number;
    while (!trimmed.empty() && absl::ascii_isspace(trimmed.front())) {
      trimmed.remove_prefix(1);
    }
    while (!trimmed.empty() && absl::ascii_isspace(trimmed.back())) {
      trimmed.remove_suffix(1);
    }
    if (trimmed.empty() || trimmed[0] == '#') continue;
    absl::StatusOr<Operation> op = ParseOperation(trimmed);
    if (!op.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", line_number, ": ", op.status().message()));
    }
    ops.push_back(*std::move(op));
  }
  return ops;
}

absl::StatusOr<std::string> Apply(const Operation& op, kvlab::KVStore* store) {
  switch (op.kind) {
    case Operation::Kind::kPut: {
      absl::StatusOr<bool> replaced = store->Put(op.key, op.value);
      if (!replaced.ok()) return replaced.status();
      return std::string(*replaced ? "replaced" : "new key");
    }
    case Operation::Kind::kDelete:
      return std::string(store->Delete(op.key) ? "deleted" : "absent");
    case Operation::Kind::kDeleteNth: {
      std::string key;
      if (!store->GetNth(op.n, &key, nullptr)) {
        return absl::StrCat("no pair ", op.n, " (size ", store->Size(), ")");
      }
      store->DeleteNth(op.n);
      return absl::StrCat("deleted ", kvlab::QuotedKey(key));
    }
    case Operation::Kind::kGet: {
      std::string value;
      if (!store->Get(op.key, &value)) return std::string("absent");
      return absl::StrCat("found ", kvlab::QuotedKey(value));
    }
  }
  return std::string();
}

}  // namespace kvdraw
