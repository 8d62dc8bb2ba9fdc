// A registry of store kinds, built by name from a spec string.
//
// Each stage exposes one function that adds its stores to a registry
// (RegisterStage1Stores, ...). kvlab.h (benchmarks/front/, above the stages)
// gathers every stage into the built-in registry behind MakeStore(); tests
// of a single stage build their own registry from that stage alone.

#ifndef KVLAB_REGISTRY_H_
#define KVLAB_REGISTRY_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/store_options.h"

namespace kvlab {

// One option a store accepts, for validation and for help texts.
struct OptionInfo {
  std::string name;
  std::string help;  // e.g. "node order, 3..1024 (default 16)"
};

// How a store behaves on the benchmark driver's adversarial cases, so that
// the driver can skip runs predicted to take far too long.
enum class SortedInputCost {
  kLogarithmic,  // balanced: sorted input is as cheap as random input
  kQuadratic,    // unbalanced tree: sorted input degrades it to a list
};

struct StoreInfo {
  std::string name;         // "avl"
  std::string description;  // one line for listings
  std::string origin;       // "stage1", "peer", ...
  std::vector<OptionInfo> options;
  bool ordered = true;  // GetNth/DeleteNth/Scan are meaningful
  // GetNth walks the pairs in order, O(n) per call (std_map, a peer).
  bool linear_nth = false;
  SortedInputCost sorted_input_cost = SortedInputCost::kLogarithmic;
  // False for a store that cannot keep the out-of-memory contract of
  // kv_store.h (a peer library that exits or crashes when malloc fails);
  // `description` then says so, and the allocation-failure tests skip it.
  bool survives_allocation_failure = true;
  // True for a store that keeps its pairs in files, in the directory its
  // `dir` option names (ect): a driver gives each run a fresh directory
  // rather than letting runs share one.
  bool keeps_files = false;
  // Builds a store from options whose names are already known to be in
  // `options`; the factory still validates their values.
  std::function<absl::StatusOr<std::unique_ptr<KVStore>>(const StoreOptions&)>
      factory;
};

class StoreRegistry {
 public:
  StoreRegistry() = default;
  StoreRegistry(const StoreRegistry&) = delete;
  StoreRegistry& operator=(const StoreRegistry&) = delete;

  // Adds a store kind. Its name must be new.
  void Add(StoreInfo info);

  // Builds the store a spec names ("avl", "btree:order=32"). Unknown names
  // or options give InvalidArgument listing what exists.
  absl::StatusOr<std::unique_ptr<KVStore>> Make(std::string_view spec) const;

  // The registered store kind called `name`, or null.
  const StoreInfo* Find(std::string_view name) const;

  // All store kinds, in registration order.
  const std::vector<StoreInfo>& stores() const { return stores_; }

  // Registered names, comma-separated, for error messages.
  std::string NameList() const;

 private:
  std::vector<StoreInfo> stores_;
};

}  // namespace kvlab

#endif  // KVLAB_REGISTRY_H_
