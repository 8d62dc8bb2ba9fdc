// kvgrade: grades a registered kvlab store (make grade STORE=spec). See
// kvlab/grade.h and docs/benchmarking.md.

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "kvbench/ect_run.h"
#include "kvbench/memory_guard.h"
#include "kvbench/run_directory.h"
#include "kvbench/run_record.h"
#include "kvlab/grade.h"
#include "kvlab/kvlab.h"

int main(int argc, char** argv) {
  std::string spec;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("--store=", 0) == 0) spec = arg.substr(8);
  }
  const kvlab::StoreRegistry& registry = kvlab::BuiltinStores();
  if (spec.empty()) {
    bool help = false;
    for (int i = 1; i < argc; ++i)
      help |= std::string_view(argv[i]) == "--help";
    if (!help) {
      std::cerr << "kvgrade: --store=SPEC is required (stores: "
                << registry.NameList() << ")\n";
      return 2;
    }
    spec = "avl";  // only to print the help
  }
  absl::StatusOr<kvlab::StoreSpec> parsed = kvlab::ParseStoreSpec(spec);
  const kvlab::StoreInfo* info =
      parsed.ok() ? registry.Find(parsed->name) : nullptr;
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> probe = registry.Make(spec);
  if (info == nullptr || !probe.ok()) {
    std::cerr << "kvgrade: "
              << (probe.ok() ? "unknown store" : probe.status().message())
              << "\n";
    return 2;
  }
  // A grade that would exhaust the machine is refused before it starts,
  // with kvbench's memory guard (a sample load in a child, extrapolated).
  uint64_t n = 10'000'000;
  uint64_t seed = 42;
  bool overcommit = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("--n=", 0) == 0) n = std::strtoull(argv[i] + 4, nullptr, 10);
    if (arg.rfind("--seed=", 0) == 0) {
      seed = std::strtoull(argv[i] + 7, nullptr, 10);
    }
    overcommit |= arg == "--allow_memory_overcommit";
  }
  if (!overcommit && n > 0) {
    // The sample load runs in a directory of its own, as the grade does.
    absl::StatusOr<std::unique_ptr<kvbench::RunDirectory>> sample_dir =
        kvbench::RunDirectory::Make(spec, *info, "");
    if (!sample_dir.ok()) {
      std::cerr << "kvgrade: " << sample_dir.status().message() << "\n";
      return 2;
    }
    if (std::optional<std::string> refusal = kvbench::CheckRunMemory(
            (*sample_dir)->spec(), "course", n, seed, 600)) {
      std::cerr << "kvgrade: " << spec << " at --n=" << n << " " << *refusal
                << "; grade it at a smaller --n (make grade N=...)\n";
      return 2;
    }
  }
  // A store that keeps files (ect) gets a directory of its own, removed
  // when the grade ends, and no syncs unless the spec names a policy, as
  // kvbench runs it (kvbench/run_directory.h).
  absl::StatusOr<std::unique_ptr<kvbench::RunDirectory>> run_dir =
      kvbench::RunDirectory::Make(spec, *info, "");
  if (!run_dir.ok()) {
    std::cerr << "kvgrade: " << run_dir.status().message() << "\n";
    return 2;
  }
  const std::string run_spec = (*run_dir)->spec();
  kvlab::grade::GradeSource source;
  source.name = spec;
  // A stage's origin is its rubric section; peers are judged as stage 1.
  source.stage = info->origin.rfind("stage", 0) == 0 ? info->origin : "stage1";
  source.thread_safe = (*probe)->IsThreadSafe();
  source.ordered = info->ordered;
  source.make = [&registry, run_spec](uint64_t) {
    return *registry.Make(run_spec);
  };
  // ect merges its write buffer into the data file: the store as built.
  source.finish_load = [](kvlab::KVStore& store) {
    kvbench::RunRecord ignored;
    return kvbench::FinishEctLoad(store, &ignored);
  };
  return kvlab::grade::GradeMain(argc, argv, source);
}
