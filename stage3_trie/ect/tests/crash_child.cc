// The crash loop's child (kvlab/testing/crash_loop.h): opens the ect store a
// spec names and writes to it from THREADS threads until killed.
//
//   ect_crash_child SPEC SEED THREADS

#include <cstdio>
#include <cstdlib>
#include <string>

#include "kvlab/ect/stores.h"
#include "kvlab/testing/crash_loop.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s SPEC SEED THREADS\n", argv[0]);
    return 2;
  }
  kvlab::StoreRegistry registry;
  kvlab::RegisterEctStores(&registry);
  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> store =
      registry.Make(argv[1]);
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", std::string(store.status().message()).c_str());
    return 1;
  }
  kvlab::testing::RunCrashWriters(**store, std::strtoull(argv[2], nullptr, 10),
                                  std::atoi(argv[3]));
}
