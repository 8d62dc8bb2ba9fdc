#include "kvlab/testing/crash_loop.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace kvlab::testing {

CrashWorkload::Write CrashWorkload::Next() {
  Write write;
  write.put = rng_() % 10 < 7;
  write.key = Key(thread_, static_cast<int>(rng_() % kCrashKeysPerThread));
  write.value = std::string(rng_() % 300, static_cast<char>('a' + rng_() % 26));
  return write;
}

std::string CrashWorkload::Key(int thread, int n) {
  return std::to_string(thread) + "/" + std::to_string(n);
}

void CrashWorkload::Apply(const Write& write, CrashModel* model) {
  if (write.put) {
    (*model)[write.key] = write.value;
  } else {
    model->erase(write.key);
  }
}

void RunCrashWriters(KVStore& store, uint64_t seed, int threads,
                     const std::function<absl::Status()>& checkpoint) {
  // One write(2) of one byte is atomic; the lock keeps each byte after its
  // own write's return in the order the parent reads them.
  std::mutex out;
  auto report = [&out](char byte) {
    std::lock_guard lock(out);
    if (::write(STDOUT_FILENO, &byte, 1) != 1) std::abort();
  };
  std::vector<std::thread> writers;
  for (int t = 0; t < threads; ++t) {
    writers.emplace_back([&, t] {
      CrashWorkload workload(seed, t);
      for (;;) {
        const CrashWorkload::Write write = workload.Next();
        if (write.put) {
          if (!store.Put(write.key, write.value).ok()) std::abort();
        } else {
          store.Delete(write.key);
        }
        report(static_cast<char>(t));
      }
    });
  }
  if (checkpoint != nullptr) {
    writers.emplace_back([&] {
      for (;;) {
        if (!checkpoint().ok()) std::abort();
        report(kCheckpointAck);
      }
    });
  }
  for (std::thread& writer : writers) writer.join();
  std::abort();  // the writers never return
}

std::vector<uint64_t> RunAndKill(const std::vector<std::string>& argv,
                                 int threads, int millis,
                                 uint64_t* checkpoints) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  std::vector<uint64_t> acks(threads, 0);
  std::atomic<bool> checkpointed{checkpoints == nullptr};
  std::thread killer([&] {
    const auto give_up =
        std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!checkpointed.load() && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(millis));
    ::kill(pid, SIGKILL);
  });
  // Read while the child runs, so a full pipe never stops it.
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buffer[i] == kCheckpointAck) {
        if (checkpoints != nullptr) ++*checkpoints;
        checkpointed.store(true);
      } else {
        ++acks.at(static_cast<size_t>(buffer[i]));
      }
    }
  }
  killer.join();
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(fds[0]);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "the child ended before it was killed (status " << status << ")";
  return acks;
}

CrashModel CrashKeysOf(const KVStore& store, int thread) {
  CrashModel model;
  for (int n = 0; n < kCrashKeysPerThread; ++n) {
    const std::string key = CrashWorkload::Key(thread, n);
    std::string value;
    if (store.Get(key, &value)) model.emplace(key, value);
  }
  return model;
}

::testing::AssertionResult HoldsTheAcknowledgedWrites(
    const CrashModel& before, uint64_t seed, int thread, uint64_t acks,
    const CrashModel& recovered) {
  CrashWorkload workload(seed, thread);
  CrashModel acknowledged = before;
  for (uint64_t i = 0; i < acks; ++i) {
    CrashWorkload::Apply(workload.Next(), &acknowledged);
  }
  CrashModel with_in_flight = acknowledged;
  CrashWorkload::Apply(workload.Next(), &with_in_flight);
  if (recovered == acknowledged || recovered == with_in_flight) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "thread " << thread << ": " << acks << " acknowledged writes, "
         << recovered.size() << " keys recovered vs " << acknowledged.size();
}

}  // namespace kvlab::testing
