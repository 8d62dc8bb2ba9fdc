// kvlab_fuzz: the libFuzzer target. Each input decodes to a program
// (kvlab/fuzz/program.h) that runs on a fresh store beside a std::map model
// (kvlab/fuzz/run_program.h); a wrong answer aborts, which libFuzzer reports
// as a crash and saves the input.
//
//   kvlab_fuzz [--store=SPEC] [libFuzzer flags] [CORPUS_DIR...]
//
// The store is --store=SPEC, else $KVLAB_FUZZ_STORE, else the one the
// input's first byte picks from the fuzz store list (stores.txt, compiled in
// as KVLAB_FUZZ_STORES). libFuzzer ignores flags that start with "--".

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kvlab/fuzz/fuzz_stores.h"
#include "kvlab/fuzz/program.h"
#include "kvlab/fuzz/run_program.h"
#include "kvlab/kvlab.h"

namespace {

struct Target {
  std::vector<std::string> specs;  // the list, or the one store given
  std::vector<bool> ordered;
};

const Target* target = nullptr;

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "kvlab_fuzz: %s\n", message.c_str());
  std::exit(2);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  auto* t = new Target();  // lives as long as the process
  std::string fixed;
  if (const char* env = std::getenv("KVLAB_FUZZ_STORE")) fixed = env;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = (*argv)[i];
    if (arg.starts_with("--store=")) fixed = arg.substr(8);
  }
  if (fixed.empty()) {
    t->specs = kvlab::fuzz::ParseStoreList(KVLAB_FUZZ_STORES);
    const absl::Status status = kvlab::fuzz::CheckStoreList(t->specs);
    if (!status.ok()) Fail(std::string(status.message()));
  } else {
    absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
        kvlab::MakeStore(fixed);
    if (!store.ok()) Fail(std::string(store.status().message()));
    t->specs = {fixed};
  }
  for (const std::string& spec : t->specs) {
    t->ordered.push_back(*kvlab::fuzz::IsOrdered(spec));
  }
  target = t;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const kvlab::fuzz::Program program = kvlab::fuzz::Decode(
      std::string_view(reinterpret_cast<const char*>(data), size));
  const size_t choice = program.store_byte % target->specs.size();
  const std::string& spec = target->specs[choice];
  std::unique_ptr<kvlab::KVStore> store = *kvlab::MakeStore(spec);
  const absl::Status status = kvlab::fuzz::RunProgram(
      program, store.get(), {.ordered = target->ordered[choice]});
  if (!status.ok()) {
    std::fprintf(stderr,
                 "kvlab_fuzz: store %s, %zu operations: %s\n"
                 "kvlab_fuzz: replay: kvlab_fuzz_replay --store=%s --print "
                 "INPUT\n",
                 spec.c_str(), program.ops.size(),
                 std::string(status.message()).c_str(), spec.c_str());
    std::abort();
  }
  return 0;
}
