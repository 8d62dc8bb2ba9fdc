// The kill -9 loop shared by the durability tests and the ect store's: a
// child process writes from several threads until it is killed (SIGKILL) at
// a random moment; the store reopened afterwards must hold every write the
// child saw acknowledged, plus at most the one write each thread had in
// flight, and nothing else.
//
// The child's writes come from CrashWorkload, generated from a seed, so the
// parent replays the same sequence against a model. Writer `thread` puts
// (70%) and deletes keys "<thread>/<0..63>" of its own, values of 0..299
// bytes, so threads never touch each other's keys. After each write returns,
// the child reports it as one byte (the thread's index) on standard output.
//
// Link `kvlab_durable_testing`.

#ifndef KVLAB_TESTING_CRASH_LOOP_H_
#define KVLAB_TESTING_CRASH_LOOP_H_

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "kvlab/kv_store.h"

namespace kvlab::testing {

inline constexpr int kCrashKeysPerThread = 64;

// The byte the child reports a finished checkpoint with (a thread index is
// below it).
inline constexpr char kCheckpointAck = 100;

using CrashModel = std::map<std::string, std::string>;

// Writer `thread` of the child's round `seed`.
class CrashWorkload {
 public:
  CrashWorkload(uint64_t seed, int thread)
      : rng_(seed * 1000 + static_cast<uint64_t>(thread)), thread_(thread) {}

  struct Write {
    bool put;
    std::string key;
    std::string value;
  };

  Write Next();
  static std::string Key(int thread, int n);
  static void Apply(const Write& write, CrashModel* model);

 private:
  std::mt19937_64 rng_;
  const int thread_;
};

// ---- The child ----

// Writes `threads` threads' workloads of round `seed` to `store` until the
// process is killed, reporting each write that returned (a Put that fails
// aborts the child; a Delete of an absent key is still acknowledged). With
// `checkpoint`, one more thread calls it back to back and reports each OK
// as kCheckpointAck. Never returns.
[[noreturn]] void RunCrashWriters(
    KVStore& store, uint64_t seed, int threads,
    const std::function<absl::Status()>& checkpoint = nullptr);

// ---- The parent ----

// Runs the child `argv` (argv[0] the program), counting its acknowledgements
// per thread (`threads` of them), and kills it `millis` ms after it starts
// or, with `checkpoints`, after its first finished checkpoint (or 120 s if
// none finishes), adding the checkpoints it finished to `*checkpoints`.
// Fails the test if the child ended before it was killed.
std::vector<uint64_t> RunAndKill(const std::vector<std::string>& argv,
                                 int threads, int millis,
                                 uint64_t* checkpoints = nullptr);

// The pairs of writer `thread`'s keys that `store` holds (a Get of each).
CrashModel CrashKeysOf(const KVStore& store, int thread);

// Whether `recovered` is `before` with writer `thread`'s first `acks` writes
// of round `seed` applied, or with one more (the write in flight).
::testing::AssertionResult HoldsTheAcknowledgedWrites(
    const CrashModel& before, uint64_t seed, int thread, uint64_t acks,
    const CrashModel& recovered);

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_CRASH_LOOP_H_
