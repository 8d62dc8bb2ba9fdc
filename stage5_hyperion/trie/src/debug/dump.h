// The dump's text of one region of a container, shared by
// HyperionTrie::DumpContainer and DebugString (dump.cc) and the structure
// export (export.cc).

#ifndef KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_
#define KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_

#include <string>
#include <vector>

#include "container_scan.h"
#include "kvlab/stage5/memory_manager.h"

namespace kvlab::stage5::hyperion {

// Appends the annotated nodes of `region`, a line each ("%04x  <bytes>
// <what they encode>", `indent` spaces in, embedded containers nested
// deeper), to `*out`, and the pointers of its child containers to
// `*children`.
void DumpRegion(const Region& region, int indent, std::string* out,
                std::vector<HyperionPointer>* children);

}  // namespace kvlab::stage5::hyperion

#endif  // KVLAB_STAGE5_TRIE_SRC_DEBUG_DUMP_H_
