// The shared conformance suite over `ect`: with its default merge threshold
// (the suite's pairs stay in the buffer) and with merges every 256 writes
// (they go through the data file).

#include "kvlab/testing/conformance.h"

#include "kvlab/ect/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Ect, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterEctStores,
                             {"ect:sync=none",
                              "ect:sync=none:merge_pairs=256:bucket_size=16"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
