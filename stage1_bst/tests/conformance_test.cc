// The shared conformance suite, run against both stage-1 stores.

#include "kvlab/testing/conformance.h"

#include "kvlab/stage1/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Stage1, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterStage1Stores, {"bst", "avl"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
