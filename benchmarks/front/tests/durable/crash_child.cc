// The crash loop's child (kvlab/testing/crash_loop.h): opens the store a spec
// names and writes to it from several threads until it is killed. With
// "checkpoints", one more thread calls Checkpoint() back to back and reports
// each that returned OK as the byte kCheckpointAck.
//
//   durable_crash_child SPEC SEED THREADS [checkpoints]

#include <cstdio>
#include <cstdlib>
#include <string>

#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/crash_loop.h"

int main(int argc, char** argv) {
  const bool checkpoints = argc == 5 && std::string(argv[4]) == "checkpoints";
  if (argc != 4 && !checkpoints) {
    std::fprintf(stderr, "usage: %s SPEC SEED THREADS [checkpoints]\n",
                 argv[0]);
    return 2;
  }
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      kvlab::MakeStore(argv[1]);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", std::string(store.status().message()).c_str());
    return 1;
  }
  std::function<absl::Status()> checkpoint;
  if (checkpoints) {
    auto* durable = static_cast<kvlab::DurableStore*>(store->get());
    checkpoint = [durable] { return durable->Checkpoint(); };
  }
  kvlab::testing::RunCrashWriters(**store, std::strtoull(argv[2], nullptr, 10),
                                  std::atoi(argv[3]), checkpoint);
}
