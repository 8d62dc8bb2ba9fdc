// mmbench: Hyperion's memory manager, with and without compaction
// (hyperion_compact), against glibc malloc and tcmalloc on the pattern of
// Hyperion's containers (workload.h). Each allocator runs in
// a child process of its own, tcmalloc through LD_PRELOAD, so that no run
// inherits another's heap.
//
//   build/release/benchmarks/mmbench/mmbench --buffers=2000000
//       --repeat=3 --json=results/mmbench.jsonl
//
// The table reports, per allocator, the medians over --repeat runs of:
// the three phases' times, peak and final RSS, and bytes of RSS growth per
// live byte after the final phase ("held/live"; the handle arrays are in
// the baseline, so this is the allocator's own cost).

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "kvbench/machine_info.h"
#include "workload.h"

extern char** environ;

ABSL_FLAG(uint64_t, buffers, 2'000'000, "number of buffers");
ABSL_FLAG(uint32_t, max_steps, 16, "largest target size, in 32-byte steps");
ABSL_FLAG(uint32_t, initial_steps, 0,
          "steps every buffer takes in id order before the shuffled rest");
ABSL_FLAG(uint64_t, seed, 42, "workload seed (the same for every allocator)");
ABSL_FLAG(int, repeat, 1, "runs per allocator; the table shows medians");
ABSL_FLAG(std::string, allocators, "hyperion,hyperion_compact,glibc,tcmalloc",
          "which allocators to compare (hyperion_compact: the stage-5 "
          "manager, compacted after the free and regrow phases)");
// MMBENCH_TCMALLOC_LIBRARY: Debian's path for the target architecture
// (CMakeLists.txt).
ABSL_FLAG(std::string, tcmalloc_library, MMBENCH_TCMALLOC_LIBRARY,
          "preloaded for the tcmalloc run (Debian: libtcmalloc-minimal4)");
ABSL_FLAG(double, compact_max_occupancy, 0.9,
          "hyperion_compact: empty only bins at most this full");
ABSL_FLAG(std::string, json, "", "append one JSON record per run to this file");
ABSL_FLAG(std::string, child, "", "internal: run one allocator and report");

namespace {

using mmbench::PhaseResult;
using mmbench::WorkloadOptions;
using mmbench::WorkloadResult;

WorkloadOptions Options() {
  WorkloadOptions options;
  options.buffers = absl::GetFlag(FLAGS_buffers);
  options.max_steps = std::clamp(absl::GetFlag(FLAGS_max_steps), 1u, 255u);
  options.initial_steps = absl::GetFlag(FLAGS_initial_steps);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.compact_max_occupancy = absl::GetFlag(FLAGS_compact_max_occupancy);
  return options;
}

// The child: runs the workload and prints one JSON object on stdout.
int RunChild(const std::string& allocator) {
  if (allocator != "hyperion" && allocator != "hyperion_compact" &&
      allocator != "glibc" && allocator != "tcmalloc") {
    std::fprintf(stderr, "mmbench: unknown allocator %s\n", allocator.c_str());
    return 2;
  }
  const bool tcmalloc_loaded = dlsym(RTLD_DEFAULT, "tc_malloc") != nullptr;
  if ((allocator == "tcmalloc") != tcmalloc_loaded) {
    std::fprintf(stderr, "mmbench: %s run, but tcmalloc %s loaded\n",
                 allocator.c_str(), tcmalloc_loaded ? "is" : "is not");
    return 2;
  }
  const bool hyperion = allocator.rfind("hyperion", 0) == 0;
  const WorkloadResult r =
      hyperion
          ? mmbench::RunHyperion(Options(), allocator == "hyperion_compact")
          : mmbench::RunMalloc(Options());
  std::string phases;
  for (const PhaseResult& p : r.phases) {
    absl::StrAppendFormat(
        &phases,
        "%s{\"name\":\"%s\",\"seconds\":%.4f,\"rss_bytes\":%d,"
        "\"live_bytes\":%d}",
        phases.empty() ? "" : ",", p.name, p.seconds, p.rss_bytes,
        p.live_bytes);
  }
  std::printf(
      "{\"allocator\":\"%s\",\"baseline_rss_bytes\":%lu,"
      "\"peak_rss_bytes\":%lu,\"corrupt_buffers\":%lu,\"phases\":[%s]%s%s}\n",
      allocator.c_str(), (unsigned long)r.baseline_rss_bytes,
      (unsigned long)r.peak_rss_bytes, (unsigned long)r.corrupt_buffers,
      phases.c_str(), r.manager_stats_json.empty() ? "" : ",\"manager\":",
      r.manager_stats_json.c_str());
  return r.corrupt_buffers == 0 ? 0 : 3;
}

// Runs this binary as a child for `allocator`; returns its JSON line, or ""
// with `error` set.
std::string SpawnChild(const std::string& allocator, std::string* error) {
  std::vector<std::string> args = {
      "/proc/self/exe",
      "--child=" + allocator,
      absl::StrFormat("--buffers=%d", absl::GetFlag(FLAGS_buffers)),
      absl::StrFormat("--max_steps=%d", absl::GetFlag(FLAGS_max_steps)),
      absl::StrFormat("--initial_steps=%d", absl::GetFlag(FLAGS_initial_steps)),
      absl::StrFormat("--seed=%d", absl::GetFlag(FLAGS_seed)),
      absl::StrFormat("--compact_max_occupancy=%g",
                      absl::GetFlag(FLAGS_compact_max_occupancy))};
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0) env.push_back(*e);
  }
  if (allocator == "tcmalloc") {
    const std::string lib = absl::GetFlag(FLAGS_tcmalloc_library);
    if (access(lib.c_str(), R_OK) != 0) {
      *error = "not available: " + lib +
               " missing (apt-get install libtcmalloc-minimal4)";
      return "";
    }
    env.push_back("LD_PRELOAD=" + lib);
  }
  auto pointers = [](std::vector<std::string>& v) {
    std::vector<char*> p;
    for (auto& s : v) p.push_back(s.data());
    p.push_back(nullptr);
    return p;
  };
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  int out[2];
  if (pipe(out) != 0) {
    *error = "pipe failed";
    return "";
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  pid_t pid;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr,
                             argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (rc != 0) {
    close(out[0]);
    *error = "posix_spawn failed";
    return "";
  }
  std::string output;
  char buffer[4096];
  ssize_t got;
  while ((got = read(out[0], buffer, sizeof(buffer))) > 0) {
    output.append(buffer, size_t(got));
  }
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    *error = absl::StrFormat("child failed (status %d)", status);
    return "";
  }
  while (!output.empty() && output.back() == '\n') output.pop_back();
  return output;
}

// The number after "key": in a flat JSON text, starting at `from`.
double Number(const std::string& json, const std::string& key,
              size_t from = 0) {
  const size_t at = json.find("\"" + key + "\":", from);
  if (at == std::string::npos) return 0;
  return std::strtod(json.c_str() + at + key.size() + 3, nullptr);
}

struct Row {
  std::vector<double> grow, free, regrow, total, peak, final_rss, live,
      held_per_live;
  // hyperion_compact: per compaction (after free, after regrow), seconds,
  // chunks moved and bins released.
  std::vector<double> compact_seconds[2], chunks_moved[2], bins_released[2];
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string child = absl::GetFlag(FLAGS_child);
  if (!child.empty()) return RunChild(child);

  const kvbench::MachineInfo machine = kvbench::ReadMachineInfo();
  const kvbench::BuildInfo build = kvbench::CurrentBuild();
  std::printf("# mmbench  %s  %s\n", kvbench::UtcTimestamp().c_str(),
              machine.hostname.c_str());
  std::printf("# machine: %s, %d cores, %.1f GiB, %s\n",
              machine.cpu_model.c_str(), machine.cores,
              double(machine.memory_bytes) / (1 << 30), machine.kernel.c_str());
  std::printf("# build: %s %s, %s%s\n", build.type.c_str(), build.flags.c_str(),
              build.compiler.c_str(),
              kvbench::IsReliableBuild(build)
                  ? ""
                  : ("  " + std::string(kvbench::kUnreliableMark)).c_str());
  std::printf(
      "# workload: %lu buffers grown in 32-byte steps to 1..%u steps "
      "(first %u in order, the rest shuffled); half freed; freed half "
      "regrown; seed %lu; compaction up to occupancy %g; median of %d\n",
      (unsigned long)absl::GetFlag(FLAGS_buffers),
      absl::GetFlag(FLAGS_max_steps), absl::GetFlag(FLAGS_initial_steps),
      (unsigned long)absl::GetFlag(FLAGS_seed),
      absl::GetFlag(FLAGS_compact_max_occupancy), absl::GetFlag(FLAGS_repeat));

  const std::vector<std::string> allocators =
      absl::StrSplit(absl::GetFlag(FLAGS_allocators), ',', absl::SkipEmpty());
  std::map<std::string, Row> rows;
  std::map<std::string, std::string> errors;
  std::FILE* json = nullptr;
  if (!absl::GetFlag(FLAGS_json).empty()) {
    json = std::fopen(absl::GetFlag(FLAGS_json).c_str(), "a");
  }
  // Interleave the allocators run by run, so drift in machine load hits
  // them alike.
  for (int run = 0; run < std::max(1, absl::GetFlag(FLAGS_repeat)); ++run) {
    for (const std::string& allocator : allocators) {
      if (errors.count(allocator)) continue;
      std::string error;
      const std::string line = SpawnChild(allocator, &error);
      if (line.empty()) {
        errors[allocator] = error;
        continue;
      }
      if (json != nullptr) {
        std::fprintf(json,
                     "{\"tool\":\"mmbench\",\"run\":%d,\"build\":\"%s\","
                     "\"machine\":\"%s\",\"max_steps\":%u,\"initial_steps\":%u,"
                     "\"result\":%s}\n",
                     run, build.type.c_str(), machine.cpu_model.c_str(),
                     absl::GetFlag(FLAGS_max_steps),
                     absl::GetFlag(FLAGS_initial_steps), line.c_str());
      }
      Row& row = rows[allocator];
      const double baseline = Number(line, "baseline_rss_bytes");
      const size_t grow_at = line.find("\"name\":\"grow\"");
      const size_t free_at = line.find("\"name\":\"free\"");
      const size_t regrow_at = line.find("\"name\":\"regrow\"");
      row.grow.push_back(Number(line, "seconds", grow_at));
      row.free.push_back(Number(line, "seconds", free_at));
      row.regrow.push_back(Number(line, "seconds", regrow_at));
      row.total.push_back(row.grow.back() + row.free.back() +
                          row.regrow.back());
      row.peak.push_back(Number(line, "peak_rss_bytes"));
      const double final_rss = Number(line, "rss_bytes", regrow_at);
      const double live = Number(line, "live_bytes", regrow_at);
      row.final_rss.push_back(final_rss);
      row.live.push_back(live);
      row.held_per_live.push_back((final_rss - baseline) / live);
      const char* const after[2] = {"\"after\":\"free\"",
                                    "\"after\":\"regrow\""};
      for (int k = 0; k < 2; ++k) {
        const size_t at = line.find(after[k]);
        if (at == std::string::npos) continue;
        row.compact_seconds[k].push_back(Number(line, "compact_seconds", at));
        row.chunks_moved[k].push_back(Number(line, "chunks_moved", at));
        row.bins_released[k].push_back(Number(line, "bins_released", at));
      }
    }
  }
  if (json != nullptr) std::fclose(json);

  const double mib = 1 << 20;
  const double glibc_time =
      rows.count("glibc") ? Median(rows["glibc"].total) : 0;
  const double glibc_held =
      rows.count("glibc") ? Median(rows["glibc"].held_per_live) : 0;
  std::printf("\n%-16s %8s %8s %8s %8s %10s %10s %9s %9s %9s %9s\n",
              "allocator", "grow s", "free s", "regrow s", "total s",
              "peak MiB", "final MiB", "live MiB", "held/live", "time/glc",
              "glc/held");
  for (const std::string& allocator : allocators) {
    if (errors.count(allocator)) {
      std::printf("%-16s %s\n", allocator.c_str(), errors[allocator].c_str());
      continue;
    }
    Row& r = rows[allocator];
    const double total = Median(r.total), held = Median(r.held_per_live);
    std::printf(
        "%-16s %8.3f %8.3f %8.3f %8.3f %10.1f %10.1f %9.1f %9.3f %9s %9s\n",
        allocator.c_str(), Median(r.grow), Median(r.free), Median(r.regrow),
        total, Median(r.peak) / mib, Median(r.final_rss) / mib,
        Median(r.live) / mib, held,
        glibc_time > 0 ? absl::StrFormat("%.2fx", total / glibc_time).c_str()
                       : "-",
        glibc_held > 0 ? absl::StrFormat("%.2fx", glibc_held / held).c_str()
                       : "-");
  }
  for (const std::string& allocator : allocators) {
    if (errors.count(allocator)) continue;
    Row& r = rows[allocator];
    const char* const after[2] = {"free", "regrow"};
    for (int k = 0; k < 2; ++k) {
      if (r.compact_seconds[k].empty()) continue;
      std::printf(
          "%s: compaction after %s: %.3f s (in the phase time), %.0f chunks "
          "moved, %.0f bins released\n",
          allocator.c_str(), after[k], Median(r.compact_seconds[k]),
          Median(r.chunks_moved[k]), Median(r.bins_released[k]));
    }
  }
  std::printf(
      "\nheld/live: (final RSS - RSS before the first allocation) / live "
      "bytes.\ntime/glc: total time relative to glibc; glc/held: glibc's "
      "held/live divided by this allocator's (higher is better).\n");
  return errors.empty() ? 0 : 1;
}
