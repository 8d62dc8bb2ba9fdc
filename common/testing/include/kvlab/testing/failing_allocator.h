// Allocation failure on demand, for tests of out-of-memory behaviour.
//
// A test binary that links the `kvlab_failing_allocator` library gets global
// operator new/delete replaced (and, in builds without a sanitizer, malloc,
// calloc, realloc and mmap interposed) by versions that count the
// allocations made on the calling thread and fail the ones a test chooses:
// operator new throws std::bad_alloc, malloc/calloc/realloc return null with
// errno = ENOMEM, mmap returns MAP_FAILED with errno = ENOMEM. Outside a
// FailingAllocations scope nothing is counted or failed, and other threads
// are never affected.
//
//   {
//     FailingAllocations failing(/*nth=*/3);  // the 3rd allocation fails
//     status = store->Put(key, value);
//   }  // counting stops here
//
// Under ASan or TSan the sanitizer owns malloc and mmap, so only operator new
// is failed there; MallocFailuresInjected() says which build this is.

#ifndef KVLAB_TESTING_FAILING_ALLOCATOR_H_
#define KVLAB_TESTING_FAILING_ALLOCATOR_H_

#include <cstdint>

namespace kvlab::testing {

// True if malloc, calloc, realloc and mmap are failed too (a build without
// sanitizers); false if only operator new is.
bool MallocFailuresInjected();

// While alive, counts the allocations made on this thread and fails the
// `nth` (1-based; 0 fails none) and, if `and_all_after`, every later one.
// Scopes do not nest. Pause() and Resume() let the test itself allocate
// without being counted.
class FailingAllocations {
 public:
  explicit FailingAllocations(uint64_t nth, bool and_all_after = false);
  ~FailingAllocations();
  FailingAllocations(const FailingAllocations&) = delete;
  FailingAllocations& operator=(const FailingAllocations&) = delete;

  void Pause();
  void Resume();

  // Allocations counted so far (failed ones included).
  uint64_t allocations() const;
  // Allocations failed so far.
  uint64_t failures() const;
};

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_FAILING_ALLOCATOR_H_
