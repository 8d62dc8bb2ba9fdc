// The Slices the course API hands back: caller-owned copies on success, the
// static empty Slice on every failure, out-of-memory included.

#include "course_output.h"

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace kvlab::course_output {
namespace {

// An allocator that succeeds `allocations_left` more times, then fails.
int allocations_left = 0;
void* LimitedMalloc(size_t bytes) {
  if (allocations_left == 0) return nullptr;
  --allocations_left;
  return std::malloc(bytes);
}

// What a harness's uninitialised Slice may hold.
Slice Garbage() {
  static char byte = 'g';
  return Slice{200, &byte};
}

std::string Take(Slice& slice) {
  std::string bytes(slice.data, slice.size);
  std::free(slice.data);
  return bytes;
}

TEST(CourseOutputTest, EmptyIsReadableAndEqualEachTime) {
  Slice a = Garbage(), b = Garbage();
  SetEmpty(a);
  SetEmpty(b);
  EXPECT_TRUE(IsEmpty(a));
  EXPECT_EQ(a.size, 0);
  ASSERT_NE(a.data, nullptr);
  EXPECT_EQ(a.data, b.data);
  EXPECT_EQ(std::string(a.data, 1), std::string(1, '\0'));
}

TEST(CourseOutputTest, CopyOutGivesTheCallerACopy) {
  Slice out = Garbage();
  std::string bytes("a\0b", 3);
  ASSERT_TRUE(CopyOut(bytes, out, std::malloc));
  EXPECT_NE(out.data, bytes.data());
  EXPECT_EQ(Take(out), bytes);
  ASSERT_TRUE(CopyOut("", out, std::malloc));
  EXPECT_FALSE(IsEmpty(out));  // the caller's own buffer, to be freed
  EXPECT_NE(out.data, nullptr);
  EXPECT_EQ(Take(out), "");
  ASSERT_TRUE(CopyOut(std::string(255, 'x'), out, std::malloc));
  EXPECT_EQ(Take(out), std::string(255, 'x'));
}

TEST(CourseOutputTest, CopyOutOfTooManyBytesLeavesEmpty) {
  Slice out = Garbage();
  EXPECT_FALSE(CopyOut(std::string(256, 'x'), out, std::malloc));
  EXPECT_TRUE(IsEmpty(out));
}

TEST(CourseOutputTest, CopyOutWithoutMemoryLeavesEmpty) {
  allocations_left = 0;
  Slice out = Garbage();
  EXPECT_FALSE(CopyOut("value", out, LimitedMalloc));
  EXPECT_TRUE(IsEmpty(out));
}

TEST(CourseOutputTest, CopyOutPairIsBothOrNeither) {
  for (int allowed : {0, 1}) {
    allocations_left = allowed;
    Slice key = Garbage(), value = Garbage();
    // With one allocation the key's copy succeeds and must be given back.
    EXPECT_FALSE(CopyOutPair("key", "value", key, value, LimitedMalloc));
    EXPECT_TRUE(IsEmpty(key)) << allowed;
    EXPECT_TRUE(IsEmpty(value)) << allowed;
  }
  Slice key = Garbage(), value = Garbage();
  EXPECT_FALSE(
      CopyOutPair("key", std::string(256, 'v'), key, value, std::malloc));
  EXPECT_TRUE(IsEmpty(key));
  EXPECT_TRUE(IsEmpty(value));
  EXPECT_FALSE(
      CopyOutPair(std::string(256, 'k'), "value", key, value, std::malloc));
  EXPECT_TRUE(IsEmpty(key));
  EXPECT_TRUE(IsEmpty(value));
  allocations_left = 2;
  ASSERT_TRUE(CopyOutPair("key", "value", key, value, LimitedMalloc));
  EXPECT_EQ(Take(key), "key");
  EXPECT_EQ(Take(value), "value");
}

}  // namespace
}  // namespace kvlab::course_output
