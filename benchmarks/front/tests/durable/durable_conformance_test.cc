// The shared conformance suite, run against durable stores over two inner
// stores, each in a fresh directory (removed when the tests end). Under
// sync=none: with a sync per write the suite's hundred thousand writes take
// minutes; the policies are the fault-injection tests' subject.

#include <unistd.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/conformance.h"

namespace kvlab {
namespace {

using testing::ConformanceCase;
using testing::KVStoreConformanceTest;

const std::string& Root() {
  static const std::string* const root = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "kvlab-conformance-XXXXXX")
            .string();
    return new std::string(::mkdtemp(pattern.data()));
  }();
  return *root;
}

class RemoveRoot : public ::testing::Environment {
 public:
  void TearDown() override { std::filesystem::remove_all(Root()); }
};
const auto* const kRemoveRoot =
    ::testing::AddGlobalTestEnvironment(new RemoveRoot);

ConformanceCase Durable(const std::string& inner, const std::string& sync) {
  ConformanceCase test_case;
  test_case.spec = absl::StrCat("durable:store=", inner, ":sync=", sync);
  test_case.linear_nth = inner == "std_map";
  test_case.make = [inner, sync]() -> std::unique_ptr<KVStore> {
    static int next = 0;
    const std::string spec =
        absl::StrCat("durable:dir=", Root(), "/", next++, ":store=", inner,
                     ":sync=", sync, ":log_files=3:log_file_mb=1");
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    if (!store.ok()) {
      ADD_FAILURE() << store.status();
      std::abort();
    }
    return *std::move(store);
  };
  return test_case;
}

INSTANTIATE_TEST_SUITE_P(Durable, KVStoreConformanceTest,
                         ::testing::Values(Durable("btree", "none"),
                                           Durable("hyperion", "none")),
                         testing::ConformanceCaseName);

}  // namespace
}  // namespace kvlab
