// Random operations against a std::map oracle with fixed seeds, every
// invariant checked after each operation; small leaves so that splits and
// merges happen all the time.

#include "kvlab/testing/differential.h"

#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/stage4/wormhole_stores.h"
#include "kvlab/testing/test_scale.h"

namespace kvlab {
namespace {

using testing::DifferentialOptions;
using testing::RunDifferential;
using testing::Scaled;

class WormholeDifferentialTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<KVStore> Make() {
    StoreRegistry registry;
    RegisterStage4WormholeStores(&registry);
    absl::StatusOr<std::unique_ptr<KVStore>> store = registry.Make(GetParam());
    EXPECT_TRUE(store.ok()) << store.status();
    return std::move(*store);
  }
  static void Check(const KVStore& s) {
    absl::Status status =
        static_cast<const WormholeStore&>(s).CheckInvariants();
    ASSERT_TRUE(status.ok()) << status;
  }
};

TEST_P(WormholeDifferentialTest, InvariantsHoldAfterEveryOperation) {
  std::unique_ptr<KVStore> store = Make();
  DifferentialOptions options;
  options.seed = 31;
  options.operations = Scaled(6'000, 300);
  options.key_pool = 300;
  options.max_key_length = 24;
  options.after_each_operation = Check;
  RunDifferential(store.get(), options);
}

// Long keys sharing long prefixes: long anchors, deep binary searches.
TEST_P(WormholeDifferentialTest, LongSharedPrefixes) {
  std::unique_ptr<KVStore> store = Make();
  DifferentialOptions options;
  options.seed = 47;
  options.operations = Scaled(3'000, 200);
  options.key_pool = 150;
  options.max_key_length = 300;
  options.max_value_length = 600;
  // Every 10th operation: the check's cost grows with the anchors' length.
  options.after_each_operation = [n = 0](const KVStore& s) mutable {
    if (++n % 10 == 0) Check(s);
  };
  RunDifferential(store.get(), options);
}

// Many operations, invariants checked at the end only.
TEST_P(WormholeDifferentialTest, LargeRun) {
  std::unique_ptr<KVStore> store = Make();
  DifferentialOptions options;
  options.seed = 5;
  options.operations = Scaled(100'000, 5'000);
  options.key_pool = 5'000;
  RunDifferential(store.get(), options);
  Check(*store);
}

INSTANTIATE_TEST_SUITE_P(Variants, WormholeDifferentialTest,
                         ::testing::Values("wormhole", "wormhole:leaf=4",
                                           "wormhole:leaf=5",
                                           "wormhole:leaf=32"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == ':' || c == '=') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace kvlab
