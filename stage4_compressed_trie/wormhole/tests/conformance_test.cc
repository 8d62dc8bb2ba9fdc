// The shared conformance suite, run against wormhole with the default
// leaves and with tiny ones (many splits and merges).

#include "kvlab/testing/conformance.h"

#include "kvlab/stage4/wormhole_stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Wormhole, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterStage4WormholeStores,
                             {"wormhole", "wormhole:leaf=4",
                              "wormhole:leaf=16"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
