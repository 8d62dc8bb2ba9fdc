// The answers of docs/stage5_hyperion.md's exercises that a test checks
// (tests/exercises_test.cc, `make stage5 exercises`). A course handout
// leaves their bodies to the student.

#ifndef KVLAB_STAGE5_TRIE_EXERCISES_H_
#define KVLAB_STAGE5_TRIE_EXERCISES_H_

#include <cstdint>
#include <string_view>

namespace kvlab::hyperion {

// Exercise 1: how many of the siblings with key bytes `siblings` (strictly
// ascending, one list of T-nodes or of one T-node's S-children) are
// delta-encoded, and so store no key byte.
int DeltaEncodedSiblings(std::string_view siblings);

}  // namespace kvlab::hyperion

#endif  // KVLAB_STAGE5_TRIE_EXERCISES_H_
