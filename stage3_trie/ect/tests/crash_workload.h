// The writes of the crash loop's child, generated from a seed so that the
// test can replay them against a model: writer `thread` puts (70%) and
// deletes keys "<thread>/<0..63>" of its own, values of 0..299 bytes.

#ifndef KVLAB_ECT_TESTS_CRASH_WORKLOAD_H_
#define KVLAB_ECT_TESTS_CRASH_WORKLOAD_H_

#include <cstdint>
#include <map>
#include <random>
#include <string>

namespace kvlab::ect::testing {

inline constexpr int kCrashKeysPerThread = 64;

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
    Write w;
    w.put = rng_() % 10 < 7;
    w.key = Key(thread_, static_cast<int>(rng_() % kCrashKeysPerThread));
    w.value = std::string(rng_() % 300, static_cast<char>('a' + rng_() % 26));
    return w;
  }

  static std::string Key(int thread, int n) {
    return std::to_string(thread) + "/" + std::to_string(n);
  }

  static void Apply(const Write& w, std::map<std::string, std::string>* m) {
    if (w.put) {
      (*m)[w.key] = w.value;
    } else {
      m->erase(w.key);
    }
  }

 private:
  std::mt19937_64 rng_;
  const int thread_;
};

}  // namespace kvlab::ect::testing

#endif  // KVLAB_ECT_TESTS_CRASH_WORKLOAD_H_
