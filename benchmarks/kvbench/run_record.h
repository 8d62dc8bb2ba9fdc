// The result of one run (one store, one data set, one n, one repeat), as the
// child sends it to the parent, and medians over repeats.
//
// Metrics are named numbers; a metric that does not apply (a skipped phase,
// a store without its own memory accounting) is simply absent.

#ifndef KVBENCH_RUN_RECORD_H_
#define KVBENCH_RUN_RECORD_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace kvbench {

// The metric names, as they appear in JSON records.
namespace metric {
inline constexpr char kLoadMops[] = "load_mops";    // million Puts/s
inline constexpr char kGetMops[] = "get_mops";      // million Gets/s
inline constexpr char kScanMkeys[] = "scan_mkeys";  // million pairs/s
inline constexpr char kRssBytesPerKey[] = "rss_bytes_per_key";
inline constexpr char kPeakBytesPerKey[] = "peak_bytes_per_key";
inline constexpr char kOwnBytesPerKey[] = "own_bytes_per_key";
inline constexpr char kPmMopsPerGib[] = "pm_mops_per_gib";
inline constexpr char kCourseChecked[] = "course_checked";
inline constexpr char kCoursePlanned[] = "course_planned";
inline constexpr char kCourseCapped[] = "course_capped";  // 0 or 1
inline constexpr char kCourseCheckSeconds[] = "course_check_seconds";
inline constexpr char kCourseOpsPerSecond[] = "course_ops_per_s";
inline constexpr char kCourseOps[] = "course_ops";
inline constexpr char kCourseSeconds[] = "course_seconds";
inline constexpr char kCourseSizeAfter[] = "course_size_after";
inline constexpr char kLoadSeconds[] = "load_seconds";
inline constexpr char kGetSeconds[] = "get_seconds";
inline constexpr char kScanSeconds[] = "scan_seconds";
inline constexpr char kRssGrowthBytes[] = "rss_growth_bytes";
inline constexpr char kPeakGrowthBytes[] = "peak_growth_bytes";
inline constexpr char kOwnBytes[] = "own_bytes";
inline constexpr char kBaselineRssAnonBytes[] = "baseline_rss_anon_bytes";
inline constexpr char kDataSetBytes[] = "dataset_bytes";
inline constexpr char kRunSeconds[] = "run_seconds";  // the whole child
// --durable only: log records, bytes written to log and checkpoint files
// per record, fdatasync calls, and the seconds to reopen the directory.
inline constexpr char kDurableWrites[] = "durable_writes";
inline constexpr char kDurableBytesPerWrite[] = "durable_bytes_per_write";
inline constexpr char kDurableSyncs[] = "durable_syncs";
inline constexpr char kRecoverSeconds[] = "recover_seconds";
// ect only (ect_run.h): the merge of the buffer after the load, the index's
// RAM per pair in the file (tries and offsets; the tries alone), its Huffman
// tables, the data file's bytes, the merges made, and data-file reads per
// Get of the get phase.
inline constexpr char kEctMergeSeconds[] = "ect_merge_seconds";
inline constexpr char kEctIndexBitsPerKey[] = "ect_index_bits_per_key";
inline constexpr char kEctTrieBitsPerKey[] = "ect_trie_bits_per_key";
inline constexpr char kEctTablesBytes[] = "ect_tables_bytes";
inline constexpr char kEctFileBytes[] = "ect_file_bytes";
inline constexpr char kEctMerges[] = "ect_merges";
inline constexpr char kEctReadsPerGet[] = "ect_reads_per_get";
}  // namespace metric

struct RunRecord {
  bool ok = true;
  std::string error;               // why !ok: the first failed check
  std::vector<std::string> notes;  // caveats, e.g. the peak could not reset
  std::map<std::string, double> metrics;

  void Set(std::string_view name, double value) {
    metrics[std::string(name)] = value;
  }
  // The metric, or NaN when absent.
  double Get(std::string_view name) const;
};

// A line-based text form for the pipe; ParseRecord(SerializeRecord(r)) == r.
std::string SerializeRecord(const RunRecord& record);
absl::StatusOr<RunRecord> ParseRecord(std::string_view text);

// The median of `values` (mean of the middle two for an even count); NaN if
// empty.
double Median(std::vector<double> values);

// Per metric, the median over the records that have it.
std::map<std::string, double> MedianMetrics(
    const std::vector<RunRecord>& records);

}  // namespace kvbench

#endif  // KVBENCH_RUN_RECORD_H_
