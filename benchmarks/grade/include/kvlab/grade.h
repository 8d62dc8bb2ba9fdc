// The course grader: the course evaluation, done right, for any store.
//
// A grade loads N course pairs (keys 1-64 letters, values 1-255 printable
// bytes) under a time limit, runs 10,000 single-threaded operations each
// checked against an oracle (any mismatch fails the grade, with the
// operation, the key and both answers), then T threads for S seconds of the
// course mix (for an unordered store, the mix without GetNth and
// DeleteNth). It reports TPS, CPU time, peak RSS, bytes per key and load
// time, judges them against the rubric lines of the store's stage
// (benchmarks/rubric.txt) and prints one fixed block that scripts parse:
//
//   <<< BEGIN kvgrade
//   store: avl
//   ...
//   result: PASS
//   >>> END
//
// plus the same as one JSON object with --json=FILE. See docs/benchmarking.md.
//
// Two ways in:
//  - kvgrade --store=SPEC grades a registered kvlab store (make grade).
//  - An outside program grades its own course-API class (the course's
//    Slice/kvStore, under any name) by linking the grader library:
//
//      #include <kvlab/grade.h>
//      #include "my_kv_store.h"   // class kvStore { ... get/put/del ... }
//      int main(int argc, char** argv) {
//        return kvlab::grade::GradeCourseApi<kvStore>(argc, argv, "mine");
//      }
//
//    g++ -std=c++20 -O2 main.cc my_kv_store.cc $(pkg-config --cflags --libs
//    --static kvgrade)

#ifndef KVLAB_GRADE_H_
#define KVLAB_GRADE_H_

#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "kvlab/kv_store.h"

namespace kvlab::grade {

// What the grader grades: a name, the rubric stage it is judged by, and a
// factory for a fresh empty store (given the course's capacity hint).
struct GradeSource {
  std::string name;          // "avl", or the outside program's name
  std::string stage;         // default rubric stage ("stage1"); --stage wins
  bool thread_safe = false;  // true: the timed phase uses it unwrapped
  // False for an unordered store (no GetNth, DeleteNth or Scan, such as
  // ect): both course phases then leave the operations by rank out
  // (kvbench/course_workload.h says what they run instead).
  bool ordered = true;
  std::function<std::unique_ptr<KVStore>(uint64_t max_entries)> make;
  // If set, called once after the last Put of the load and timed with it;
  // a store that builds its final form then (ect merges its write buffer
  // into its data file) is measured as built. An error fails the grade.
  std::function<absl::Status(KVStore& store)> finish_load;
};

// Parses the grader's flags from argv (see --help), grades `source`, prints
// the block, and returns the exit status: 0 pass, 1 fail, 2 usage error or
// refused build.
int GradeMain(int argc, char** argv, const GradeSource& source);

namespace internal {
// The Slice type of a course API class, from the signature of its put.
template <typename Api, typename SliceT>
SliceT SliceOf(bool (Api::*)(SliceT&, SliceT&));
}  // namespace internal

// A KVStore over a class with the course API (kvStore(uint64_t), get/put/del
// by key, get/del by N, Slices of at most 255 bytes). Keys longer than 255
// bytes are refused (ValidateKey); a value longer than 255 bytes throws
// std::invalid_argument (the course data never has one). Scan is not in the
// course API and visits nothing; Size() counts the API's answers (new puts
// minus successful deletes). The class must be safe for concurrent calls, as
// the course requires. With `free_slices`, returned Slice data is free()d,
// as kvlab/course.h specifies; false leaves it, for a store that returns
// pointers into itself (the course never said who frees).
template <typename Api>
class CourseApiStore final : public KVStore {
 public:
  using SliceT = decltype(internal::SliceOf(&Api::put));

  CourseApiStore(std::string name, uint64_t max_entries, bool free_slices)
      : name_(std::move(name)), api_(max_entries), free_slices_(free_slices) {}

  absl::Status ValidateKey(std::string_view key) const override {
    if (key.size() > 255) {
      return absl::InvalidArgumentError(
          "the course API's Slice holds at most 255 bytes");
    }
    return absl::OkStatus();
  }
  bool GetNth(uint64_t n, std::string* key, std::string* value) const override {
    if (n > static_cast<uint64_t>(INT_MAX)) return false;
    SliceT k{0, nullptr}, v{0, nullptr};
    if (!api_.get(static_cast<int>(n), k, v)) return false;
    Take(k, key);
    Take(v, value);
    return true;
  }
  bool DeleteNth(uint64_t n) override {
    if (n > static_cast<uint64_t>(INT_MAX)) return false;
    if (!api_.del(static_cast<int>(n))) return false;
    size_.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }
  uint64_t Scan(std::string_view, ScanVisitor) const override { return 0; }
  uint64_t Size() const override {
    return size_.load(std::memory_order_relaxed);
  }
  std::string_view Name() const override { return name_; }
  std::optional<size_t> MemoryUsage() const override { return std::nullopt; }
  bool IsThreadSafe() const override { return true; }

 protected:
  bool PutImpl(std::string_view key, std::string_view value) override {
    if (value.size() > 255) {
      throw std::invalid_argument("course API values hold at most 255 bytes");
    }
    SliceT k = In(key), v = In(value);
    const bool replaced = api_.put(k, v);
    if (!replaced) size_.fetch_add(1, std::memory_order_relaxed);
    return replaced;
  }
  bool GetImpl(std::string_view key, std::string* value) const override {
    SliceT k = In(key), v{0, nullptr};
    if (!api_.get(k, v)) return false;
    Take(v, value);
    return true;
  }
  bool DeleteImpl(std::string_view key) override {
    SliceT k = In(key);
    if (!api_.del(k)) return false;
    size_.fetch_sub(1, std::memory_order_relaxed);
    return true;
  }

 private:
  // Input Slices are only read (the course contract), hence the const_cast.
  static SliceT In(std::string_view bytes) {
    return SliceT{static_cast<uint8_t>(bytes.size()),
                  const_cast<char*>(bytes.data())};
  }
  void Take(SliceT& slice, std::string* out) const {
    if (out != nullptr) out->assign(slice.data, slice.size);
    if (free_slices_) std::free(slice.data);
  }

  std::string name_;
  mutable Api api_;  // the course API's getters are not const
  bool free_slices_;
  std::atomic<uint64_t> size_{0};
};

// GradeMain for a course API class. `--free_slices=false` keeps returned
// Slice data (see CourseApiStore); `--stage` picks the rubric (default
// stage1).
template <typename Api>
int GradeCourseApi(int argc, char** argv, std::string name) {
  bool free_slices = true;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--free_slices=false") free_slices = false;
  }
  GradeSource source;
  source.name = name;
  source.stage = "stage1";
  source.thread_safe = true;
  source.make = [name, free_slices](uint64_t max_entries) {
    return std::unique_ptr<KVStore>(
        new CourseApiStore<Api>(name, max_entries, free_slices));
  };
  return GradeMain(argc, argv, source);
}

}  // namespace kvlab::grade

#endif  // KVLAB_GRADE_H_
