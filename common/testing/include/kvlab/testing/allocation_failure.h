// The out-of-memory sweep: a fixed sequence of operations run again and
// again, with the k-th allocation failing for k = 1, 2, ... until a run
// completes without reaching k. After every failure the store must hold
// exactly what its answers said (kv_store.h, "Out of memory"):
//   - a Put that failed returned ResourceExhausted and changed nothing;
//   - a read or delete that threw std::bad_alloc changed nothing;
//   - CheckInvariants() is OK, Size() equals a full Scan, every pair equals
//     the model's, and further operations work.
//
// Link `kvlab_failing_allocator` into the test binary that calls it.

#ifndef KVLAB_TESTING_ALLOCATION_FAILURE_H_
#define KVLAB_TESTING_ALLOCATION_FAILURE_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "kvlab/kv_store.h"

namespace kvlab::testing {

struct AllocationFailureOptions {
  uint64_t seed = 1;
  // Operations in the fixed sequence (Put, Delete, DeleteNth, Get, GetNth,
  // Scan); the store is first filled with `preload` pairs, uncounted.
  uint64_t operations = 300;
  uint64_t preload = 200;
  size_t max_key_length = 40;
  size_t max_value_length = 300;
  // True: from the k-th allocation on, every allocation fails (memory is
  // gone for good), and the check comes after the whole sequence. False:
  // only the k-th fails.
  bool persistent = false;
  // False for unordered stores: GetNth, DeleteNth and Scan are not used.
  bool ordered = true;
  // Stop after this many values of k even if runs still reach k (0: never);
  // keeps the sweep of a store that allocates a lot bounded.
  uint64_t max_runs = 0;
  // 0: every k. Otherwise about this many values of k, evenly spaced over
  // the allocations of a first run in which none fails, with k = 1 among
  // them: a sample of the whole sequence for a store whose every
  // allocation is too many runs (each run costs files and syncs).
  uint64_t sample = 0;
};

// Runs the sweep on fresh stores from `make`, with gtest assertions, its
// `operations` and `preload` scaled by KVLAB_TEST_SCALE (test_scale.h).
// Returns the number of runs (values of k) it made.
uint64_t RunAllocationFailureSweep(
    const std::function<std::unique_ptr<KVStore>()>& make,
    const AllocationFailureOptions& options);

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_ALLOCATION_FAILURE_H_
