// The writes the crash-loop child makes, generated from a seed, so that the
// test can replay the same sequence against a model.

#ifndef KVLAB_TESTS_DURABLE_CRASH_WORKLOAD_H_
#define KVLAB_TESTS_DURABLE_CRASH_WORKLOAD_H_

#include <cstdint>
#include <map>
#include <random>
#include <string>

namespace kvlab::durable::testing {

// The byte the child reports a finished checkpoint with (a thread index is
// below it).
inline constexpr char kCheckpointAck = 100;

// Writer `thread` of the child's round `seed`: puts and deletes of its own
// keys ("<thread>/<n>"), so threads never touch each other's keys.
class CrashWorkload {
 public:
  CrashWorkload(uint64_t seed, int thread)
      : rng_(seed * 1000 + static_cast<uint64_t>(thread)), thread_(thread) {}

  struct Write {
    bool put;
    std::string key;
    std::string value;
  };

  Write Next() {
    Write write;
    write.put = rng_() % 10 < 7;
    write.key = std::to_string(thread_) + "/" + std::to_string(rng_() % 64);
    write.value =
        std::string(rng_() % 300, static_cast<char>('a' + rng_() % 26));
    return write;
  }

  static void Apply(const Write& write,
                    std::map<std::string, std::string>* model) {
    if (write.put) {
      (*model)[write.key] = write.value;
    } else {
      model->erase(write.key);
    }
  }

 private:
  std::mt19937_64 rng_;
  const int thread_;
};

}  // namespace kvlab::durable::testing

#endif  // KVLAB_TESTS_DURABLE_CRASH_WORKLOAD_H_
