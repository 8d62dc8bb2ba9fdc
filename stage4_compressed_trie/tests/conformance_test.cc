// The shared conformance suite, run against every ctrie variant.

#include "kvlab/testing/conformance.h"

#include "kvlab/stage4/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(
    Stage4, KVStoreConformanceTest,
    ::testing::ValuesIn(testing::ConformanceCases(
        RegisterStage4Stores,
        {"ctrie", "ctrie:compress=suffix", "ctrie:alloc=malloc",
         "ctrie:lock=global", "ctrie:lock=node", "ctrie:lock=none",
         "ctrie:compress=suffix:alloc=malloc:lock=node:find=binary"})),
    testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
