// The memory guard: a run predicted to need most of the machine's memory is
// refused before it starts, so kvbench never exhausts the machine.
//
// A pointer trie with one 2 KB array per key byte needs some 63 GB for a
// million course keys; started blindly, such a run would drive the machine
// into swap or the OOM killer, taking every other process with it. Before
// each run kvbench therefore loads a small sample into the same store in a
// forked child and reads the growth of RssAnon at two sample sizes, m/2
// and m pairs. The slope between them is the store's bytes per pair (the
// two-point fit ignores whatever fixed cost the store has, a preallocated
// arena or root array), and linear extrapolation to n gives the prediction:
//
//   predicted = growth(m) + slope x (n - m) + data set bytes x n / m
//
// The data set term charges the run's own copy of the keys and values,
// which the child holds beside the store. The run is refused when the
// prediction exceeds kMemoryFraction of MemAvailable (/proc/meminfo), with
// the prediction in the row's detail; --allow_memory_overcommit runs it
// anyway. Linear extrapolation is an estimate: a trie shares its top levels
// among more keys as n grows, so its prediction errs slightly high; a store
// whose bytes per pair grow with n would be underestimated.

#ifndef KVBENCH_MEMORY_GUARD_H_
#define KVBENCH_MEMORY_GUARD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace kvbench {

// A run may use at most this share of MemAvailable.
inline constexpr double kMemoryFraction = 0.8;

// Runs of at most this many pairs are not sampled: the sample would be the
// run.
inline constexpr uint64_t kMaxSamplePairs = 10'000;

// The sample measured in the child, and what it predicts for n pairs.
struct MemoryEstimate {
  uint64_t half_pairs = 0;     // m/2
  uint64_t sample_pairs = 0;   // m
  double half_growth = 0;      // RssAnon growth after m/2 pairs, bytes
  double sample_growth = 0;    // after m pairs
  double data_bytes = 0;       // the m-pair data set's footprint
  uint64_t n = 0;              // the run's pairs
  double bytes_per_pair = 0;   // the store's slope
  double predicted_bytes = 0;  // the whole run
};

// The sample size for a run of n pairs: kMaxSamplePairs, or 0 when n is at
// most that (no sample needed).
uint64_t SamplePairs(uint64_t n);

// Fills in the slope and the prediction from the measured fields. Pure.
MemoryEstimate Extrapolate(MemoryEstimate sample);

// Loads the first SamplePairs(n) pairs of `dataset` into a fresh `spec`
// store, reading RssAnon at half and full sample. Runs in the calling
// process; kvbench calls it in a forked child.
absl::StatusOr<MemoryEstimate> MeasureSample(std::string_view spec,
                                             std::string_view dataset,
                                             uint64_t n, uint64_t seed);

// The estimate as one line of text for the pipe from the child, and back.
std::string SerializeEstimate(const MemoryEstimate& estimate);
absl::StatusOr<MemoryEstimate> ParseEstimate(std::string_view text);

// MemAvailable from the text of /proc/meminfo, in bytes.
absl::StatusOr<uint64_t> ParseMemAvailable(std::string_view meminfo);
absl::StatusOr<uint64_t> ReadMemAvailable();

// Why the run must be refused ("needs about 63.1 GiB, more than 80% of the
// 21.0 GiB available ..."), or nullopt when it fits.
std::optional<std::string> MemoryRefusal(const MemoryEstimate& estimate,
                                         uint64_t available_bytes);

// The guard kvbench applies before each run: MeasureSample in a forked
// child (at most `timeout_seconds`), then MemoryRefusal against
// MemAvailable. Returns the refusal, or nullopt when the run fits, is too
// small to need a sample, or cannot be estimated (the run itself then
// reports whatever stopped the sample, such as a refused key).
std::optional<std::string> CheckRunMemory(std::string_view spec,
                                          std::string_view dataset, uint64_t n,
                                          uint64_t seed,
                                          double timeout_seconds);

}  // namespace kvbench

#endif  // KVBENCH_MEMORY_GUARD_H_
