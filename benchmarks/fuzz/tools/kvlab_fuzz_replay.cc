// kvlab_fuzz_replay: runs fuzz inputs (a crash file libFuzzer saved, a seed)
// in an ordinary build, so that a failure can be read and debugged.
//
//   kvlab_fuzz_replay [--store=SPEC] [--print] FILE...
//
// Each FILE is decoded (kvlab/fuzz/program.h) and run on SPEC, or on the
// store its first byte picks from the fuzz store list, beside a model
// (kvlab/fuzz/run_program.h). --print lists the operations first. Exits 1
// when an input's run fails, 2 on bad arguments.

#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "kvlab/fuzz/fuzz_stores.h"
#include "kvlab/fuzz/program.h"
#include "kvlab/fuzz/run_program.h"
#include "kvlab/kvlab.h"

namespace {

bool ReadFile(const std::string& path, std::string* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream content;
  content << in.rdbuf();
  *bytes = content.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string store_spec;
  bool print = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("--store=")) {
      store_spec = arg.substr(8);
    } else if (arg == "--print") {
      print = true;
    } else if (arg.starts_with("-")) {
      std::fprintf(stderr, "kvlab_fuzz_replay: unknown flag %s\n", argv[i]);
      return 2;
    } else {
      files.emplace_back(arg);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr,
                 "usage: kvlab_fuzz_replay [--store=SPEC] [--print] FILE...\n");
    return 2;
  }
  const std::vector<std::string> specs =
      kvlab::fuzz::ParseStoreList(KVLAB_FUZZ_STORES);
  int exit_code = 0;
  for (const std::string& file : files) {
    std::string bytes;
    if (!ReadFile(file, &bytes)) {
      std::fprintf(stderr, "kvlab_fuzz_replay: cannot read %s\n", file.c_str());
      return 2;
    }
    const kvlab::fuzz::Program program = kvlab::fuzz::Decode(bytes);
    const std::string spec = store_spec.empty()
                                 ? specs[program.store_byte % specs.size()]
                                 : store_spec;
    absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
        kvlab::MakeStore(spec);
    if (!store.ok()) {
      std::fprintf(stderr, "kvlab_fuzz_replay: %s\n",
                   std::string(store.status().message()).c_str());
      return 2;
    }
    std::printf("%s: store %s, %zu operations\n", file.c_str(), spec.c_str(),
                program.ops.size());
    if (print) {
      for (size_t i = 0; i < program.ops.size(); ++i) {
        std::printf("  #%zu %s\n", i,
                    kvlab::fuzz::ToString(program.ops[i]).c_str());
      }
    }
    std::fflush(stdout);  // the listing before a crash's report
    const absl::Status status = kvlab::fuzz::RunProgram(
        program, store->get(), {.ordered = *kvlab::fuzz::IsOrdered(spec)});
    std::printf("%s: %s\n", file.c_str(),
                status.ok() ? "OK" : std::string(status.message()).c_str());
    if (!status.ok()) exit_code = 1;
  }
  return exit_code;
}
