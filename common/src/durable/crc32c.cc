#include "durable/crc32c.h"

#include <isa-l/crc.h>

#include <climits>

namespace kvlab::durable {

uint32_t Crc32cExtend(uint32_t crc, std::string_view data) {
  // ISA-L's crc32_iscsi neither inverts its input nor its result; the
  // standard CRC-32C does both, so the state is kept inverted between calls.
  uint32_t state = ~crc;
  while (!data.empty()) {
    const size_t n = data.size() > INT_MAX ? INT_MAX : data.size();
    state = crc32_iscsi(
        reinterpret_cast<unsigned char*>(const_cast<char*>(data.data())),
        static_cast<int>(n), state);
    data.remove_prefix(n);
  }
  return ~state;
}

uint32_t Crc32c(std::string_view data) { return Crc32cExtend(0, data); }

}  // namespace kvlab::durable
