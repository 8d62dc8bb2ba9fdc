// Random operations against a std::map oracle, with every invariant of the
// trie (counts, compression rule, pool bookkeeping) checked after each one.

#include "kvlab/testing/differential.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "kvlab/stage4/ctrie_store.h"
#include "kvlab/stage4/stores.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::DifferentialOptions;
using testing::RunDifferential;
using testing::Scaled;

class CTrieDifferentialTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<KVStore> Make() {
    StoreRegistry registry;
    RegisterStage4Stores(&registry);
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(GetParam());
    EXPECT_TRUE(store.ok()) << store.status();
    return std::move(*store);
  }
};

TEST_P(CTrieDifferentialTest, InvariantsHoldAfterEveryOperation) {
  std::unique_ptr<KVStore> store = Make();
  DifferentialOptions options;
  options.seed = 11;
  options.operations = Scaled(6'000, 300);
  options.key_pool = 300;
  options.max_key_length = 24;
  options.after_each_operation = [](const KVStore& s) {
    absl::Status status = static_cast<const CTrieStore&>(s).CheckInvariants();
    ASSERT_TRUE(status.ok()) << status;
  };
  RunDifferential(store.get(), options);
}

// Few distinct bytes and long keys: deep chains, many splits and merges.
TEST_P(CTrieDifferentialTest, LongSharedPrefixes) {
  std::unique_ptr<KVStore> store = Make();
  DifferentialOptions options;
  options.seed = 23;
  options.operations = Scaled(3'000, 200);
  options.key_pool = 150;
  options.max_key_length = 300;
  options.max_value_length = 600;
  options.after_each_operation = [](const KVStore& s) {
    absl::Status status = static_cast<const CTrieStore&>(s).CheckInvariants();
    ASSERT_TRUE(status.ok()) << status;
  };
  RunDifferential(store.get(), options);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, CTrieDifferentialTest,
    ::testing::Values("ctrie", "ctrie:compress=suffix", "ctrie:alloc=malloc",
                      "ctrie:lock=global", "ctrie:lock=node",
                      "ctrie:lock=none:find=binary",
                      "ctrie:compress=suffix:lock=node:alloc=malloc"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      std::string name = info.param;
      for (char& c : name) {
        if (c == ':' || c == '=') c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace kvlab
