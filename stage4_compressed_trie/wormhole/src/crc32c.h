// CRC-32C (Castagnoli) for hashing keys and key prefixes in the wormhole
// room: the MetaTrieHT's table hashes every prefix it probes, and a leaf
// tags each key with 16 bits of its key's hash.
//
// The hash of a prefix extends the hash of a shorter one, so the binary
// search over prefix lengths pays for each byte once (Crc32cExtend). On
// x86-64 CPUs with SSE4.2 the crc32 instruction does the work, eight bytes
// at a time; elsewhere a 256-entry table does, a byte at a time. Both give
// the standard CRC-32C: Crc32c("123456789") is 0xE3069283.

#ifndef KVLAB_STAGE4_WORMHOLE_SRC_CRC32C_H_
#define KVLAB_STAGE4_WORMHOLE_SRC_CRC32C_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kvlab::stage4::wormhole {

// The CRC-32C of A+B given `crc` = the CRC-32C of A and B = data[0, n).
uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n);

// The same, always by the table (the path CPUs without SSE4.2 take).
uint32_t Crc32cExtendPortable(uint32_t crc, const char* data, size_t n);

// True if Crc32cExtend uses the CPU's crc32 instruction.
bool Crc32cUsesHardware();

inline uint32_t Crc32c(std::string_view s) {
  return Crc32cExtend(0, s.data(), s.size());
}

}  // namespace kvlab::stage4::wormhole

#endif  // KVLAB_STAGE4_WORMHOLE_SRC_CRC32C_H_
