#include "workload.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include "kvlab/stage5/memory_manager.h"

namespace mmbench {
namespace {

using kvlab::stage5::CompactionStats;
using kvlab::stage5::HyperionPointer;
using kvlab::stage5::MemoryManager;
using kvlab::stage5::MemoryStats;

constexpr size_t kStep = 32;

// An array of T outside the allocator under test.
template <typename T>
class MappedArray {
 public:
  explicit MappedArray(size_t n) : n_(n == 0 ? 1 : n) {
    void* p = mmap(nullptr, n_ * sizeof(T), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      std::perror("mmbench: mmap");
      std::exit(1);
    }
    data_ = static_cast<T*>(p);
  }
  MappedArray(const MappedArray&) = delete;
  MappedArray& operator=(const MappedArray&) = delete;
  ~MappedArray() { munmap(data_, n_ * sizeof(T)); }
  T& operator[](size_t i) { return data_[i]; }
  T* data() { return data_; }

 private:
  size_t n_;
  T* data_;
};

uint64_t StatusField(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const size_t len = std::strlen(field);
  while (std::getline(in, line)) {
    if (line.compare(0, len, field) == 0) {
      return std::strtoull(line.c_str() + len + 1, nullptr, 10) * 1024;
    }
  }
  return 0;
}

// The byte every step of buffer `id` writes, never zero.
inline uint8_t Tag(uint64_t id) { return uint8_t(id % 255 + 1); }

// The shuffled step list of one phase: buffer id i appears steps[i] times.
class StepList {
 public:
  StepList(uint64_t total) : ids_(total), size_(total) {}
  uint32_t* data() { return ids_.data(); }
  uint64_t size() const { return size_; }

 private:
  MappedArray<uint32_t> ids_;
  uint64_t size_;
};

// The allocator-independent skeleton: `Ops` supplies Grow(id, new_size),
// Release(id), Check(id, size) and EndPhase(name), called inside the timed
// part at the end of the free and regrow phases.
template <typename Ops>
WorkloadResult Run(const WorkloadOptions& options, Ops& ops) {
  const uint64_t n = options.buffers;
  std::mt19937_64 rng(options.seed);
  MappedArray<uint32_t> size(n);
  MappedArray<uint8_t> target(n);
  MappedArray<uint8_t> freed(n);
  uint64_t initial_steps = 0, grow_steps = 0;
  for (uint64_t i = 0; i < n; ++i) {
    target[i] = uint8_t(1 + rng() % options.max_steps);
    const uint32_t initial =
        std::min<uint32_t>(target[i], options.initial_steps);
    initial_steps += initial;
    grow_steps += target[i] - initial;
    size[i] = 0;
  }
  StepList initial(initial_steps);
  StepList grow(grow_steps);
  uint64_t k = 0, m = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t first = std::min<uint32_t>(target[i], options.initial_steps);
    for (uint32_t s = 0; s < first; ++s) initial.data()[m++] = uint32_t(i);
    for (uint32_t s = first; s < target[i]; ++s) grow.data()[k++] = uint32_t(i);
  }
  std::shuffle(grow.data(), grow.data() + grow.size(), rng);
  // Choose the freed half and its new targets up front, too.
  uint64_t regrow_steps = 0;
  for (uint64_t i = 0; i < n; ++i) {
    freed[i] = rng() % 2;
    if (freed[i]) {
      target[i] = uint8_t(1 + rng() % options.max_steps);
      regrow_steps += target[i];
    }
  }
  StepList regrow(regrow_steps);
  k = 0;
  for (uint64_t i = 0; i < n; ++i) {
    if (!freed[i]) continue;
    for (uint32_t s = 0; s < target[i]; ++s) regrow.data()[k++] = uint32_t(i);
  }
  std::shuffle(regrow.data(), regrow.data() + regrow.size(), rng);

  WorkloadResult result;
  ops.Prepare(n);
  result.baseline_rss_bytes = CurrentRss();
  uint64_t live = 0;
  auto phase = [&](const char* name, auto&& body) {
    const auto start = std::chrono::steady_clock::now();
    body();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    result.phases.push_back(PhaseResult{name, seconds, CurrentRss(), live});
  };
  auto run_steps = [&](StepList& steps) {
    for (uint64_t j = 0; j < steps.size(); ++j) {
      const uint32_t id = steps.data()[j];
      size[id] += kStep;
      ops.Grow(id, size[id]);
      live += kStep;
    }
  };
  phase("grow", [&] {
    run_steps(initial);
    run_steps(grow);
  });
  phase("free", [&] {
    for (uint64_t i = 0; i < n; ++i) {
      if (!freed[i]) continue;
      ops.Release(i);
      live -= size[i];
      size[i] = 0;
    }
    ops.EndPhase("free");
  });
  phase("regrow", [&] {
    run_steps(regrow);
    ops.EndPhase("regrow");
  });
  for (uint64_t i = 0; i < n; ++i) {
    if (!ops.Check(i, size[i])) ++result.corrupt_buffers;
  }
  result.peak_rss_bytes = PeakRss();
  result.manager_stats_json = ops.StatsJson();
  for (uint64_t i = 0; i < n; ++i) ops.Release(i);
  return result;
}

class MallocOps {
 public:
  void Prepare(uint64_t n) {
    buffers_ = std::make_unique<MappedArray<char*>>(n);
    for (uint64_t i = 0; i < n; ++i) (*buffers_)[i] = nullptr;
  }
  void Grow(uint64_t id, uint32_t new_size) {
    char*& p = (*buffers_)[id];
    p = static_cast<char*>(std::realloc(p, new_size));
    if (p == nullptr) std::abort();
    std::memset(p + new_size - kStep, Tag(id), kStep);
  }
  void Release(uint64_t id) {
    std::free((*buffers_)[id]);
    (*buffers_)[id] = nullptr;
  }
  bool Check(uint64_t id, uint32_t size) {
    const char* p = (*buffers_)[id];
    return size == 0 ||
           (uint8_t(p[0]) == Tag(id) && uint8_t(p[size - 1]) == Tag(id));
  }
  void EndPhase(const char*) {}
  std::string StatsJson() { return ""; }

 private:
  std::unique_ptr<MappedArray<char*>> buffers_;
};

// Handles are 5-byte Hyperion pointers in a byte array, as the trie keeps
// them.
class HyperionOps {
 public:
  HyperionOps(bool compact, double max_occupancy)
      : compact_(compact), max_occupancy_(max_occupancy) {}

  void Prepare(uint64_t n) {
    n_ = n;
    handles_ =
        std::make_unique<MappedArray<uint8_t>>(n * HyperionPointer::kBytes);
    std::memset(handles_->data(), 0, n * HyperionPointer::kBytes);
  }
  void Grow(uint64_t id, uint32_t new_size) {
    uint8_t* slot = handles_->data() + id * HyperionPointer::kBytes;
    const HyperionPointer hp =
        mm_.Reallocate(HyperionPointer::Load(slot), new_size);
    hp.Store(slot);
    std::memset(static_cast<char*>(mm_.Resolve(hp)) + new_size - kStep, Tag(id),
                kStep);
  }
  void Release(uint64_t id) {
    uint8_t* slot = handles_->data() + id * HyperionPointer::kBytes;
    mm_.Free(HyperionPointer::Load(slot));
    HyperionPointer().Store(slot);
  }
  bool Check(uint64_t id, uint32_t size) {
    const HyperionPointer hp =
        HyperionPointer::Load(handles_->data() + id * HyperionPointer::kBytes);
    if (size == 0) return hp.IsNull();
    const auto* p = static_cast<const uint8_t*>(mm_.Resolve(hp));
    return mm_.Size(hp) == size && p[0] == Tag(id) && p[size - 1] == Tag(id);
  }
  // The owner's part of a compaction: every stored handle goes through
  // Forward between Begin and Finish.
  void EndPhase(const char* name) {
    if (!compact_) return;
    const auto start = std::chrono::steady_clock::now();
    kvlab::stage5::CompactionPolicy policy;
    policy.max_occupancy = max_occupancy_;
    mm_.BeginCompaction(policy);
    uint8_t* slot = handles_->data();
    for (uint64_t i = 0; i < n_; ++i, slot += HyperionPointer::kBytes) {
      const HyperionPointer hp = HyperionPointer::Load(slot);
      const HyperionPointer to = mm_.Forward(hp);
      if (!(to == hp)) to.Store(slot);
    }
    const CompactionStats stats = mm_.FinishCompaction();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::ostringstream out;
    out << (compactions_.empty() ? "" : ",") << "{\"after\":\"" << name
        << "\",\"compact_seconds\":" << seconds
        << ",\"chunks_moved\":" << stats.chunks_moved
        << ",\"bytes_moved\":" << stats.bytes_moved
        << ",\"bins_released\":" << stats.bins_released
        << ",\"bytes_released\":" << stats.bytes_released << "}";
    compactions_ += out.str();
  }
  std::string StatsJson() {
    const MemoryStats stats = mm_.Stats();
    std::ostringstream out;
    const auto total = stats.Total();
    out << "{\"footprint_bytes\":" << stats.FootprintBytes()
        << ",\"requested_bytes\":" << total.requested_bytes
        << ",\"held_bytes\":" << total.held_bytes
        << ",\"mapped_bytes\":" << total.mapped_bytes
        << ",\"metadata_bytes\":" << total.metadata_bytes
        << ",\"cached_bytes\":" << stats.cached_bytes << ",\"superbins\":[";
    for (size_t i = 0; i < stats.superbins.size(); ++i) {
      const auto& s = stats.superbins[i];
      out << (i ? "," : "") << "{\"id\":" << i
          << ",\"chunks_in_use\":" << s.chunks_in_use
          << ",\"chunks_free\":" << s.chunks_free
          << ",\"requested_bytes\":" << s.requested_bytes
          << ",\"held_bytes\":" << s.held_bytes
          << ",\"mapped_bytes\":" << s.mapped_bytes
          << ",\"metadata_bytes\":" << s.metadata_bytes << "}";
    }
    out << "],\"compactions\":[" << compactions_ << "]}";
    return out.str();
  }

 private:
  const bool compact_;
  const double max_occupancy_;
  uint64_t n_ = 0;
  std::string compactions_;
  MemoryManager mm_;
  std::unique_ptr<MappedArray<uint8_t>> handles_;
};

}  // namespace

uint64_t CurrentRss() { return StatusField("VmRSS:"); }
uint64_t PeakRss() { return StatusField("VmHWM:"); }

WorkloadResult RunMalloc(const WorkloadOptions& options) {
  MallocOps ops;
  return Run(options, ops);
}

WorkloadResult RunHyperion(const WorkloadOptions& options, bool compact) {
  HyperionOps ops(compact, options.compact_max_occupancy);
  return Run(options, ops);
}

}  // namespace mmbench
