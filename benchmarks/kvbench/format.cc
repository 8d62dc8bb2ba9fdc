#include "kvbench/format.h"

#include "absl/strings/str_cat.h"

namespace kvbench {

std::string WithCommas(uint64_t value) {
  const std::string digits = absl::StrCat(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace kvbench
