// The answers of docs/stage3_trie.md's exercises that a test checks
// (tests/exercises_test.cc, `make stage3 exercises`). A course handout
// leaves their bodies to the student.

#ifndef KVLAB_STAGE3_EXERCISES_H_
#define KVLAB_STAGE3_EXERCISES_H_

#include <cstdint>
#include <set>
#include <string>

namespace kvlab::stage3 {

// Exercise 7: the nodes a compressed trie of `keys` keeps: the root, and
// every other node of the pointer trie that ends a key or has two children
// or more (each one-child chain merged into its child).
uint64_t CompressedNodes(const std::set<std::string>& keys);

// Exercise 8: the nodes of the pointer trie of `keys` that have exactly one
// child: the chain links compression removes unless they end a key.
uint64_t SingleChildNodes(const std::set<std::string>& keys);

}  // namespace kvlab::stage3

#endif  // KVLAB_STAGE3_EXERCISES_H_
