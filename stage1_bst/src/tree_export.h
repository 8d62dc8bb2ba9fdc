// The structure export (kvlab/structure.h) both stage-1 trees share.

#ifndef KVLAB_STAGE1_SRC_TREE_EXPORT_H_
#define KVLAB_STAGE1_SRC_TREE_EXPORT_H_

#include "absl/status/status.h"
#include "kvlab/structure.h"
#include "node.h"

namespace kvlab::stage1 {

// Exports the tree under `root` breadth first: one node per tree node, its
// id and title the key, with its subtree size and, if `avl`, its height and
// balance (right height minus left height); edges labelled L and R. Takes
// time in the nodes exported, not in the tree.
absl::Status ExportTree(const Node* root, bool avl,
                        const StructureOptions& options, StructureGraph* graph);

}  // namespace kvlab::stage1

#endif  // KVLAB_STAGE1_SRC_TREE_EXPORT_H_
