// CourseApiStore: a course-API class behind the KVStore interface.

#include <memory>

#include "gtest/gtest.h"
#include "kvlab/grade.h"
#include "toy_course_store.h"

namespace kvlab::grade {
namespace {

TEST(CourseApiStoreTest, ForwardsEveryOperationAndCountsSize) {
  CourseApiStore<toy::Store> store("toy", 100, /*free_slices=*/true);
  static_assert(std::is_same_v<CourseApiStore<toy::Store>::SliceT, toy::Slice>);
  EXPECT_EQ(store.Name(), "toy");
  EXPECT_TRUE(store.IsThreadSafe());
  EXPECT_EQ(*store.Put("b", "2"), false);
  EXPECT_EQ(*store.Put("a", std::string("\0one", 4)), false);
  EXPECT_EQ(*store.Put("a", "1"), true);
  EXPECT_EQ(store.Size(), 2u);
  std::string key, value;
  ASSERT_TRUE(store.Get("a", &value));
  EXPECT_EQ(value, "1");
  EXPECT_FALSE(store.Get("c", &value));
  ASSERT_TRUE(store.GetNth(1, &key, &value));
  EXPECT_EQ(key, "b");
  EXPECT_EQ(value, "2");
  EXPECT_FALSE(store.GetNth(2, &key, &value));
  EXPECT_FALSE(store.GetNth(uint64_t{1} << 40, &key, &value));
  EXPECT_TRUE(store.DeleteNth(0));
  EXPECT_FALSE(store.Get("a", nullptr));
  EXPECT_TRUE(store.Delete("b"));
  EXPECT_FALSE(store.Delete("b"));
  EXPECT_EQ(store.Size(), 0u);
  EXPECT_EQ(store.Scan("", [](auto, auto) { return true; }), 0u);
}

TEST(CourseApiStoreTest, RefusesWhatASliceCannotHold) {
  CourseApiStore<toy::Store> store("toy", 100, /*free_slices=*/true);
  EXPECT_FALSE(store.Put(std::string(256, 'k'), "v").ok());
  EXPECT_TRUE(store.Put(std::string(255, 'k'), std::string(255, 'v')).ok());
  EXPECT_THROW((void)store.Put("k", std::string(256, 'v')),
               std::invalid_argument);
  EXPECT_EQ(store.Size(), 1u);
}

}  // namespace
}  // namespace kvlab::grade
