// The crash loop's child: opens the ect store a spec names and writes to it
// from THREADS threads until killed. After each acknowledged write it prints
// one byte, the writing thread's number, so the parent counts what was
// acknowledged.
//
//   ect_crash_child SPEC SEED THREADS

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "crash_workload.h"
#include "kvlab/ect/stores.h"

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
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const int threads = std::atoi(argv[3]);
  std::mutex out;
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      kvlab::ect::testing::CrashWorkload workload(seed, t);
      for (;;) {
        const auto w = workload.Next();
        if (w.put) {
          if (!(*store)->Put(w.key, w.value).ok()) std::abort();
        } else {
          (*store)->Delete(w.key);  // false when absent: still acknowledged
        }
        const char byte = static_cast<char>(t);
        std::lock_guard lock(out);
        if (::write(STDOUT_FILENO, &byte, 1) != 1) std::abort();
      }
    });
  }
  for (auto& w : writers) w.join();
}
