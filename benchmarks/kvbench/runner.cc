#include "kvbench/runner.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "kvbench/course_workload.h"
#include "kvbench/datasets.h"
#include "kvbench/durable_run.h"
#include "kvbench/ect_run.h"
#include "kvbench/memory_probe.h"
#include "kvbench/phases.h"
#include "kvbench/progress.h"
#include "kvbench/random.h"
#include "kvlab/kvlab.h"

namespace kvbench {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

RunRecord Fail(RunRecord record, const absl::Status& error) {
  record.ok = false;
  record.error = std::string(error.message());
  return record;
}

}  // namespace

RunRecord RunBenchmark(const RunRequest& request) {
  namespace m = metric;
  const auto run_start = std::chrono::steady_clock::now();
  RunRecord record;
  Progress progress(absl::StrCat(request.spec, " / ", request.dataset));

  // 1. Everything the phases read is built before the baseline.
  absl::StatusOr<DataSet> generated =
      GenerateDataSet(request.dataset, request.n, request.seed);
  if (!generated.ok()) return Fail(record, generated.status());
  const DataSet& data = *generated;
  const uint64_t n = data.size();
  std::vector<uint32_t> get_order;
  if (request.phases.get) {
    Rng rng(DeriveSeed(request.seed, Stream::kGetOrder));
    get_order = RandomPermutation(static_cast<uint32_t>(n), rng);
  }
  const bool scan = request.phases.scan && request.info.ordered;
  if (!request.info.ordered &&
      (request.phases.scan || request.phases.CourseOn(request.dataset))) {
    record.notes.push_back(
        "scan and course skipped: the store is unordered (no GetNth/Scan)");
  }
  std::vector<uint32_t> sorted;
  if (scan && request.verify) sorted = SortedKeyOrder(data);
  record.Set(m::kDataSetBytes, data.FootprintBytes());

  TrimHeap();
  if (absl::Status reset = ResetPeakRss(); !reset.ok()) {
    record.notes.push_back(absl::StrCat(
        reset.message(), "; peak B/key includes data set generation"));
  }
  absl::StatusOr<ProcStatus> baseline = ReadProcStatus();
  if (!baseline.ok()) return Fail(record, baseline.status());
  record.Set(m::kBaselineRssAnonBytes, baseline->rss_anon);

  absl::StatusOr<std::unique_ptr<kvlab::KVStore>> made = kvlab::MakeStore(
      request.build_spec.empty() ? request.spec : request.build_spec);
  if (!made.ok()) return Fail(record, made.status());
  std::unique_ptr<kvlab::KVStore> store = *std::move(made);
  std::unique_ptr<DurableRun> durable;
  if (!request.durable.empty()) {
    absl::StatusOr<std::unique_ptr<DurableRun>> started = DurableRun::Start(
        request.spec, request.durable, request.durable_dir, &store);
    if (!started.ok()) return Fail(record, started.status());
    durable = *std::move(started);
  }

  // 2. Load, then memory.
  absl::StatusOr<PhaseTiming> load =
      RunLoad(*store, data, request.verify, &progress);
  if (!load.ok()) return Fail(record, load.status());
  record.Set(m::kLoadSeconds, load->seconds);
  record.Set(m::kLoadMops, load->PerSecond() / 1e6);
  if (request.verify && store->Size() != n) {
    return Fail(record, absl::InternalError(
                            absl::StrCat("load: Size() is ", store->Size(),
                                         " after ", n, " new keys")));
  }
  // An ect store merges the rest of its buffer into its file now, so memory
  // and Gets meet the store as built.
  if (absl::Status merged = FinishEctLoad(*store, &record); !merged.ok()) {
    return Fail(record, merged);
  }

  TrimHeap();
  absl::StatusOr<ProcStatus> loaded = ReadProcStatus();
  if (!loaded.ok()) return Fail(record, loaded.status());
  // Signed: a store smaller than what the allocator returned could shrink.
  const double rss_growth = static_cast<double>(loaded->rss_anon) -
                            static_cast<double>(baseline->rss_anon);
  const double peak_growth = static_cast<double>(loaded->vm_hwm) -
                             static_cast<double>(baseline->vm_rss);
  record.Set(m::kRssGrowthBytes, rss_growth);
  record.Set(m::kRssBytesPerKey, rss_growth / n);
  record.Set(m::kPeakGrowthBytes, peak_growth);
  record.Set(m::kPeakBytesPerKey, peak_growth / n);
  if (std::optional<size_t> own = store->MemoryUsage(); own.has_value()) {
    record.Set(m::kOwnBytes, *own);
    record.Set(m::kOwnBytesPerKey, static_cast<double>(*own) / n);
  }

  // 3. Get.
  const std::optional<EctGetCounters> ect_before_get =
      request.phases.get ? ReadEctGetCounters(*store) : std::nullopt;
  if (request.phases.get) {
    absl::StatusOr<PhaseTiming> get =
        RunGet(*store, data, get_order, request.verify, &progress);
    if (!get.ok()) return Fail(record, get.status());
    record.Set(m::kGetSeconds, get->seconds);
    record.Set(m::kGetMops, get->PerSecond() / 1e6);
    // P/M, Hyperion eq. 4: (puts/s + gets/s) / memory, here MOPS per GiB.
    if (rss_growth > 0) {
      record.Set(m::kPmMopsPerGib, (load->PerSecond() + get->PerSecond()) /
                                       1e6 / (rss_growth / kGiB));
    }
  }
  std::vector<uint32_t>().swap(get_order);
  RecordEctMetrics(*store, ect_before_get, &record);

  // 4. Scan.
  if (scan) {
    absl::StatusOr<PhaseTiming> scanned =
        RunScan(*store, data, sorted, request.verify, &progress);
    if (!scanned.ok()) return Fail(record, scanned.status());
    record.Set(m::kScanSeconds, scanned->seconds);
    record.Set(m::kScanMkeys, scanned->PerSecond() / 1e6);
  }
  std::vector<uint32_t>().swap(sorted);

  // 5. Course: memory was measured already, so the oracle may cost what it
  // costs.
  if (request.phases.CourseOn(request.dataset) && request.info.ordered) {
    Oracle oracle = BuildOracle(data);
    CheckedCourseOptions check;
    check.operations = kCourseCheckedOperations;
    check.seed = DeriveSeed(request.seed, Stream::kCourseCheck);
    // O(n) GetNth would take hours at n = 1M; cap it and say how far it got.
    if (request.info.linear_nth) check.max_seconds = request.seconds * 5;
    absl::StatusOr<CheckedCourseResult> checked =
        RunCheckedCourse(*store, oracle, check, &progress);
    if (!checked.ok()) return Fail(record, checked.status());
    record.Set(m::kCourseChecked, checked->checked);
    record.Set(m::kCoursePlanned, checked->planned);
    record.Set(m::kCourseCapped, checked->capped ? 1 : 0);
    record.Set(m::kCourseCheckSeconds, checked->seconds);
    oracle.clear();
    // The oracle's freed strings (two per pair) wait in glibc's fast bins;
    // the first heap block of 1 KB or more the timed phase asks for would
    // merge them all, seconds at 10M pairs, inside the timing.
    TrimHeap();

    std::unique_ptr<kvlab::KVStore> shared =
        kvlab::MakeThreadSafe(std::move(store));
    TimedCourseOptions timed_options;
    timed_options.threads = request.threads;
    timed_options.seconds = request.seconds;
    timed_options.operations_per_thread = request.course_ops;
    timed_options.seed = request.seed;
    TimedCourseResult timed = RunTimedCourse(*shared, timed_options, &progress);
    record.Set(m::kCourseOps, timed.operations);
    record.Set(m::kCourseSeconds, timed.seconds);
    record.Set(m::kCourseOpsPerSecond, timed.PerSecond());
    record.Set(m::kCourseSizeAfter, shared->Size());
    store = std::move(shared);
  }
  if (durable != nullptr) {
    absl::Status finished = durable->Finish(std::move(store), &record);
    if (!finished.ok()) return Fail(record, finished);
  }
  record.Set(m::kRunSeconds, std::chrono::duration<double>(
                                 std::chrono::steady_clock::now() - run_start)
                                 .count());
  return record;
}

}  // namespace kvbench
