// Small helpers shared by the stage-1 tests.

#ifndef KVLAB_STAGE1_TESTS_STAGE1_TEST_UTIL_H_
#define KVLAB_STAGE1_TESTS_STAGE1_TEST_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "kvlab/kv_store.h"

namespace kvlab::stage1_testing {

// Puts each key, in order, with an empty value.
inline void PutKeys(KVStore* store,
                    std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    absl::StatusOr<bool> replaced = store->Put(key, "");
    ASSERT_TRUE(replaced.ok()) << replaced.status();
  }
}

// "k00000042": fixed width, so byte order is numeric order.
inline std::string NumberedKey(uint64_t i) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "k%08llu",
                static_cast<unsigned long long>(i));
  return buffer;
}

}  // namespace kvlab::stage1_testing

#endif  // KVLAB_STAGE1_TESTS_STAGE1_TEST_UTIL_H_
