// mmbench's workload: the allocation pattern of Hyperion's containers
// (Hyperion paper, section 3.2), replayed against one allocator.
//
//   grow     `buffers` buffers start empty and each grows in 32-byte steps
//            to a random target of 1..max_steps steps; the steps of all
//            buffers are shuffled, so growths interleave at random (the
//            first `initial_steps` of each buffer are taken in id order)
//   free     a random half of the buffers is freed
//   regrow   the freed half grows again from nothing to new random targets,
//            again in shuffled 32-byte steps
//
// Every step writes its new 32 bytes. The `hyperion_compact` variant also
// compacts the manager at the end of the free and the regrow phase (inside
// the phase's time): MemoryManager::BeginCompaction, Forward on every
// handle of the handle array, FinishCompaction. The bookkeeping arrays
// (handles, sizes, the shuffled step lists) are mmap'd directly, so they weigh
// the same under every allocator and never touch the allocator under test.

#ifndef BENCHMARKS_MMBENCH_WORKLOAD_H_
#define BENCHMARKS_MMBENCH_WORKLOAD_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mmbench {

struct WorkloadOptions {
  uint64_t buffers = 2'000'000;
  uint32_t max_steps = 16;  // targets of 32 .. 32*max_steps bytes
  // Steps every buffer takes first, in id order, before the shuffled rest:
  // 1 replays the paper's case of many 32-byte containers that then start
  // to grow (section 3.2).
  uint32_t initial_steps = 0;
  uint64_t seed = 42;
  // hyperion_compact: CompactionPolicy::max_occupancy.
  double compact_max_occupancy = 0.9;
};

struct PhaseResult {
  std::string name;
  double seconds = 0;
  uint64_t rss_bytes = 0;   // resident set after the phase
  uint64_t live_bytes = 0;  // sum of the live buffers' sizes
};

struct WorkloadResult {
  uint64_t baseline_rss_bytes = 0;  // before the first allocation
  uint64_t peak_rss_bytes = 0;      // VmHWM at the end
  std::vector<PhaseResult> phases;
  uint64_t corrupt_buffers = 0;  // buffers whose bytes were wrong at the end
  // The Hyperion manager's own view at the end (zero for malloc).
  std::string manager_stats_json;
};

// Runs the workload with malloc/realloc/free (glibc, or whatever malloc is
// preloaded) or with one stage-5 MemoryManager, compacting it after the
// free and regrow phases if `compact`.
WorkloadResult RunMalloc(const WorkloadOptions& options);
WorkloadResult RunHyperion(const WorkloadOptions& options, bool compact);

// VmRSS and VmHWM of this process, in bytes.
uint64_t CurrentRss();
uint64_t PeakRss();

}  // namespace mmbench

#endif  // BENCHMARKS_MMBENCH_WORKLOAD_H_
