// CopyShort: every length and alignment up to its limit, against memcpy,
// with guard bytes around the destination.

#include "short_copy.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace kvlab::stage5::hyperion {
namespace {

TEST(CopyShort, CopiesEveryLengthAtEveryAlignmentAndNothingElse) {
  uint8_t src[64];
  for (size_t i = 0; i < sizeof(src); ++i) src[i] = uint8_t(0x80 + 7 * i);
  for (size_t n = 0; n <= kMaxShortCopy; ++n) {
    for (size_t from = 0; from < 8; ++from) {
      for (size_t to = 0; to < 8; ++to) {
        char dst[64];
        std::memset(dst, '#', sizeof(dst));
        CopyShort(dst + 8 + to, src + from, n);
        char want[64];
        std::memset(want, '#', sizeof(want));
        std::memcpy(want + 8 + to, src + from, n);
        ASSERT_EQ(std::string(dst, sizeof(dst)),
                  std::string(want, sizeof(want)))
            << "n=" << n << " from=" << from << " to=" << to;
      }
    }
  }
}

TEST(CopyShort, ReadsNoByteOutsideTheSource) {
  // The source ends where a heap block ends: ASan reports a read past it.
  for (size_t n = 1; n <= kMaxShortCopy; ++n) {
    std::string bytes(n, 'x');
    bytes.back() = 'y';
    auto* src = new uint8_t[n];
    std::memcpy(src, bytes.data(), n);
    char dst[kMaxShortCopy];
    CopyShort(dst, src, n);
    delete[] src;
    EXPECT_EQ(std::string(dst, n), bytes) << "n=" << n;
  }
}

}  // namespace
}  // namespace kvlab::stage5::hyperion
