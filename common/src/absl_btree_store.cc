#include "kvlab/absl_btree_store.h"

#include <new>

namespace kvlab {

NodeReserve::~NodeReserve() { ::operator delete(spare_); }

void NodeReserve::PrepareInsert() {
  if (spare_bytes_ < largest_) {
    void* bigger = ::operator new(largest_);  // may throw: nothing changed
    ::operator delete(spare_);
    spare_ = bigger;
    spare_bytes_ = largest_;
  }
  insert_allocations_ = 0;
}

void* NodeReserve::Allocate(size_t bytes) {
  if (bytes > largest_) largest_ = bytes;
  ++insert_allocations_;
  try {
    return ::operator new(bytes);
  } catch (const std::bad_alloc&) {
    if (insert_allocations_ != 2 || spare_ == nullptr || bytes > spare_bytes_) {
      throw;
    }
    void* block = spare_;
    spare_ = nullptr;
    spare_bytes_ = 0;
    return block;
  }
}

void RegisterAbslBtreeStore(StoreRegistry* registry) {
  registry->Add(StoreInfo{
      .name = "absl_btree",
      .description =
          "absl::btree_map<std::string, std::string>; GetNth walks, O(n)",
      .origin = "peer",
      .options = {},
      .ordered = true,
      .linear_nth = true,
      .sorted_input_cost = SortedInputCost::kLogarithmic,
      .factory =
          [](const StoreOptions&) -> absl::StatusOr<std::unique_ptr<KVStore>> {
        return std::make_unique<AbslBtreeStore>();
      },
  });
}

}  // namespace kvlab
