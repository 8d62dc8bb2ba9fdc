// The conformance suite every store passes. A stage instantiates it for its
// stores with one line per store:
//
//   using kvlab::testing::KVStoreConformanceTest;  // the macro needs a bare
//   name INSTANTIATE_TEST_SUITE_P(
//       Stage1, KVStoreConformanceTest,
//       ::testing::ValuesIn(kvlab::testing::ConformanceCases(
//           kvlab::RegisterStage1Stores, {"bst", "avl"})),
//       kvlab::testing::ConformanceCaseName);

#ifndef KVLAB_TESTING_CONFORMANCE_H_
#define KVLAB_TESTING_CONFORMANCE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kvlab/kv_store.h"
#include "kvlab/registry.h"

namespace kvlab::testing {

struct ConformanceCase {
  std::string spec;  // "avl", "btree:order=4"
  std::function<std::unique_ptr<KVStore>()> make;
  // StoreInfo::ordered: false skips the tests of key order (GetNth,
  // DeleteNth, Scan) and checks that those answer false / 0 instead.
  bool ordered = true;
  // StoreInfo::linear_nth: GetNth walks the pairs, so the differential runs
  // do fewer operations (each GetNth/DeleteNth costs O(n)).
  bool linear_nth = false;
};

// Prints the spec, so gtest names the failing store.
void PrintTo(const ConformanceCase& test_case, std::ostream* os);

// Cases for `specs`, built from a registry filled by `register_stores`.
// Aborts if a spec names no registered store or an option it does not take;
// a spec whose option values are refused aborts each test that builds it.
// Either way a broken instantiation cannot pass.
std::vector<ConformanceCase> ConformanceCases(
    void (*register_stores)(StoreRegistry*),
    const std::vector<std::string>& specs);

// A gtest-safe name for a case: "btree:order=4" becomes "btree_order_4".
std::string ConformanceCaseName(
    const ::testing::TestParamInfo<ConformanceCase>& info);

class KVStoreConformanceTest
    : public ::testing::TestWithParam<ConformanceCase> {
 protected:
  void SetUp() override { store_ = GetParam().make(); }
  std::unique_ptr<KVStore> store_;
};

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_CONFORMANCE_H_
