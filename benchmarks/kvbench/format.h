// Small text formatting shared by the report and the data set notes.

#ifndef KVBENCH_FORMAT_H_
#define KVBENCH_FORMAT_H_

#include <cstdint>
#include <string>

namespace kvbench {

// Thousands separators: 1234567 -> "1,234,567".
std::string WithCommas(uint64_t value);

}  // namespace kvbench

#endif  // KVBENCH_FORMAT_H_
