// The durable wrapper as the front door builds it: by spec, through
// MakeStore and the course API's KVLAB_STORE, over stores of every stage.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kvlab/course.h"
#include "kvlab/durable_store.h"
#include "kvlab/kvlab.h"
#include "kvlab/testing/temp_dir.h"

namespace kvlab {
namespace {

using testing::TempDir;

TEST(DurableStoreTest, SpecBuildsAnyStoreWithInnerOptions) {
  TempDir dir;
  const std::string spec =
      absl::StrCat("durable:dir=", dir.path(),
                   ":store=btree:inner.order=4:sync=none:log_file_mb=1");
  {
    absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_TRUE((*store)->IsThreadSafe());
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE((*store)->Put(absl::StrCat(i), "x").ok());
    }
  }
  absl::StatusOr<std::unique_ptr<KVStore>> store = MakeStore(spec);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ((*store)->Size(), 100u);
  const auto& durable = static_cast<const DurableStore&>(**store);
  EXPECT_EQ(durable.inner().Name(), "btree");

  for (const std::string& bad :
       {absl::StrCat("durable:store=btree"),
        absl::StrCat("durable:dir=", dir.path()),
        absl::StrCat("durable:dir=", dir.path(), ":store=btree:sync=always"),
        absl::StrCat("durable:dir=", dir.path(), ":store=btree:inner.order=1"),
        absl::StrCat("durable:dir=", dir.path(), ":store=nosuch"),
        absl::StrCat("durable:dir=", dir.path(), ":store=btree:colour=red")}) {
    absl::StatusOr<std::unique_ptr<KVStore>> made = MakeStore(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(made.status())) << bad;
  }
}

TEST(DurableStoreTest, CourseApiTakesADurableSpecFromTheEnvironment) {
  TempDir dir;
  const std::string spec =
      absl::StrCat("durable:dir=", dir.path(), ":store=avl:sync=every");
  ASSERT_EQ(::setenv("KVLAB_STORE", spec.c_str(), 1), 0);
  char key_bytes[] = "course-key";
  char value_bytes[] = "course-value";
  Slice key{static_cast<uint8_t>(sizeof(key_bytes) - 1), key_bytes};
  Slice value{static_cast<uint8_t>(sizeof(value_bytes) - 1), value_bytes};
  {
    kvStore store(100);
    EXPECT_FALSE(store.put(key, value));
  }
  {
    kvStore store(100);
    Slice found{0, nullptr};
    EXPECT_TRUE(store.get(key, found));
    EXPECT_EQ(std::string(found.data, found.size), "course-value");
    std::free(found.data);
  }
  ::unsetenv("KVLAB_STORE");
}

}  // namespace
}  // namespace kvlab
