// The bytes of the store's data file (Entropy-Coded Tries, kvlab's layout).
//
// The file holds the non-empty buckets in bucket order. A bucket is an
// 8-byte header, then one slot per distinct hashkey in hashkey order, all
// slots of a bucket the same size:
//
//   bucket header   slot_bytes (4 bytes), slots (4 bytes), little-endian
//   slot            pairs (2 bytes), then per pair: key length (2 bytes),
//                   value length (2 bytes), key, value; zeros up to
//                   slot_bytes
//
// A slot holds the pairs whose keys share one hashkey (almost always one
// pair), sorted by key. Equal slot sizes within a bucket are what lets a
// lookup go from a key's rank to its bytes with one read and no per-pair
// offsets in memory: slot i starts at bucket start + 8 + i * slot_bytes.
// The price is padding every slot to its bucket's largest.

#ifndef KVLAB_ECT_SLOT_FORMAT_H_
#define KVLAB_ECT_SLOT_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kvlab::ect {

inline constexpr size_t kBucketHeaderBytes = 8;
inline constexpr size_t kSlotHeaderBytes = 2;
inline constexpr size_t kPairHeaderBytes = 4;
// Pairs in one slot: more keys than this sharing one 64-bit hashkey is
// refused (it takes a deliberate attack).
inline constexpr size_t kMaxPairsPerSlot = 0xffff;

using Pair = std::pair<std::string, std::string>;

// The encoded size of a slot holding `pairs` (before padding).
size_t SlotBytes(const std::vector<Pair>& pairs);

// Appends the slot of `pairs` (1 .. kMaxPairsPerSlot, sorted by key, each
// within kvlab's key and value limits), padded with zeros to `slot_bytes`
// (>= SlotBytes(pairs)).
void AppendSlot(const std::vector<Pair>& pairs, size_t slot_bytes,
                std::string* out);

void AppendBucketHeader(uint32_t slot_bytes, uint32_t slots, std::string* out);
// Reads a bucket header; InvalidArgument if `bytes` is shorter than one.
absl::Status ReadBucketHeader(std::string_view bytes, uint32_t* slot_bytes,
                              uint32_t* slots);

// Calls `visit` for each pair of the slot in `slot` (its padding included
// or not), in order. InvalidArgument if the bytes are not a slot.
absl::Status ForEachInSlot(
    std::string_view slot,
    absl::FunctionRef<void(std::string_view key, std::string_view value)>
        visit);

// Looks `key` up in a slot: true and its value if present, false if not,
// InvalidArgument if the bytes are not a slot.
absl::StatusOr<bool> FindInSlot(std::string_view slot, std::string_view key,
                                std::string* value);

}  // namespace kvlab::ect

#endif  // KVLAB_ECT_SLOT_FORMAT_H_
