// The answers of docs/stage2_btree.md's exercises that a test checks
// (tests/exercises_test.cc, `make stage2 exercises`). A course handout
// leaves their bodies to the student.

#ifndef KVLAB_STAGE2_EXERCISES_H_
#define KVLAB_STAGE2_EXERCISES_H_

#include <cstdint>

namespace kvlab::stage2 {

// Exercise 8: the greatest height a B-tree of even `order` (4 or more) can
// have with `keys` keys under this stage's fill rules (every node but the
// root holds order/2 - 1 keys or more, the root one or more); 0 for no keys.
int MaxHeight(int order, uint64_t keys);

// Exercise 9: the least height a B-tree of even `order` can have with
// `keys` keys (every node holds at most order - 1); 0 for no keys.
int MinHeight(int order, uint64_t keys);

}  // namespace kvlab::stage2

#endif  // KVLAB_STAGE2_EXERCISES_H_
