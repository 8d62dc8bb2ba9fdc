// The answers of docs/stage5_hyperion_memory.md's exercises that a test
// checks (tests/exercises_test.cc, `make stage5 exercises`). A course
// handout leaves their bodies to the student.

#ifndef KVLAB_STAGE5_MEMORY_EXERCISES_H_
#define KVLAB_STAGE5_MEMORY_EXERCISES_H_

#include <cstddef>

namespace kvlab::stage5 {

// Exercise 4: the bytes the manager holds for one live allocation of `size`
// bytes (1..kMaxAllocation, room to grow): its chunk in superbins 1..63, or
// superbin 0's extended record plus its heap block. 0 for size 0.
size_t HeldBytesFor(size_t size);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_MEMORY_EXERCISES_H_
