// Split containers (paper, section 3.3, "container split", with kvlab's
// own directory): a container below the root that grows past a threshold
// is cut at a T-node into pieces, each an ordinary container holding the
// T-nodes of one range of key bytes. The parent's pointer child then
// points at a split directory instead of a container:
//
//   [4-byte header: size field 0][pieces n, 2..kMaxPieces][3 zero bytes]
//   n entries of 11 bytes: [first key byte][5-byte pointer][5-byte count]
//
// Entry j's piece holds the T-nodes whose key bytes lie in
// [first key byte of j, first key byte of j+1); entry 0's first key byte
// is 0, so every key byte has exactly one piece. The count is the keys
// below the piece (the parent's pointer child counts them all). A piece's
// first T-node is delta-encoded from 0, like any container's. No real
// container has a size of 0, so a directory is told apart by its header.
//
// The paper instead cuts at multiples of 32 key bytes into up to eight
// pieces reached through eight chained extended pointers; for keys of
// letters that allows two pieces at most (docs/stage5_hyperion.md).

#ifndef KVLAB_STAGE5_SPLIT_H_
#define KVLAB_STAGE5_SPLIT_H_

#include <cstdint>

#include "container_scan.h"
#include "kvlab/stage5/hyperion_pointer.h"
#include "node.h"

namespace kvlab::stage5::hyperion {

inline constexpr uint32_t kSplitHeaderBytes = 8;
inline constexpr uint32_t kSplitEntryBytes =
    1 + HyperionPointer::kBytes + kCountBytes;
inline constexpr uint32_t kMaxPieces = 128;

inline bool IsSplit(const uint8_t* c) { return ContainerSize(c) == 0; }
inline uint32_t SplitDirectoryBytes(uint32_t pieces) {
  return kSplitHeaderBytes + pieces * kSplitEntryBytes;
}
inline uint32_t PieceCount(const uint8_t* d) { return d[4]; }
inline uint32_t PieceEntryPos(uint32_t j) {
  return kSplitHeaderBytes + j * kSplitEntryBytes;
}
inline uint8_t PieceKey(const uint8_t* d, uint32_t j) {
  return d[PieceEntryPos(j)];
}
inline HyperionPointer PiecePointer(const uint8_t* d, uint32_t j) {
  return HyperionPointer::Load(d + PieceEntryPos(j) + 1);
}
inline uint8_t* PieceCountAt(uint8_t* d, uint32_t j) {
  return d + PieceEntryPos(j) + 1 + HyperionPointer::kBytes;
}
inline uint64_t PieceKeys(const uint8_t* d, uint32_t j) {
  return LoadCount(d + PieceEntryPos(j) + 1 + HyperionPointer::kBytes);
}

// The piece whose range holds T-node key byte `t`.
inline uint32_t PieceFor(const uint8_t* d, uint8_t t) {
  uint32_t j = PieceCount(d) - 1;
  while (PieceKey(d, j) > t) --j;  // entry 0's key is 0: stops there
  return j;
}

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_SPLIT_H_
