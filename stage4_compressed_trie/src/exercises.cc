#include "exercises.h"

#include <algorithm>
#include <map>

namespace kvlab::stage4 {

uint64_t SuffixNodes(const std::set<std::string>& keys) {
  // handout: SuffixNodes -> #exercises
  // How many keys start with each non-empty prefix.
  std::map<std::string, uint64_t> below;
  for (const std::string& key : keys) {
    for (size_t d = 1; d <= key.size(); ++d) ++below[key.substr(0, d)];
  }
  // A prefix two keys or more share is a node, and so is the leaf of a key
  // that is the only one below its prefix.
  uint64_t nodes = 1;
  for (const auto& [prefix, count] : below) {
    nodes += count >= 2 || keys.count(prefix) == 1;
  }
  return nodes;
  // handout: end
}

int FullMaxDepth(const std::set<std::string>& keys) {
  // handout: FullMaxDepth -> #exercises
  // The bytes that continue each non-empty prefix.
  std::map<std::string, std::set<char>> next;
  for (const std::string& key : keys) {
    for (size_t d = 1; d <= key.size(); ++d) {
      std::set<char>& bytes = next[key.substr(0, d)];
      if (d < key.size()) bytes.insert(key[d]);
    }
  }
  // A key's node lies as deep as the nodes kept on its path: its prefixes
  // that end a key or branch. Every leaf is a key, so the deepest node is.
  int deepest = 0;
  for (const std::string& key : keys) {
    int depth = 0;
    for (size_t d = 1; d <= key.size(); ++d) {
      const std::string prefix = key.substr(0, d);
      depth += keys.count(prefix) == 1 || next[prefix].size() >= 2;
    }
    deepest = std::max(deepest, depth);
  }
  return deepest;
  // handout: end
}

}  // namespace kvlab::stage4
