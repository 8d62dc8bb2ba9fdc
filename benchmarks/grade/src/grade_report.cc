#include "grade_report.h"

#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "kvbench/json.h"
#include "kvbench/machine_info.h"

namespace kvgrade {
namespace {

// Metrics print with the precision they deserve; absent ones as "n/a".
std::string Value(const std::map<std::string, double>& metrics,
                  const std::string& name) {
  auto it = metrics.find(name);
  if (it == metrics.end() || std::isnan(it->second)) return "n/a";
  if (name == "correct") return it->second == 1 ? "1" : "0";
  return absl::StrFormat("%.1f", it->second);
}

std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

}  // namespace

std::string FormatGradeBlock(const GradeContext& context,
                             const GradeResult& result,
                             const Verdict& verdict) {
  const GradeOptions& o = context.options;
  std::string out = absl::StrCat(kBeginMarker, "\n");
  auto line = [&](const std::string& key, const std::string& value) {
    absl::StrAppend(&out, key, ": ", OneLine(value), "\n");
  };
  line("store", context.store);
  line("stage", context.stage);
  line("rubric", context.rubric_path);
  line("n", absl::StrCat(o.n));
  line("threads", absl::StrCat(o.threads));
  line("seconds", absl::StrFormat("%g", o.seconds));
  line("seed", absl::StrCat(o.seed));
  line("machine", kvbench::MachineDescription(context.machine));
  line("build", kvbench::BuildDescription(context.build) +
                    (context.unreliable ? " [UNRELIABLE]" : ""));
  line("date", context.date);
  line("loaded", absl::StrCat(result.loaded));
  line("checked", absl::StrCat(result.checked));
  for (const std::string& name : GradeMetricNames()) {
    line(name, Value(result.metrics, name));
  }
  line("failure", result.correct ? "none" : result.failure);
  for (const RuleResult& r : verdict.lines) {
    line("line",
         absl::StrFormat("%s %s %g (%d points): %s %s", r.rule.metric,
                         r.rule.op, r.rule.threshold, r.rule.points,
                         std::isnan(r.value) ? std::string("n/a")
                                             : absl::StrFormat("%.1f", r.value),
                         r.pass ? "PASS" : "FAIL"));
  }
  line("score", absl::StrCat(verdict.score, "/", verdict.max_score));
  line("result", verdict.pass ? "PASS" : "FAIL");
  absl::StrAppend(&out, kEndMarker, "\n");
  return out;
}

std::string FormatGradeJson(const GradeContext& context,
                            const GradeResult& result, const Verdict& verdict) {
  using kvbench::JsonObject;
  const GradeOptions& o = context.options;
  JsonObject metrics;
  for (const auto& [name, value] : result.metrics) {
    if (std::isnan(value)) {
      metrics.AddNull(name);
    } else {
      metrics.Add(name, value);
    }
  }
  std::vector<std::string> lines;
  for (const RuleResult& r : verdict.lines) {
    JsonObject line;
    line.Add("metric", r.rule.metric)
        .Add("op", r.rule.op)
        .Add("threshold", r.rule.threshold)
        .Add("points", r.rule.points);
    if (std::isnan(r.value)) {
      line.AddNull("value");
    } else {
      line.Add("value", r.value);
    }
    line.AddBool("pass", r.pass);
    lines.push_back(line.Build());
  }
  JsonObject machine;
  machine.Add("cpu", context.machine.cpu_model)
      .Add("cores", context.machine.cores)
      .Add("memory_bytes", context.machine.memory_bytes)
      .Add("kernel", context.machine.kernel);
  JsonObject build;
  build.Add("type", context.build.type)
      .Add("sanitizer", context.build.sanitizer)
      .Add("compiler", context.build.compiler)
      .Add("flags", context.build.flags)
      .Add("allocator", context.build.allocator);
  JsonObject root;
  root.Add("store", context.store)
      .Add("stage", context.stage)
      .Add("rubric", context.rubric_path)
      .Add("n", o.n)
      .Add("threads", o.threads)
      .Add("seconds", o.seconds)
      .Add("seed", o.seed)
      .Add("date", context.date)
      .AddRaw("machine", machine.Build())
      .AddRaw("build", build.Build())
      .AddBool("unreliable", context.unreliable)
      .Add("loaded", result.loaded)
      .Add("checked", result.checked)
      .AddBool("correct", result.correct)
      .Add("failure", result.correct ? "" : result.failure)
      .AddRaw("metrics", metrics.Build())
      .AddRaw("lines", kvbench::JsonArray(lines))
      .Add("score", verdict.score)
      .Add("max_score", verdict.max_score)
      .AddBool("pass", verdict.pass);
  return root.Build();
}

}  // namespace kvgrade
