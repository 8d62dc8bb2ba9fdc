// CRC-32C (Castagnoli), the checksum of every log and checkpoint record.
//
// The arithmetic comes from Intel's ISA-L (Debian's libisal-dev), which picks
// the SSE4.2 crc32 instruction when the CPU has it. Crc32c("123456789") is
// 0xE3069283, the standard check value.

#ifndef KVLAB_DURABLE_CRC32C_H_
#define KVLAB_DURABLE_CRC32C_H_

#include <cstdint>
#include <string_view>

namespace kvlab::durable {

// The CRC-32C of `data`.
uint32_t Crc32c(std::string_view data);

// The CRC-32C of A+B given `crc` = Crc32c(A) and `data` = B, so a checksum
// can be computed over pieces that are not contiguous in memory.
uint32_t Crc32cExtend(uint32_t crc, std::string_view data);

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_CRC32C_H_
