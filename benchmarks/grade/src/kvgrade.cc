// kvgrade: grades a registered kvlab store (make grade STORE=spec). See
// kvlab/grade.h and docs/benchmarking.md.

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

#include "kvbench/memory_guard.h"
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
  if (!info->ordered) {
    std::cerr << "kvgrade: " << spec
              << " is unordered: the course workload needs GetNth, so it "
                 "cannot be graded\n";
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
    if (std::optional<std::string> refusal =
            kvbench::CheckRunMemory(spec, "course", n, seed, 600)) {
      std::cerr << "kvgrade: " << spec << " at --n=" << n << " " << *refusal
                << "; grade it at a smaller --n (make grade N=...)\n";
      return 2;
    }
  }
  kvlab::grade::GradeSource source;
  source.name = spec;
  // A stage's origin is its rubric section; peers are judged as stage 1.
  source.stage = info->origin.rfind("stage", 0) == 0 ? info->origin : "stage1";
  source.thread_safe = (*probe)->IsThreadSafe();
  source.make = [&registry, spec](uint64_t) { return *registry.Make(spec); };
  return kvlab::grade::GradeMain(argc, argv, source);
}
