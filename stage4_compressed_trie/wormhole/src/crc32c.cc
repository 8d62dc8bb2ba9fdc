#include "crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__) && !defined(KVLAB_NO_SIMD)
#include <nmmintrin.h>
#define KVLAB_WORMHOLE_CRC_HW 1
#endif

namespace kvlab::stage4::wormhole {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78;  // CRC-32C, bit-reversed

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ ((c & 1) ? kPolynomial : 0);
    table[i] = c;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = MakeTable();

#ifdef KVLAB_WORMHOLE_CRC_HW
__attribute__((target("sse4.2"))) uint32_t ExtendHardware(uint32_t crc,
                                                          const char* data,
                                                          size_t n) {
  uint64_t state = ~crc;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    state = _mm_crc32_u64(state, word);
    data += 8;
    n -= 8;
  }
  uint32_t s = static_cast<uint32_t>(state);
  while (n > 0) {
    s = _mm_crc32_u8(s, static_cast<uint8_t>(*data++));
    --n;
  }
  return ~s;
}

const bool kHardware = __builtin_cpu_supports("sse4.2");
#else
const bool kHardware = false;
#endif

}  // namespace

uint32_t Crc32cExtendPortable(uint32_t crc, const char* data, size_t n) {
  uint32_t s = ~crc;
  for (size_t i = 0; i < n; ++i) {
    s = (s >> 8) ^ kTable[(s ^ static_cast<uint8_t>(data[i])) & 0xff];
  }
  return ~s;
}

uint32_t Crc32cExtend(uint32_t crc, const char* data, size_t n) {
#ifdef KVLAB_WORMHOLE_CRC_HW
  if (kHardware) return ExtendHardware(crc, data, n);
#endif
  return Crc32cExtendPortable(crc, data, n);
}

bool Crc32cUsesHardware() { return kHardware; }

}  // namespace kvlab::stage4::wormhole
