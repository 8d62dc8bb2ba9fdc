// The first exception that escaped one of a test's threads.
//
// An exception leaving a std::thread's function ends the whole test program
// (std::terminate). In a course handout a stub throws NotImplementedError
// from whichever thread reaches it first, so a test that runs the store from
// threads wraps each thread's body in Run and, after joining them, fails by
// itself with the message first() keeps.

#ifndef KVLAB_TESTING_THREAD_ERRORS_H_
#define KVLAB_TESTING_THREAD_ERRORS_H_

#include <exception>
#include <functional>
#include <mutex>
#include <string>

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

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_THREAD_ERRORS_H_
