// The shared conformance suite, run against the B-tree at the smallest
// orders (where every operation restructures), the default (256), order 32,
// and each non-default slot layout and overflow policy.

#include "kvlab/testing/conformance.h"

#include "kvlab/stage2/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Stage2, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterStage2Stores,
                             {"btree", "btree:order=4", "btree:order=6",
                              "btree:order=32", "btree:order=8:keys=pointer",
                              "btree:order=4:overflow=split"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
