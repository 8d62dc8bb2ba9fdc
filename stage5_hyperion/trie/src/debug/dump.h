// The dump's rows of one region of a container, rendered as text by
// HyperionTrie::DumpContainer and DebugString (dump.cc) and as fields by
// the structure export (export.cc).

#ifndef KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_
#define KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "container_scan.h"
#include "kvlab/stage5/memory_manager.h"
#include "node.h"

namespace kvlab::stage5::hyperion {

// One row of a region's own level: a jump table entry or a node.
struct DumpRow {
  uint32_t pos = 0;   // offset in the buffer
  std::string bytes;  // its first bytes in hex ("21 61", ".." past 12)
  std::string text;   // what they encode ("T 'a' inner, key explicit")
  // The node, unless the row is a jump table entry. An embedded container
  // below it has rows of its own: RegionRows(EmbeddedRegion(...)).
  std::optional<Node> node;
};

// The rows of `region`: its jump table entries, then its nodes in
// pre-order (S-nodes' text indented by two spaces).
std::vector<DumpRow> RegionRows(const Region& region);

// Appends the rows of `region`, a line each ("%04x  <bytes>  <text>",
// `indent` spaces in, embedded containers nested deeper), to `*out`, and
// the pointers of its child containers to `*children`.
void DumpRegion(const Region& region, int indent, std::string* out,
                std::vector<HyperionPointer>* children);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_
