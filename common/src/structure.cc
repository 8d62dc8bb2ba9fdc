#include "kvlab/structure.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/string_view_compat.h"

namespace kvlab {

std::string PrintableBytes(std::string_view bytes) {
  return absl::CHexEscape(ToAbsl(bytes));
}

std::string PrintablePrefix(std::string_view bytes, size_t max_bytes) {
  if (bytes.size() <= max_bytes) return PrintableBytes(bytes);
  return absl::StrCat(PrintableBytes(bytes.substr(0, max_bytes)), "...");
}

std::string QuotedKey(std::string_view key) {
  return absl::StrCat("\"", PrintableBytes(key), "\"");
}

}  // namespace kvlab
