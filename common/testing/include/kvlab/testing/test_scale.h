// Scaling of test sizes, so slow tools (valgrind) can run the same tests
// smaller. KVLAB_TEST_SCALE=0.05 makes every scaled size 5% as large.

#ifndef KVLAB_TESTING_TEST_SCALE_H_
#define KVLAB_TESTING_TEST_SCALE_H_

#include <cstdint>

namespace kvlab::testing {

// The factor from KVLAB_TEST_SCALE, default 1.0, clamped to (0, 1].
double TestScale();

// `full_size` times TestScale(), but at least `minimum`.
uint64_t Scaled(uint64_t full_size, uint64_t minimum = 1);

}  // namespace kvlab::testing

#endif  // KVLAB_TESTING_TEST_SCALE_H_
