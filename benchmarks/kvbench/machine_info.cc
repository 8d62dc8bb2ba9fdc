#include "kvbench/machine_info.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "kvlab/string_view_compat.h"

#ifndef KVLAB_BUILD_TYPE
#define KVLAB_BUILD_TYPE "unknown"
#endif
#ifndef KVLAB_SANITIZER
#define KVLAB_SANITIZER ""
#endif
#ifndef KVBENCH_CXX_FLAGS
#define KVBENCH_CXX_FLAGS "unknown"
#endif

namespace kvbench {
namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::string ParseCpuModel(std::string_view cpuinfo) {
  for (absl::string_view line : absl::StrSplit(kvlab::ToAbsl(cpuinfo), '\n')) {
    if (!absl::StartsWith(line, "model name")) continue;
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos) continue;
    return std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  }
  return "unknown";
}

uint64_t ParseMemTotal(std::string_view meminfo) {
  for (absl::string_view line : absl::StrSplit(kvlab::ToAbsl(meminfo), '\n')) {
    if (!absl::ConsumePrefix(&line, "MemTotal:")) continue;
    line = absl::StripAsciiWhitespace(line);
    absl::ConsumeSuffix(&line, "kB");
    uint64_t kilobytes = 0;
    if (absl::SimpleAtoi(absl::StripAsciiWhitespace(line), &kilobytes)) {
      return kilobytes * 1024;
    }
  }
  return 0;
}

MachineInfo ReadMachineInfo() {
  MachineInfo info;
  info.cpu_model = ParseCpuModel(ReadFile("/proc/cpuinfo"));
  info.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  info.memory_bytes = ParseMemTotal(ReadFile("/proc/meminfo"));
  utsname name;
  if (uname(&name) == 0) {
    info.kernel = absl::StrCat(name.sysname, " ", name.release);
    info.hostname = name.nodename;
  }
  return info;
}

BuildInfo CurrentBuild() {
  BuildInfo build;
  build.type = KVLAB_BUILD_TYPE;
  build.sanitizer = KVLAB_SANITIZER;
#if defined(__clang__)
  build.compiler = absl::StrCat("clang ", __clang_version__);
#elif defined(__GNUC__)
  build.compiler = absl::StrCat("g++ ", __VERSION__);
#else
  build.compiler = "unknown";
#endif
  build.flags = std::string(absl::StripAsciiWhitespace(KVBENCH_CXX_FLAGS));
#ifdef NDEBUG
  build.ndebug = true;
#endif
  const char* preload = std::getenv("LD_PRELOAD");
  const std::string preloaded = preload == nullptr ? "" : preload;
  if (preloaded.find("tcmalloc") != std::string::npos) {
    build.allocator = "tcmalloc";
  } else if (preloaded.find("jemalloc") != std::string::npos) {
    build.allocator = "jemalloc";
  } else {
    build.allocator = "glibc malloc";
  }
  return build;
}

bool IsReliableBuild(const BuildInfo& build) {
  return build.type == "Release" && build.sanitizer.empty() && build.ndebug;
}

std::string UnreliableBuildWarning(const BuildInfo& build,
                                   std::string_view tool,
                                   std::string_view continuing) {
  std::string why;
  if (build.type != "Release") {
    absl::StrAppend(&why, "  - build type is '", build.type,
                    "', not 'Release'\n");
  }
  if (!build.sanitizer.empty()) {
    absl::StrAppend(&why, "  - built with sanitizer '", build.sanitizer, "'\n");
  }
  if (!build.ndebug) absl::StrAppend(&why, "  - NDEBUG is not defined\n");
  const std::string rule(72, '*');
  const absl::string_view name = kvlab::ToAbsl(tool);
  return absl::StrCat(
      rule, "\n", "WARNING: ", name,
      " was built for debugging, not measuring.\n", why,
      "Its numbers are meaningless: unoptimised or sanitized code is many\n"
      "times slower and uses more memory, unevenly across stores.\n"
      "Build for release instead (make bench and make grade do), or\n"
      "  cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release\n"
      "  cmake --build build/release --target ",
      name, "\n",
      continuing.empty()
          ? "Refusing to run. Pass --allow_debug to run anyway (for testing "
            "the tool itself).\n"
          : absl::StrCat("Continuing ", kvlab::ToAbsl(continuing), "\n"),
      rule, "\n");
}

std::string MachineDescription(const MachineInfo& machine) {
  return absl::StrFormat(
      "%s, %d cores, %.1f GiB, %s", machine.cpu_model, machine.cores,
      double(machine.memory_bytes) / (1 << 30), machine.kernel);
}

std::string BuildDescription(const BuildInfo& build) {
  return absl::StrFormat(
      "%s, sanitizer %s, %s, flags '%s', %s", build.type,
      build.sanitizer.empty() ? "none" : build.sanitizer, build.compiler,
      build.flags, build.allocator.empty() ? "glibc malloc" : build.allocator);
}

std::string UtcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace kvbench
