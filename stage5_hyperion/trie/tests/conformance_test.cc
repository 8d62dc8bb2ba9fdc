// The shared conformance suite, run against hyperion and its option
// variants: a tiny ejection budget, every value out of line with the
// largest budget, ..., key pre-processing, and split into arenas.

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
         "hyperion:preprocess=1:embed=16:split_above=64",
         // Arenas: every count; each lock with a few (the lock does not
         // depend on the count, and each case costs seconds in Debug).
         "hyperion:arenas=1", "hyperion:arenas=2", "hyperion:arenas=3",
         "hyperion:arenas=16", "hyperion:arenas=256",
         "hyperion:arenas=1:lock=rw", "hyperion:arenas=3:lock=rw",
         "hyperion:arenas=256:lock=rw", "hyperion:arenas=2:lock=mutex",
         "hyperion:arenas=16:lock=mutex", "hyperion:arenas=1:lock=leftright",
         "hyperion:arenas=16:lock=leftright",
         // Arenas over pre-processed tries (byte 0 keeps its place).
         "hyperion:arenas=3:preprocess=1",
         // Balanced partition: its repartitions start at a few keys per
         // arena, so the suite's stores go through several.
         "hyperion:arenas=2:partition=balanced",
         "hyperion:arenas=16:partition=balanced",
         "hyperion:arenas=3:lock=rw:partition=balanced"})),
    testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
