// What kvbench prints: a header and an aligned table per data set on
// stdout, and one JSON line per (store, data set, n) for --json.

#ifndef KVBENCH_REPORT_H_
#define KVBENCH_REPORT_H_

#include <map>
#include <string>
#include <vector>

#include "kvbench/datasets.h"
#include "kvbench/format.h"
#include "kvbench/machine_info.h"
#include "kvbench/options.h"
#include "kvbench/run_record.h"

namespace kvbench {

// Everything a table header and a JSON record say besides the metrics.
struct RunContext {
  MachineInfo machine;
  BuildInfo build;
  DataSetInfo dataset;
  int threads = 0;
  double seconds = 0;
  uint64_t course_ops = 0;  // per thread; 0: the phase ran for `seconds`
  int repeat = 0;
  bool verify = true;
  std::string phases;
  std::string date;
  bool unreliable = false;  // debug/sanitized build run with --allow_debug
};

// How one row's runs ended.
enum class RowStatus { kOk, kSkipped, kFailed, kCrashed, kTimedOut };
std::string_view RowStatusName(RowStatus status);  // "ok", "skipped", ...

struct Row {
  std::string store;  // the spec as given
  RowStatus status = RowStatus::kOk;
  std::string detail;  // skipped/failed/crashed: why, in one line
  std::map<std::string, double> metrics;  // medians over the repeats
  std::vector<RunRecord> samples;         // one per completed repeat
  std::vector<std::string> notes;         // caveats from the runs
};

// The header lines above a data set's table. Each carries the UNRELIABLE
// mark when context.unreliable.
std::vector<std::string> FormatHeader(const RunContext& context);

// The table: one aligned row per store, columns described in
// docs/benchmarking.md. Ends with a newline.
std::string FormatTable(const std::vector<Row>& rows);

// One JSON object (no newline) for a row: the context, status and every
// median metric, plus the per-repeat samples.
std::string FormatJsonRecord(const RunContext& context, const Row& row);

}  // namespace kvbench

#endif  // KVBENCH_REPORT_H_
