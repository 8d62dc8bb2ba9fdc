// ExportStructure of an arena store (kvlab/stage5/arena_store.h), shared
// by its partitions: each arena's trie drawn as a cluster of its own.

#ifndef KVLAB_STAGE5_TRIE_SRC_ARENA_EXPORT_H_
#define KVLAB_STAGE5_TRIE_SRC_ARENA_EXPORT_H_

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "arena.h"
#include "kvlab/structure.h"

namespace kvlab::stage5 {

// Appends to `graph` each arena's export under `options` (its limits
// applying to each arena alone), one arena at a time under its lock, ids
// prefixed "arena<i>/". InvalidArgument if options.has_from_key.
absl::Status ExportArenas(const std::vector<std::unique_ptr<Arena>>& arenas,
                          const StructureOptions& options,
                          StructureGraph* graph);

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_TRIE_SRC_ARENA_EXPORT_H_
