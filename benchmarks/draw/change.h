// What one step changed in a store's structure, found by comparing the
// graphs exported before and after it (kvlab/structure.h).
//
// Nodes are matched by id, which each store keeps stable (a key, a prefix,
// an address). Only the exported part is compared: when a drawing shows
// part of a store, a node that scrolls into view counts as new.

#ifndef KVLAB_DRAW_CHANGE_H_
#define KVLAB_DRAW_CHANGE_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kvlab/structure.h"
#include "operations.h"

namespace kvdraw {

struct Change {
  std::set<std::string> added;    // ids only in the new graph
  std::set<std::string> changed;  // ids in both whose title or fields differ
  // ids in both whose incoming link is new: another node now points to it.
  std::set<std::string> relinked;
  // (from, to) of the links between nodes of both graphs that are new.
  std::set<std::pair<std::string, std::string>> new_links;
  std::set<std::string> removed_ids;  // ids only in the old graph
  // Titles of the nodes gone, those outside clusters (change.cc).
  std::vector<std::string> removed;
  // One line naming the change in the store's terms ("rotation", "split",
  // "merge"), or empty if the structure did not change.
  std::string summary;
};

// Compares `before` and `after`, the graphs around `op`.
Change Compare(const kvlab::StructureGraph& before,
               const kvlab::StructureGraph& after, const Operation& op);

}  // namespace kvdraw

#endif  // KVLAB_DRAW_CHANGE_H_
