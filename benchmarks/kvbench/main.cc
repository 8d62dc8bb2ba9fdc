// kvbench: the benchmark driver of kvlab. See docs/benchmarking.md.
//
// For each data set, for each store: run the phases (load, get, scan,
// course) in a fresh child process, --repeat times, and print one table row
// of medians. With no flags it is exactly the run `make bench` does.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "kvbench/dataset_stats.h"
#include "kvbench/datasets.h"
#include "kvbench/machine_info.h"
#include "kvbench/memory_guard.h"
#include "kvbench/memory_probe.h"
#include "kvbench/options.h"
#include "kvbench/report.h"
#include "kvbench/run_directory.h"
#include "kvbench/run_in_child.h"
#include "kvbench/run_record.h"
#include "kvbench/runner.h"
#include "kvbench/skip_rule.h"
#include "kvlab/kvlab.h"

ABSL_FLAG(std::string, store, "all",
          "Stores to run: one spec, a comma list such as "
          "'avl,btree:order=8', or 'all' for every registered store "
          "(see --list)");
ABSL_FLAG(std::string, dataset, "course,seq_int,rand_int,words",
          "Data sets, a comma list of course, seq_int, rand_int, words, "
          "gcide3, urls, course_v3 (docs/benchmarking.md)");
ABSL_FLAG(int64_t, n, 1'000'000,
          "Pairs per data set, 1 to 200,000,000 (words has fewer: it then "
          "uses all it has)");
ABSL_FLAG(int64_t, threads, 2, "Threads of the course timed phase");
ABSL_FLAG(double, seconds, 2, "Seconds of the course timed phase");
ABSL_FLAG(int64_t, course_ops, 0,
          "Operations per thread of the course timed phase, in place of "
          "--seconds (0: run for --seconds). Every store then does the same "
          "work; in a fixed time a faster store shrinks its data set faster "
          "(docs/benchmarking.md)");
ABSL_FLAG(uint64_t, seed, 42, "Seed of every random choice");
ABSL_FLAG(int64_t, repeat, 1,
          "Runs per (store, data set), each in a fresh child; the table "
          "reports medians");
ABSL_FLAG(std::string, json, "",
          "Append one JSON line per (store, data set, n) to this file "
          "(parent directories are created)");
ABSL_FLAG(bool, verify, true,
          "Check every answer; false only consumes the results");
ABSL_FLAG(std::string, phases, "load,get,scan,course",
          "Phases: load, get, scan, course (course data set only) or "
          "course_all (every data set); load is required");
ABSL_FLAG(bool, allow_debug, false,
          "Run from a debug or sanitized build anyway, marking every result "
          "UNRELIABLE");
ABSL_FLAG(double, max_predicted_seconds, 120,
          "Skip runs predicted to take longer (an unbalanced tree on sorted "
          "input)");
ABSL_FLAG(bool, allow_memory_overcommit, false,
          "Start runs the memory guard predicts to need more than 80% of "
          "the available memory (see memory_guard.h)");
ABSL_FLAG(double, child_timeout, 1800,
          "Kill a run's child process after this many seconds (0: never)");
ABSL_FLAG(std::string, durable, "",
          "Wrap each store in a durable store (write-ahead log, checkpoints; "
          "docs/durability.md) with this sync policy: none, every or group. "
          "Reports log bytes per write and the time to recover");
ABSL_FLAG(std::string, durable_dir, "",
          "With --durable: where each run's log directory is made (and "
          "removed after); default the system's temporary directory");
ABSL_FLAG(std::string, dir, "",
          "Stores that keep their pairs in files (ect): where each run, and "
          "the memory guard's sample before it, gets a fresh directory, "
          "removed when it ends (crashed or not); default the system's "
          "temporary directory");
ABSL_FLAG(bool, in_process, false,
          "Run every store in kvbench's own process instead of a forked "
          "child, for tools that follow one process (make profile, "
          "heapprofile, massif); memory figures then include earlier runs");
ABSL_FLAG(bool, dataset_stats, false,
          "Print each --dataset's statistics at --n (count, key lengths, "
          "shared prefixes), then exit");
ABSL_FLAG(bool, list, false,
          "Print the stores with their descriptions and options, then exit");

namespace kvbench {
namespace {

void PrintStoreList(const kvlab::StoreRegistry& registry) {
  std::cout << "Stores (spec: name or name:option=value:option=value):\n";
  for (const kvlab::StoreInfo& info : registry.stores()) {
    std::vector<std::string> traits;
    traits.push_back(info.ordered ? "ordered" : "unordered");
    if (info.linear_nth) traits.push_back("GetNth O(n)");
    if (info.sorted_input_cost == kvlab::SortedInputCost::kQuadratic) {
      traits.push_back("sorted input O(n^2)");
    }
    std::cout << "  " << info.name << " (" << info.origin
              << "): " << info.description << " ["
              << absl::StrJoin(traits, ", ") << "]\n";
    if (info.options.empty()) {
      std::cout << "      options: none\n";
    }
    for (const kvlab::OptionInfo& option : info.options) {
      std::cout << "      " << option.name << "=...  " << option.help << "\n";
    }
  }
}

RawOptions ReadFlags() {
  RawOptions raw;
  raw.store = absl::GetFlag(FLAGS_store);
  raw.dataset = absl::GetFlag(FLAGS_dataset);
  raw.n = absl::GetFlag(FLAGS_n);
  raw.threads = absl::GetFlag(FLAGS_threads);
  raw.seconds = absl::GetFlag(FLAGS_seconds);
  raw.course_ops = absl::GetFlag(FLAGS_course_ops);
  raw.seed = absl::GetFlag(FLAGS_seed);
  raw.repeat = absl::GetFlag(FLAGS_repeat);
  raw.json = absl::GetFlag(FLAGS_json);
  raw.verify = absl::GetFlag(FLAGS_verify);
  raw.phases = absl::GetFlag(FLAGS_phases);
  raw.allow_debug = absl::GetFlag(FLAGS_allow_debug);
  raw.max_predicted_seconds = absl::GetFlag(FLAGS_max_predicted_seconds);
  raw.child_timeout = absl::GetFlag(FLAGS_child_timeout);
  raw.allow_memory_overcommit = absl::GetFlag(FLAGS_allow_memory_overcommit);
  raw.durable = absl::GetFlag(FLAGS_durable);
  raw.durable_dir = absl::GetFlag(FLAGS_durable_dir);
  raw.dir = absl::GetFlag(FLAGS_dir);
  return raw;
}

// The first line of `text`, at most `limit` characters.
std::string OneLine(std::string_view text, size_t limit = 140) {
  std::string line(text.substr(0, text.find('\n')));
  if (line.size() > limit) line = line.substr(0, limit - 3) + "...";
  return line;
}

// Runs one store on one data set, --repeat times, each in a fresh child.
Row RunRow(const BenchOptions& options, const StoreChoice& store,
           const DataSetInfo& data) {
  Row row;
  row.store = store.spec;
  const int passes = options.phases.get ? 2 : 1;
  if (std::optional<std::string> reason =
          SkipReason(store.info, data.order, data.n, passes,
                     options.max_predicted_seconds)) {
    row.status = RowStatus::kSkipped;
    row.detail = *reason;
    return row;
  }
  if (!options.allow_memory_overcommit) {
    absl::StatusOr<std::unique_ptr<RunDirectory>> sample_dir =
        RunDirectory::Make(store.spec, store.info, options.dir);
    if (!sample_dir.ok()) {
      row.status = RowStatus::kFailed;
      row.detail = absl::StrCat("FAILED: ", sample_dir.status().message());
      return row;
    }
    if (std::optional<std::string> refusal =
            CheckRunMemory((*sample_dir)->spec(), data.name, data.n,
                           options.seed, options.child_timeout)) {
      row.status = RowStatus::kSkipped;
      row.detail = *refusal;
      return row;
    }
  }
  RunRequest request;
  request.spec = store.spec;
  request.info = store.info;
  request.dataset = data.name;
  request.n = data.requested_n;
  request.seed = options.seed;
  request.verify = options.verify;
  request.phases = options.phases;
  request.threads = options.threads;
  request.seconds = options.seconds;
  request.course_ops = options.course_ops;
  request.durable = options.durable;
  request.durable_dir = options.durable_dir;

  for (int r = 0; r < options.repeat; ++r) {
    // Removed when this repeat ends, whatever became of its child.
    absl::StatusOr<std::unique_ptr<RunDirectory>> run_dir =
        RunDirectory::Make(store.spec, store.info, options.dir);
    if (!run_dir.ok()) {
      row.status = RowStatus::kFailed;
      row.detail = absl::StrCat("FAILED: ", run_dir.status().message());
      break;
    }
    request.build_spec = (*run_dir)->spec();
    if (r == 0 && (*run_dir)->sync_turned_off()) {
      row.notes.push_back(absl::StrCat(
          "run as ", store.spec,
          ":sync=none (its write-ahead log unsynced, like the stores that "
          "keep nothing on disk); give sync= to measure with syncs"));
    }
    ChildOutcome outcome;
    if (absl::GetFlag(FLAGS_in_process)) {
      outcome.kind = ChildOutcome::Kind::kExited;
      outcome.payload = SerializeRecord(RunBenchmark(request));
    } else {
      outcome = RunInChild(
          [&request] { return SerializeRecord(RunBenchmark(request)); },
          options.child_timeout);
    }
    if (outcome.kind == ChildOutcome::Kind::kSignaled) {
      row.status = RowStatus::kCrashed;
      row.detail = DescribeOutcome(outcome);
      break;
    }
    if (outcome.kind == ChildOutcome::Kind::kTimedOut) {
      row.status = RowStatus::kTimedOut;
      row.detail = absl::StrCat("timed out after ", options.child_timeout,
                                " s (--child_timeout)");
      break;
    }
    absl::StatusOr<RunRecord> record = ParseRecord(outcome.payload);
    if (outcome.kind != ChildOutcome::Kind::kExited || !record.ok()) {
      row.status = RowStatus::kFailed;
      row.detail = absl::StrCat("FAILED: child ", DescribeOutcome(outcome),
                                " without a result");
      break;
    }
    for (const std::string& note : record->notes) {
      if (std::find(row.notes.begin(), row.notes.end(), note) ==
          row.notes.end()) {
        row.notes.push_back(note);
      }
    }
    if (!record->ok) {
      row.status = RowStatus::kFailed;
      row.detail = absl::StrCat("FAILED: ", record->error);
      row.samples.push_back(*std::move(record));
      break;
    }
    row.samples.push_back(*std::move(record));
  }
  row.metrics = MedianMetrics(row.samples);
  return row;
}

int Main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "kvlab's benchmark driver: loads data sets into stores and measures "
      "throughput and memory.\nWith no flags it is the `make bench` run. See "
      "docs/benchmarking.md.");
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    std::cerr << "kvbench: unexpected argument '" << positional[1]
              << "' (flags are --name=value; see --help)\n";
    return 2;
  }
  const kvlab::StoreRegistry& registry = kvlab::BuiltinStores();
  if (absl::GetFlag(FLAGS_list)) {
    PrintStoreList(registry);
    return 0;
  }
  absl::StatusOr<BenchOptions> validated =
      ValidateOptions(ReadFlags(), registry);
  if (!validated.ok()) {
    std::cerr << "kvbench: " << validated.status().message() << "\n";
    return 2;
  }
  const BenchOptions& options = *validated;

  // Statistics describe data, not stores: any build type will do.
  if (absl::GetFlag(FLAGS_dataset_stats)) {
    for (const std::string& name : options.datasets) {
      absl::StatusOr<DataSet> data =
          GenerateDataSet(name, options.n, options.seed);
      if (!data.ok()) {
        std::cerr << "kvbench: " << data.status().message() << "\n";
        return 2;
      }
      const std::string& note = data->info().note;
      std::cout << name << ": " << FormatStats(ComputeStats(*data))
                << (note.empty() ? "" : " (" + note + ")") << std::endl;
    }
    return 0;
  }

  const BuildInfo build = CurrentBuild();
  const bool unreliable = !IsReliableBuild(build);
  if (unreliable) {
    std::cerr << UnreliableBuildWarning(
        build, "kvbench",
        options.allow_debug
            ? "because of --allow_debug: every result is marked UNRELIABLE."
            : "");
    if (!options.allow_debug) return 2;
  }

  // Each data set is generated here once, for its description, and again
  // inside every child (before that child's baseline reading).
  std::vector<DataSetInfo> datasets;
  for (const std::string& name : options.datasets) {
    absl::StatusOr<DataSet> data =
        GenerateDataSet(name, options.n, options.seed);
    if (!data.ok()) {
      std::cerr << "kvbench: " << data.status().message() << "\n";
      return 2;
    }
    datasets.push_back(data->info());
  }
  TrimHeap();  // the children start from a small parent

  std::ofstream json;
  if (!options.json_path.empty()) {
    const std::filesystem::path path(options.json_path);
    std::error_code error;
    if (path.has_parent_path()) {
      std::filesystem::create_directories(path.parent_path(), error);
    }
    json.open(path, std::ios::app);
    if (!json) {
      std::cerr << "kvbench: cannot open --json file '" << options.json_path
                << "'\n";
      return 2;
    }
  }

  std::cout << "kvbench: " << options.stores.size() << " store(s) x "
            << datasets.size() << " data set(s); data sets:\n";
  for (const DataSetInfo& data : datasets) {
    const std::string note = data.note.empty() ? "" : " (" + data.note + ")";
    std::printf("  %-8s count %s, avg key %.1f B, avg value %.1f B%s\n",
                data.name.c_str(), WithCommas(data.n).c_str(),
                data.avg_key_bytes, data.avg_value_bytes, note.c_str());
  }
  std::cout << std::endl;

  const MachineInfo machine = ReadMachineInfo();
  bool failed = false;
  for (const DataSetInfo& data : datasets) {
    RunContext context;
    context.machine = machine;
    context.build = build;
    context.dataset = data;
    context.threads = options.threads;
    context.seconds = options.seconds;
    context.course_ops = options.course_ops;
    context.repeat = options.repeat;
    context.verify = options.verify;
    context.phases = options.phases.ToString();
    context.date = UtcTimestamp();
    context.unreliable = unreliable;

    std::vector<Row> rows;
    for (const StoreChoice& store : options.stores) {
      rows.push_back(RunRow(options, store, data));
      const Row& row = rows.back();
      failed |=
          row.status != RowStatus::kOk && row.status != RowStatus::kSkipped;
      if (json.is_open()) {
        json << FormatJsonRecord(context, row) << "\n";
        json.flush();
      }
    }
    for (const std::string& line : FormatHeader(context)) {
      std::cout << line << "\n";
    }
    std::vector<Row> shown = rows;
    for (Row& row : shown) row.detail = OneLine(row.detail);
    std::cout << FormatTable(shown);
    for (const Row& row : rows) {
      if (row.detail.find('\n') != std::string::npos ||
          row.detail.size() > OneLine(row.detail).size()) {
        std::cout << "  " << row.store << ": " << row.detail << "\n";
      }
      for (const std::string& note : row.notes) {
        std::cout << "  note (" << row.store << "): " << note << "\n";
      }
    }
    std::cout << std::endl;
  }
  if (json.is_open() && !json) {
    std::cerr << "kvbench: writing '" << options.json_path << "' failed\n";
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace
}  // namespace kvbench

int main(int argc, char** argv) { return kvbench::Main(argc, argv); }
