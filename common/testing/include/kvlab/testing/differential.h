// Differential testing: random operations applied to a store and to a
// std::map oracle, every answer compared.

#ifndef KVLAB_TESTING_DIFFERENTIAL_H_
#define KVLAB_TESTING_DIFFERENTIAL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "kvlab/kv_store.h"

namespace kvlab::testing {

using Oracle = std::map<std::string, std::string>;

struct DifferentialOptions {
  uint64_t seed = 1;
  uint64_t operations = 200'000;
  size_t key_pool = 2'000;     // distinct keys the operations revisit
  size_t max_key_length = 80;  // pooled keys; fresh keys are shorter
  size_t max_value_length = 64;
  // False for an unordered store (StoreInfo::ordered): GetNth, DeleteNth
  // and Scan must then answer false / 0, the final check is by Get, and the
  // store must start empty.
  bool ordered = true;
  // Called after every operation, e.g. to check a store's invariants.
  std::function<void(const KVStore&)> after_each_operation;
};

// Runs `options.operations` random operations of all six kinds (Put, Get,
// Delete, GetNth, DeleteNth, Scan) on `store` and on an oracle that starts
// with `store`'s current content, failing (gtest assertions) on the first
// difference, with the operation and both answers in the message. Checks
// Size() after every operation and compares the full content at the end.
void RunDifferential(KVStore* store, const DifferentialOptions& options);

// Every pair of `store`, by a full Scan from "".
Oracle Contents(const KVStore& store);

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_DIFFERENTIAL_H_
