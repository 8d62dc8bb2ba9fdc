// Debian's Abseil is built with its own absl::string_view, a type distinct
// from std::string_view and not implicitly convertible to or from it. kvlab's
// interfaces use std::string_view; these two functions cross the boundary
// where Abseil's string utilities (StrCat, StrSplit, CHexEscape) are used.

#ifndef KVLAB_STRING_VIEW_COMPAT_H_
#define KVLAB_STRING_VIEW_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace kvlab {

inline absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

inline std::string_view FromAbsl(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

}  // namespace kvlab

#endif  // KVLAB_STRING_VIEW_COMPAT_H_
