// Reading the process's memory from /proc/self/status.
//
// kvbench charges a store with the growth of RssAnon (resident anonymous
// memory: heap and private mmaps, not the binary or shared libraries) across
// the load phase. Heap counters such as mallinfo2 would miss memory a store
// maps itself with mmap; RssAnon does not. Before each reading the heap is
// trimmed with malloc_trim(0) so freed memory glibc still holds is not
// counted. The peak (VmHWM, high-water mark of the whole RSS) is reset at the
// baseline by writing "5" to /proc/self/clear_refs.

#ifndef KVBENCH_MEMORY_PROBE_H_
#define KVBENCH_MEMORY_PROBE_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"

namespace kvbench {

// The fields kvbench uses, in bytes.
struct ProcStatus {
  uint64_t rss_anon = 0;  // RssAnon
  uint64_t vm_rss = 0;    // VmRSS: anon + file + shmem resident
  uint64_t vm_hwm = 0;    // VmHWM: peak VmRSS since start or the last reset
};

// Parses the text of /proc/<pid>/status. Each field is a line such as
// "RssAnon:\t   1234 kB"; all three must be present.
absl::StatusOr<ProcStatus> ParseProcStatus(std::string_view text);

// Reads and parses /proc/self/status.
absl::StatusOr<ProcStatus> ReadProcStatus();

// Returns free heap memory to the kernel: malloc_trim(0), and tcmalloc's
// MallocExtension_ReleaseFreeMemory when tcmalloc is preloaded.
void TrimHeap();

// Resets VmHWM to the current VmRSS (echo 5 > /proc/self/clear_refs; Linux
// 4.0 and later). Fails where /proc is read-only or the kernel is older.
absl::Status ResetPeakRss();

}  // namespace kvbench

#endif  // KVBENCH_MEMORY_PROBE_H_
