// The shared conformance suite, run against every benchmark peer. The two
// hash maps are unordered: the suite skips its tests of key order for them
// and checks that GetNth, DeleteNth and Scan answer false / 0 instead.

#include "kvlab/testing/conformance.h"

#include "kvlab/peers/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Peers, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterBenchmarkPeers,
                             {"std_unordered_map", "absl_flat_hash_map", "judy",
                              "judyl", "hattrie"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
