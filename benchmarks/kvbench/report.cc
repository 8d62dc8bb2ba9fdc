#include "kvbench/report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "kvbench/json.h"
#include "kvlab/string_view_compat.h"

namespace kvbench {
namespace {

std::string Mark(const RunContext& context) {
  return context.unreliable
             ? absl::StrCat("  [", kvlab::ToAbsl(kUnreliableMark), "]")
             : "";
}

// A metric with `decimals` digits, or "n/a" when absent.
std::string Cell(const std::map<std::string, double>& metrics, const char* name,
                 int decimals) {
  auto it = metrics.find(name);
  if (it == metrics.end() || !std::isfinite(it->second)) return "n/a";
  return absl::StrFormat("%.*f", decimals, it->second);
}

// Operations per second: whole numbers once they are large.
std::string RateCell(const std::map<std::string, double>& metrics,
                     const char* name) {
  auto it = metrics.find(name);
  if (it == metrics.end() || !std::isfinite(it->second)) return "n/a";
  if (it->second >= 100) {
    return WithCommas(static_cast<uint64_t>(std::llround(it->second)));
  }
  return absl::StrFormat("%.1f", it->second);
}

std::string CheckedCell(const std::map<std::string, double>& metrics) {
  auto checked = metrics.find(metric::kCourseChecked);
  if (checked == metrics.end()) return "n/a";
  const double planned = metrics.count(metric::kCoursePlanned)
                             ? metrics.at(metric::kCoursePlanned)
                             : checked->second;
  if (checked->second >= planned) {
    return WithCommas(static_cast<uint64_t>(checked->second));
  }
  return absl::StrCat(WithCommas(static_cast<uint64_t>(checked->second)), "/",
                      WithCommas(static_cast<uint64_t>(planned)));
}

}  // namespace

std::string_view RowStatusName(RowStatus status) {
  switch (status) {
    case RowStatus::kOk:
      return "ok";
    case RowStatus::kSkipped:
      return "skipped";
    case RowStatus::kFailed:
      return "failed";
    case RowStatus::kCrashed:
      return "crashed";
    case RowStatus::kTimedOut:
      return "timed_out";
  }
  return "unknown";
}

std::vector<std::string> FormatHeader(const RunContext& context) {
  const DataSetInfo& data = context.dataset;
  const MachineInfo& machine = context.machine;
  const BuildInfo& build = context.build;
  const std::string mark = Mark(context);
  std::vector<std::string> lines;
  lines.push_back(absl::StrFormat(
      "== data set %s: n=%s, avg key %.1f B, avg value %.1f B, %s load "
      "order, seed %d%s ==%s",
      data.name, WithCommas(data.n), data.avg_key_bytes, data.avg_value_bytes,
      data.order == LoadOrder::kSorted ? "sorted" : "random", data.seed,
      data.note.empty() ? "" : absl::StrCat(" (", data.note, ")"), mark));
  lines.push_back("machine: " + MachineDescription(machine) + mark);
  lines.push_back("build: " + BuildDescription(build) + mark);
  const std::string course_length =
      context.course_ops > 0
          ? absl::StrCat(WithCommas(context.course_ops), " ops")
          : absl::StrFormat("%g s", context.seconds);
  lines.push_back(absl::StrFormat(
      "run: phases %s, verify %s, course threads %d x %s, repeat %d "
      "(medians), %s%s",
      context.phases, context.verify ? "on" : "off", context.threads,
      course_length, context.repeat, context.date, mark));
  return lines;
}

std::string FormatTable(const std::vector<Row>& rows) {
  const std::vector<std::string> titles = {
      "store",   "load Mops/s",  "get Mops/s", "scan Mkeys/s",
      "B/key",   "peak B/key",   "own B/key",  "P/M MOPS/GiB",
      "checked", "course ops/s", "status"};
  std::vector<std::vector<std::string>> cells;
  for (const Row& row : rows) {
    const auto& m = row.metrics;
    std::string status(RowStatusName(row.status));
    if (!row.detail.empty()) status = row.detail;
    if (row.status == RowStatus::kOk && !row.samples.empty() &&
        row.samples.size() > 1) {
      status = absl::StrCat("ok (median of ", row.samples.size(), ")");
    }
    if (row.status != RowStatus::kOk && row.metrics.empty()) {
      // Nothing measured: the reason is the whole row.
      cells.push_back(
          {row.store, "-", "-", "-", "-", "-", "-", "-", "-", "-", status});
      continue;
    }
    cells.push_back(
        {row.store, Cell(m, metric::kLoadMops, 3), Cell(m, metric::kGetMops, 3),
         Cell(m, metric::kScanMkeys, 2), Cell(m, metric::kRssBytesPerKey, 1),
         Cell(m, metric::kPeakBytesPerKey, 1),
         Cell(m, metric::kOwnBytesPerKey, 1), Cell(m, metric::kPmMopsPerGib, 1),
         CheckedCell(m), RateCell(m, metric::kCourseOpsPerSecond), status});
  }
  // Every column but the last is padded to its widest cell; numbers are
  // right-aligned, the store name and status left-aligned.
  std::vector<size_t> widths(titles.size());
  for (size_t c = 0; c < titles.size(); ++c) widths[c] = titles[c].size();
  for (const auto& line : cells) {
    for (size_t c = 0; c < line.size(); ++c) {
      widths[c] = std::max(widths[c], line[c].size());
    }
  }
  auto format_line = [&](const std::vector<std::string>& line) {
    std::string out;
    for (size_t c = 0; c < line.size(); ++c) {
      if (c > 0) out += "  ";
      const size_t pad = widths[c] - std::min(widths[c], line[c].size());
      if (c == 0) {
        out += line[c] + std::string(pad, ' ');
      } else if (c + 1 == line.size()) {
        out += line[c];
      } else {
        out += std::string(pad, ' ') + line[c];
      }
    }
    return out + "\n";
  };
  std::string table = format_line(titles);
  // The rule stops at the status title: status text may run long.
  size_t rule = titles.back().size();
  for (size_t c = 0; c + 1 < widths.size(); ++c) rule += widths[c] + 2;
  table += std::string(rule, '-') + "\n";
  for (const auto& line : cells) table += format_line(line);
  return table;
}

std::string FormatJsonRecord(const RunContext& context, const Row& row) {
  const DataSetInfo& data = context.dataset;
  JsonObject dataset;
  dataset.Add("name", data.name)
      .Add("n", data.n)
      .Add("requested_n", data.requested_n)
      .Add("avg_key_bytes", data.avg_key_bytes)
      .Add("avg_value_bytes", data.avg_value_bytes)
      .Add("load_order", data.order == LoadOrder::kSorted ? "sorted" : "random")
      .Add("seed", data.seed);
  if (!data.note.empty()) dataset.Add("note", data.note);

  JsonObject machine;
  machine.Add("cpu", context.machine.cpu_model)
      .Add("cores", context.machine.cores)
      .Add("memory_bytes", context.machine.memory_bytes)
      .Add("kernel", context.machine.kernel)
      .Add("hostname", context.machine.hostname);

  JsonObject build;
  build.Add("type", context.build.type)
      .Add("sanitizer", context.build.sanitizer)
      .Add("compiler", context.build.compiler)
      .Add("flags", context.build.flags)
      .AddBool("ndebug", context.build.ndebug)
      .Add("allocator", context.build.allocator);

  JsonObject metrics;
  for (const auto& [name, value] : row.metrics) metrics.Add(name, value);

  std::vector<std::string> samples;
  for (const RunRecord& sample : row.samples) {
    JsonObject one;
    for (const auto& [name, value] : sample.metrics) one.Add(name, value);
    samples.push_back(one.Build());
  }
  std::vector<std::string> notes;
  for (const std::string& note : row.notes) notes.push_back(JsonString(note));

  JsonObject record;
  record.Add("kvbench", 1)
      .Add("date", context.date)
      .Add("store", row.store)
      .Add("dataset", data.name)
      .Add("n", data.n)
      .Add("status", RowStatusName(row.status))
      .Add("detail", row.detail)
      .AddBool("unreliable", context.unreliable);
  if (context.unreliable) record.Add("warning", kUnreliableMark);
  record.Add("threads", context.threads)
      .Add("seconds", context.seconds)
      .Add("course_ops", context.course_ops)
      .Add("repeat", context.repeat)
      .AddBool("verify", context.verify)
      .Add("phases", context.phases)
      .AddRaw("metrics", metrics.Build())
      .AddRaw("samples", JsonArray(samples))
      .AddRaw("notes", JsonArray(notes))
      .AddRaw("dataset_info", dataset.Build())
      .AddRaw("machine", machine.Build())
      .AddRaw("build", build.Build());
  return record.Build();
}

}  // namespace kvbench
