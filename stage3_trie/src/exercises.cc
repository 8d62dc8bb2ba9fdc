#include "exercises.h"

#include <map>

namespace kvlab::stage3 {

uint64_t CompressedNodes(const std::set<std::string>& keys) {
  // handout: CompressedNodes -> #11-exercises
  // Each non-empty prefix and the bytes the keys continue it with.
  std::map<std::string, std::set<char>> next;
  for (const std::string& key : keys) {
    for (size_t d = 1; d <= key.size(); ++d) {
      std::set<char>& bytes = next[key.substr(0, d)];
      if (d < key.size()) bytes.insert(key[d]);
    }
  }
  uint64_t nodes = 1;  // the root
  for (const auto& [prefix, bytes] : next) {
    nodes += keys.count(prefix) == 1 || bytes.size() >= 2;
  }
  return nodes;
  // handout: end
}

uint64_t SingleChildNodes(const std::set<std::string>& keys) {
  // handout: SingleChildNodes -> #11-exercises
  // Every prefix, the empty one (the root) included, and its next bytes.
  std::map<std::string, std::set<char>> next;
  for (const std::string& key : keys) {
    for (size_t d = 0; d <= key.size(); ++d) {
      std::set<char>& bytes = next[key.substr(0, d)];
      if (d < key.size()) bytes.insert(key[d]);
    }
  }
  if (next.empty()) return 0;  // an empty trie: a root without children
  uint64_t nodes = 0;
  for (const auto& entry : next) nodes += entry.second.size() == 1;
  return nodes;
  // handout: end
}

}  // namespace kvlab::stage3
