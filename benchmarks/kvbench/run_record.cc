#include "kvbench/run_record.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {

double RunRecord::Get(std::string_view name) const {
  auto it = metrics.find(std::string(name));
  return it == metrics.end() ? std::numeric_limits<double>::quiet_NaN()
                             : it->second;
}

// One field per line: "ok 1", "error <C-escaped>", "note <C-escaped>",
// "metric <name> <value>". C escaping keeps newlines out of the text.
std::string SerializeRecord(const RunRecord& record) {
  std::string out = absl::StrCat("ok ", record.ok ? 1 : 0, "\n");
  if (!record.error.empty()) {
    absl::StrAppend(&out, "error ", absl::CEscape(record.error), "\n");
  }
  for (const std::string& note : record.notes) {
    absl::StrAppend(&out, "note ", absl::CEscape(note), "\n");
  }
  for (const auto& [name, value] : record.metrics) {
    absl::StrAppendFormat(&out, "metric %s %.17g\n", name, value);
  }
  absl::StrAppend(&out, "end\n");
  return out;
}

absl::StatusOr<RunRecord> ParseRecord(std::string_view text) {
  RunRecord record;
  bool ended = false;
  for (absl::string_view line :
       absl::StrSplit(kvlab::ToAbsl(text), '\n', absl::SkipEmpty())) {
    std::string unescaped;
    if (line == "end") {
      ended = true;
    } else if (absl::ConsumePrefix(&line, "ok ")) {
      record.ok = line == "1";
    } else if (absl::ConsumePrefix(&line, "error ") &&
               absl::CUnescape(line, &unescaped)) {
      record.error = std::move(unescaped);
    } else if (absl::ConsumePrefix(&line, "note ") &&
               absl::CUnescape(line, &unescaped)) {
      record.notes.push_back(std::move(unescaped));
    } else if (absl::ConsumePrefix(&line, "metric ")) {
      std::vector<absl::string_view> parts = absl::StrSplit(line, ' ');
      double value;
      if (parts.size() != 2 || !absl::SimpleAtod(parts[1], &value)) {
        return absl::DataLossError(absl::StrCat("bad metric line: ", line));
      }
      record.Set(kvlab::FromAbsl(parts[0]), value);
    } else {
      return absl::DataLossError(absl::StrCat("bad record line: ", line));
    }
  }
  if (!ended) {
    return absl::DataLossError("the run's record is truncated (no 'end')");
  }
  return record;
}

double Median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  if (values.size() % 2 == 1) return values[mid];
  return (values[mid - 1] + values[mid]) / 2;
}

std::map<std::string, double> MedianMetrics(
    const std::vector<RunRecord>& records) {
  std::map<std::string, std::vector<double>> samples;
  for (const RunRecord& record : records) {
    for (const auto& [name, value] : record.metrics) {
      samples[name].push_back(value);
    }
  }
  std::map<std::string, double> medians;
  for (auto& [name, values] : samples) medians[name] = Median(values);
  return medians;
}

}  // namespace kvbench
