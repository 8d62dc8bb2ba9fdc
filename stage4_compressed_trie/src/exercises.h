// The answers of docs/stage4_compressed_trie.md's exercises that a test
// checks (tests/exercises_test.cc, `make stage4 exercises`). A course
// handout leaves their bodies to the student.

#ifndef KVLAB_STAGE4_EXERCISES_H_
#define KVLAB_STAGE4_EXERCISES_H_

#include <cstdint>
#include <set>
#include <string>

namespace kvlab::stage4 {

// Exercise 4: the nodes of a `compress=suffix` trie holding `keys`, the
// root included, counted from the keys alone.
uint64_t SuffixNodes(const std::set<std::string>& keys);

// Exercise 8: the depth of the deepest node of a `compress=full` trie
// holding `keys` (the root is at depth 0), counted from the keys alone.
int FullMaxDepth(const std::set<std::string>& keys);

}  // namespace kvlab::stage4

#endif  // KVLAB_STAGE4_EXERCISES_H_
