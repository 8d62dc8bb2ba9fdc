// NotImplemented: what a handout's stub does (docs/teaching.md).

#include "kvlab/not_implemented.h"

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gtest/gtest.h"

namespace kvlab {
namespace {

// A stub as the handout generator writes it: a non-void function whose
// parameters are all handed to NotImplemented and that has no return.
int Stubbed(std::string_view key, const std::string& value, int* out) {
  kvlab::NotImplemented("Stubbed", "docs/teaching.md#what-students-receive",
                        key, value, out);
}

TEST(NotImplementedTest, ThrowsNamingTheFunctionAndTheDocs) {
  int out = 0;
  try {
    Stubbed("k", "v", &out);
    FAIL() << "the stub returned";
  } catch (const NotImplementedError& e) {
    EXPECT_EQ(e.function(), "Stubbed");
    EXPECT_EQ(e.docs(), "docs/teaching.md#what-students-receive");
    EXPECT_STREQ(e.what(),
                 "Stubbed is not written yet: read "
                 "docs/teaching.md#what-students-receive");
  }
  EXPECT_EQ(out, 0);
}

// GoogleTest reports a std::exception escaping a test with its what(), so
// the error must be one (and not one the stores treat as out of memory).
TEST(NotImplementedTest, IsALogicErrorNotBadAlloc) {
  EXPECT_THROW(ThrowNotImplemented("f", "docs"), std::logic_error);
  bool caught_as_bad_alloc = false;
  try {
    ThrowNotImplemented("f", "docs");
  } catch (const std::bad_alloc&) {
    caught_as_bad_alloc = true;
  } catch (const std::exception&) {
  }
  EXPECT_FALSE(caught_as_bad_alloc);
}

}  // namespace
}  // namespace kvlab
