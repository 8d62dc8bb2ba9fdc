// What a test's threads report: ThreadErrors, the first exception that
// escaped one of them, and Failures, the checks they found violated.
//
// An exception leaving a std::thread's function ends the whole test program
// (std::terminate). In a course handout a stub throws NotImplementedError
// from whichever thread reaches it first, so a test that runs the store from
// threads wraps each thread's body in Run and, after joining them, fails by
// itself with the message first() keeps.

#ifndef KVLAB_TESTING_THREAD_ERRORS_H_
#define KVLAB_TESTING_THREAD_ERRORS_H_

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

namespace kvlab::testing {

// Thread-safe.
class ThreadErrors {
 public:
  // Runs `body`, keeping the message of the first exception any Run caught.
  void Run(const std::function<void()>& body) {
    try {
      body();
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (first_.empty()) first_ = e.what();
    }
  }
  // Empty if no body threw.
  std::string first() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

 private:
  std::mutex mutex_;
  std::string first_;
};

// The violations threads found: how many, and the first one's message.
// Add is thread-safe; read `first` only after the threads are joined.
struct Failures {
  std::atomic<int> count{0};
  std::string first;  // written once, by the thread that counted 1
  void Add(std::string what) {
    if (count.fetch_add(1) == 0) first = std::move(what);
  }
};

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_THREAD_ERRORS_H_
