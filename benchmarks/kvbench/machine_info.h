// What the table header and JSON records say about the machine and the
// build, so that numbers are never quoted without their context.

#ifndef KVBENCH_MACHINE_INFO_H_
#define KVBENCH_MACHINE_INFO_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace kvbench {

struct MachineInfo {
  std::string cpu_model;      // "model name" of /proc/cpuinfo
  int cores = 0;              // online logical CPUs
  uint64_t memory_bytes = 0;  // MemTotal of /proc/meminfo
  std::string kernel;         // uname: "Linux 6.1.0-18-amd64"
  std::string hostname;
};

MachineInfo ReadMachineInfo();

// The first "model name" in /proc/cpuinfo text, or "unknown".
std::string ParseCpuModel(std::string_view cpuinfo);
// MemTotal of /proc/meminfo text in bytes, or 0.
uint64_t ParseMemTotal(std::string_view meminfo);

struct BuildInfo {
  std::string type;       // CMAKE_BUILD_TYPE, e.g. "Release"
  std::string sanitizer;  // "", "address" or "thread"
  std::string compiler;   // "g++ " + __VERSION__
  std::string flags;    // the C++ flags of this build type, e.g. "-O2 -DNDEBUG"
  bool ndebug = false;  // NDEBUG defined (asserts off)
  // The malloc in use: "glibc malloc", or the LD_PRELOADed one
  // ("tcmalloc") when kvbench runs under make ... ALLOCATOR=tcmalloc.
  std::string allocator;
};

// The build this binary came from.
BuildInfo CurrentBuild();

// True for a Release build without sanitizers and with NDEBUG: the only
// builds whose numbers mean anything.
bool IsReliableBuild(const BuildInfo& build);

// What every header line and JSON record of an unreliable build carries.
inline constexpr std::string_view kUnreliableMark =
    "UNRELIABLE: debug/sanitized build";

// The loud multi-line warning an unreliable build of `tool` (kvbench,
// kvgrade, nth_latency: the program and its CMake target) prints.
// `continuing` says why the tool runs anyway ("because of --allow_debug:
// ..."); empty, the warning says the tool refuses and how to override it.
std::string UnreliableBuildWarning(const BuildInfo& build,
                                   std::string_view tool,
                                   std::string_view continuing);

// What every kvlab measurement prints after "machine: " and "build: ":
// "Intel(R) Xeon(R) Processor, 2 cores, 23.5 GiB, Linux 6.1.0" and
// "Release, sanitizer none, g++ 12.2.0, flags '-O2 -DNDEBUG', glibc malloc".
std::string MachineDescription(const MachineInfo& machine);
std::string BuildDescription(const BuildInfo& build);

// Now as "2024-05-01T12:34:56Z".
std::string UtcTimestamp();

}  // namespace kvbench

#endif  // KVBENCH_MACHINE_INFO_H_
