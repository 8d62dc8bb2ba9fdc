// The shared conformance suite, run against hyperion and its option
// variants: a tiny ejection budget, every value out of line with the
// largest budget, ..., and key pre-processing.

#include "kvlab/testing/conformance.h"

#include "kvlab/stage5/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(
    Stage5, KVStoreConformanceTest,
    ::testing::ValuesIn(testing::ConformanceCases(
        RegisterStage5Stores,
        {"hyperion", "hyperion:embed=16", "hyperion:inline_value=0:embed=255",
         "hyperion:jump_successor=0", "hyperion:jump_successor=256",
         "hyperion:eject_above=64", "hyperion:jump_table=1:jump_table_min=0",
         "hyperion:compact=1:embed=16", "hyperion:split_above=64",
         "hyperion:split_above=64:compact=1:inline_value=0",
         "hyperion:tnode_table=0:tnode_table_keys=0", "hyperion:preprocess=1",
         "hyperion:preprocess=1:embed=16:split_above=64"})),
    testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
