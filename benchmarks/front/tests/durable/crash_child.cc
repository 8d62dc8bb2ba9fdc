// The crash loop's child: opens the store a spec names and writes to it from
// several threads until it is killed. After each write returns, it reports
// the acknowledgement as one byte (the thread's index) on standard output.
// With "checkpoints", one more thread calls Checkpoint() back to back and
// reports each that returned OK as the byte kCheckpointAck.
//
//   durable_crash_child SPEC SEED THREADS [checkpoints]

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "crash_workload.h"
#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"

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
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  const int threads = std::atoi(argv[3]);
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      kvlab::durable::testing::CrashWorkload workload(seed, t);
      const char ack = static_cast<char>(t);
      for (;;) {
        const auto write = workload.Next();
        if (write.put) {
          if (!(*store)->Put(write.key, write.value).ok()) std::abort();
        } else {
          (*store)->Delete(write.key);
        }
        if (::write(STDOUT_FILENO, &ack, 1) != 1) std::abort();
      }
    });
  }
  if (checkpoints) {
    writers.emplace_back([&] {
      auto& durable = static_cast<kvlab::DurableStore&>(**store);
      const char ack = kvlab::durable::testing::kCheckpointAck;
      for (;;) {
        if (!durable.Checkpoint().ok()) std::abort();
        if (::write(STDOUT_FILENO, &ack, 1) != 1) std::abort();
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  return 0;
}
