// The size classes of the stage-5 memory manager.
//
// Superbin i in 1..63 serves chunks of exactly 32*i bytes, so a request of
// s <= 2016 bytes lands in superbin ceil(s/32) and wastes under 32 bytes.
// Larger requests go to superbin 0: a 16-byte extended record in a bin plus
// a heap block from the C library. Up to 8 KiB it grows in 32-byte steps
// like a chunk; beyond, in the paper's coarse steps (section 3.2):
// multiples of 1 KiB up to 16 KiB, of 4 KiB beyond, so a container growing
// by 32 bytes at a time reallocates its block once every 32 or 128
// growths. The paper grows blocks up to 8 KiB in 256-byte steps to spare
// the heap's fragmentation; with glibc's malloc the 32-byte steps leave
// less of it: at 10M random integers, whose containers are 2-3 KB blocks,
// the process holds 19.6 B/key against 22.6
// (docs/experiments/stage5_hyperion_memory.md, "Heap blocks in 32-byte
// steps").

#ifndef KVLAB_STAGE5_SIZE_CLASSES_H_
#define KVLAB_STAGE5_SIZE_CLASSES_H_

#include <cstddef>
#include <cstdint>

namespace kvlab::stage5 {

inline constexpr int kSuperbins = 64;
inline constexpr size_t kSizeStep = 32;
// The largest request a chunk of superbins 1..63 serves.
inline constexpr size_t kMaxSmallSize = kSizeStep * (kSuperbins - 1);  // 2016
// The largest request superbin 0 serves (its record keeps a 32-bit size).
inline constexpr size_t kMaxAllocation = 0xffffffffu;
inline constexpr size_t kChunksPerBin = 4096;
inline constexpr size_t kBinsPerMetabin = 256;
inline constexpr size_t kMaxMetabins = size_t{1} << 14;
// Superbin 0's chunks are extended records.
inline constexpr size_t kExtendedRecordSize = 16;

// The superbin serving a request of `size` bytes (1..kMaxAllocation).
constexpr uint32_t SuperbinForSize(size_t size) {
  return size > kMaxSmallSize ? 0
                              : uint32_t((size + kSizeStep - 1) / kSizeStep);
}

// The chunk size of `superbin`: 32*i, or the record size for superbin 0.
constexpr size_t ChunkSize(uint32_t superbin) {
  return superbin == 0 ? kExtendedRecordSize : kSizeStep * superbin;
}

// The growth step of an extended heap block holding `size` bytes.
constexpr size_t ExtendedStep(size_t size) {
  if (size <= 8 * 1024) return kSizeStep;
  if (size <= 16 * 1024) return 1024;
  return 4096;
}

// The heap block size an extended allocation of `size` bytes holds: `size`
// rounded up to its step.
constexpr size_t ExtendedHeldSize(size_t size) {
  const size_t step = ExtendedStep(size);
  return (size + step - 1) / step * step;
}

// The heap block size of an exact-fit extended allocation (Fit::kExact):
// `size` rounded up to 32 bytes only.
constexpr size_t ExactHeldSize(size_t size) {
  return (size + kSizeStep - 1) / kSizeStep * kSizeStep;
}

// The heap block size after resizing a block that holds `held` bytes to
// `size` bytes (0 frees it): in place while `size` fits and `held` is no
// more than the step-rounded size would be (so an exact-fit block that
// shrinks stays where it is), else `size` rounded up to its step.
constexpr size_t HeldSizeAfterResize(size_t held, size_t size) {
  if (size == 0) return 0;
  const size_t rounded = ExtendedHeldSize(size);
  return size <= held && held <= rounded ? held : rounded;
}

// How much room an allocation past kMaxSmallSize bytes gets.
enum class Fit {
  kRoomToGrow,  // its step's over-allocation (ExtendedHeldSize)
  kExact,       // 32-byte rounding only (ExactHeldSize); its first growth
                // moves it to an ordinary block
};

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_SIZE_CLASSES_H_
