// The shared conformance suite, run against every trie that accepts all
// bytes. trie_array:alphabet=letters refuses most of the suite's keys by
// design; trie_store_test.cc covers it.

#include "kvlab/testing/conformance.h"

#include "kvlab/stage3/stores.h"

namespace kvlab {
namespace {

using testing::KVStoreConformanceTest;

INSTANTIATE_TEST_SUITE_P(Stage3, KVStoreConformanceTest,
                         ::testing::ValuesIn(testing::ConformanceCases(
                             RegisterStage3Stores,
                             {"trie_array", "trie_list", "trie_bst"})),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
