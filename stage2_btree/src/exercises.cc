#include "exercises.h"

namespace kvlab::stage2 {

int MaxHeight(int order, uint64_t keys) {
  // handout: MaxHeight -> #8-exercises
  if (keys == 0) return 0;
  // The fewest keys a tree of height h + 1 holds: a root of one key and two
  // subtrees whose nodes are all minimal, 2 * t^h - 1 for t = order / 2.
  const unsigned __int128 t = static_cast<unsigned>(order / 2);
  unsigned __int128 power = t;  // t^h
  int height = 1;
  while (2 * power - 1 <= keys) {
    ++height;
    power *= t;
  }
  return height;
  // handout: end
}

int MinHeight(int order, uint64_t keys) {
  // handout: MinHeight -> #8-exercises
  if (keys == 0) return 0;
  // A full tree of height h holds order^h - 1 keys.
  unsigned __int128 capacity = static_cast<unsigned>(order - 1);
  int height = 1;
  while (capacity < keys) {
    capacity = capacity * static_cast<unsigned>(order) +
               static_cast<unsigned>(order - 1);
    ++height;
  }
  return height;
  // handout: end
}

}  // namespace kvlab::stage2
