#include "kvlab/testing/test_scale.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/numbers.h"

namespace kvlab::testing {

double TestScale() {
  static const double scale = [] {
    const char* text = std::getenv("KVLAB_TEST_SCALE");
    double value = 1.0;
    if (text == nullptr || !absl::SimpleAtod(text, &value) || value <= 0) {
      return 1.0;
    }
    return std::min(value, 1.0);
  }();
  return scale;
}

uint64_t Scaled(uint64_t full_size, uint64_t minimum) {
  return std::max(minimum, static_cast<uint64_t>(full_size * TestScale()));
}

}  // namespace kvlab::testing
