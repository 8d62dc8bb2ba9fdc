// The course workload (docs/benchmarking.md, the course phase), measured
// fairly: wall time, per-thread generators, exact operation counts.
//
// Checked phase: single-threaded operations on a loaded store, each checked
// against an oracle holding the same pairs. The oracle is a libstdc++ policy
// tree with order statistics, so finding its N-th pair is O(log n) and the
// check never dominates the store being checked. The five operations, drawn
// with equal probability:
//   get        Get of an existing key; the value must match.
//   put        Put of a new random course key (the reply must say whether it
//              existed), then Get of it.
//   delete     Delete of an existing key (must succeed), then Get (absent).
//   get_nth    GetNth(N), N random in [0, size): key and value must match.
//   delete_nth DeleteNth(N), then Get of the oracle's N-th key (absent).
// Size() must equal the oracle's size after every operation.
//
// Timed phase: T threads on a thread-safe store for S seconds, each drawing
// from an equal five-way mix: Get of a random key (almost always absent); Put
// of a new random course key; GetNth(N) then Delete of that key; GetNth(N);
// DeleteNth(N). N is random in [0, Size()); Size() is racy, so an
// out-of-range N just returns false, and still counts as an operation.
//
// An unordered store (StoreInfo::ordered false, such as ect: no GetNth,
// DeleteNth or Scan) runs the same phases without the operations by rank:
// the checked phase draws get, put and delete with equal probability; each
// timed thread draws Get of a random key (almost always absent), Put of a
// new random course key, and Delete of the newest key that thread put and
// has not yet deleted (a random key, almost always absent, if none), so
// the store neither grows nor shrinks much as it runs.
//
// The ordered mix deletes two pairs for each one it adds, so the store
// shrinks as it runs, and a faster store shrinks faster: in S seconds it ends
// smaller, and its later operations are cheaper. Comparing stores at equal work
// instead, each thread may run a fixed number of operations: with one thread,
// every store then sees the same operations on the same sizes (the draws depend
// only on the seed and on Size()), and the rate is operations / wall time.

#ifndef KVBENCH_COURSE_WORKLOAD_H_
#define KVBENCH_COURSE_WORKLOAD_H_

#include <cstdint>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kvbench/datasets.h"
#include "kvbench/progress.h"
#include "kvlab/kv_store.h"

namespace kvbench {

// std::string's operator< compares as unsigned bytes, the stores' order.
using Oracle = __gnu_pbds::tree<std::string, std::string,
                                std::less<std::string>, __gnu_pbds::rb_tree_tag,
                                __gnu_pbds::tree_order_statistics_node_update>;

// An oracle holding every pair of `data`.
Oracle BuildOracle(const DataSet& data);

struct CheckedCourseOptions {
  uint64_t operations = 10'000;
  uint64_t seed = 42;
  // Wall-time cap; the phase stops early (capped) once it is exceeded. Used
  // for stores whose GetNth is O(n).
  double max_seconds = std::numeric_limits<double>::infinity();
  // False: the unordered mix above (no GetNth, no DeleteNth).
  bool ordered = true;
};

struct CheckedCourseResult {
  uint64_t checked = 0;  // operations done and checked
  uint64_t planned = 0;  // options.operations
  bool capped = false;   // stopped by max_seconds
  double seconds = 0;
};

// Runs the checked phase on `store`, whose pairs must equal `oracle`'s; both
// are modified alike. The first mismatch returns an error naming the
// operation, the key and both answers. `progress` may be null.
absl::StatusOr<CheckedCourseResult> RunCheckedCourse(
    kvlab::KVStore& store, Oracle& oracle, const CheckedCourseOptions& options,
    Progress* progress = nullptr);

struct TimedCourseOptions {
  int threads = 2;
  double seconds = 2;  // ignored if operations_per_thread > 0
  // If > 0, each thread stops after exactly this many operations instead
  // of at the deadline.
  uint64_t operations_per_thread = 0;
  uint64_t seed = 42;
  // False: the unordered mix above (no GetNth, no DeleteNth).
  bool ordered = true;
};

struct TimedCourseResult {
  std::vector<uint64_t> per_thread;  // exact operation counts
  uint64_t operations = 0;           // their sum
  double seconds = 0;                // wall time, start to last join
  uint64_t checksum = 0;             // consumed answers
  double PerSecond() const { return seconds > 0 ? operations / seconds : 0; }
};

// Runs the timed phase. `store` must be thread-safe (IsThreadSafe()), e.g.
// wrapped by kvlab::MakeThreadSafe. `progress` may be null.
TimedCourseResult RunTimedCourse(kvlab::KVStore& store,
                                 const TimedCourseOptions& options,
                                 Progress* progress = nullptr);

}  // namespace kvbench

#endif  // KVBENCH_COURSE_WORKLOAD_H_
