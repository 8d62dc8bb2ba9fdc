#include "kvbench/memory_probe.h"

#include <dlfcn.h>
#include <malloc.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

// Parses the "   1234 kB" after a field name into bytes.
bool ParseKilobytes(absl::string_view text, uint64_t* bytes) {
  text = absl::StripAsciiWhitespace(text);
  if (!absl::ConsumeSuffix(&text, "kB")) return false;
  uint64_t kilobytes = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(text), &kilobytes)) {
    return false;
  }
  *bytes = kilobytes * 1024;
  return true;
}

}  // namespace

absl::StatusOr<ProcStatus> ParseProcStatus(std::string_view text) {
  ProcStatus status;
  bool have_anon = false, have_rss = false, have_hwm = false;
  for (absl::string_view line : absl::StrSplit(kvlab::ToAbsl(text), '\n')) {
    absl::string_view rest = line;
    uint64_t* field = nullptr;
    bool* seen = nullptr;
    if (absl::ConsumePrefix(&rest, "RssAnon:")) {
      field = &status.rss_anon, seen = &have_anon;
    } else if (absl::ConsumePrefix(&rest, "VmRSS:")) {
      field = &status.vm_rss, seen = &have_rss;
    } else if (absl::ConsumePrefix(&rest, "VmHWM:")) {
      field = &status.vm_hwm, seen = &have_hwm;
    } else {
      continue;
    }
    if (!ParseKilobytes(rest, field)) {
      return absl::DataLossError(
          absl::StrCat("cannot parse /proc status line '", line, "'"));
    }
    *seen = true;
  }
  if (!have_anon || !have_rss || !have_hwm) {
    return absl::NotFoundError(
        "/proc status lacks RssAnon, VmRSS or VmHWM (Linux 4.5 or later "
        "needed)");
  }
  return status;
}

absl::StatusOr<ProcStatus> ReadProcStatus() {
  std::ifstream in("/proc/self/status");
  if (!in) return absl::UnavailableError("cannot open /proc/self/status");
  std::stringstream text;
  text << in.rdbuf();
  return ParseProcStatus(text.str());
}

void TrimHeap() {
  malloc_trim(0);
  // Under an LD_PRELOADed tcmalloc (make ... ALLOCATOR=tcmalloc) malloc_trim
  // is glibc's and does nothing for tcmalloc, which keeps freed pages until
  // asked; a store would then fill pages the baseline already counted.
  using Release = void (*)();
  static const Release release = reinterpret_cast<Release>(
      dlsym(RTLD_DEFAULT, "MallocExtension_ReleaseFreeMemory"));
  if (release != nullptr) release();
}

absl::Status ResetPeakRss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  if (!out) {
    return absl::UnavailableError(
        absl::StrCat("cannot reset the peak through /proc/self/clear_refs: ",
                     std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace kvbench
