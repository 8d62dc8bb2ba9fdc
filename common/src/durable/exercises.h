// The answers of docs/durability.md's exercises that a test checks
// (common/tests/durable/exercises_test.cc, `make durability-exercises`). A
// course handout leaves their bodies to the student.

#ifndef KVLAB_DURABLE_EXERCISES_H_
#define KVLAB_DURABLE_EXERCISES_H_

#include <cstddef>
#include <cstdint>

namespace kvlab::durable {

// Exercise 7: how many physical records (FULL, or FIRST, MIDDLE..., LAST)
// a logical record of `size` payload bytes takes when the writer stands at
// byte `block_offset` (0..kBlockSize-1) of its block.
uint64_t PhysicalRecordsFor(uint64_t block_offset, size_t size);

// Exercise 8: how many bytes the log grows by when that record is written
// there: headers, payload and any zero trailer it skips.
uint64_t LogBytesFor(uint64_t block_offset, size_t size);

}  // namespace kvlab::durable

#endif  // KVLAB_DURABLE_EXERCISES_H_
