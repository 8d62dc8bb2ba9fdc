#include "hash_stores.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace kvlab::peers {

void AbslFlatTraits::MakeRoomForOneMore(Map& map) {
  // An insert grows the table only when it has no free slot left, and then
  // only if the table is at most one group of 16 slots, or more than 25/32
  // full (otherwise Abseil clears its deleted slots in place, allocating
  // nothing). Above that size and below that fill no insert can grow it.
  constexpr size_t kGroupWidth = 16;
  const size_t capacity = map.capacity();
  if (capacity > kGroupWidth &&
      uint64_t{map.size()} * 32 <= uint64_t{capacity} * 25) {
    return;
  }
  // Double, as Abseil does; the constructor allocates the table, and if it
  // throws there is no half-built map to destroy.
  Map bigger(capacity > kGroupWidth ? 2 * capacity + 1 : 2 * kGroupWidth);
  // Moving the pairs over allocates nothing: extract and insert move the
  // strings, and `bigger` has room for them all.
  for (auto it = map.begin(); it != map.end();) {
    bigger.insert(map.extract(it++));
  }
  map.swap(bigger);
}

}  // namespace kvlab::peers
