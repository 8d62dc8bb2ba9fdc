#include "hyperion_trie.h"

#include <algorithm>

namespace kvlab::stage5 {

namespace {

// `options` with the two limits a single byte encodes capped at that byte:
// an inline value's length and an embedded container's size.
// FromStoreOptions rejects larger ones; a store built from a struct gets
// the largest it can encode.
HyperionOptions Capped(HyperionOptions options) {
  options.inline_value =
      std::min(options.inline_value, uint32_t{hyperion::kMaxInlineValue});
  options.embed_limit =
      std::min(options.embed_limit, uint32_t{hyperion::kMaxEmbeddedSize});
  return options;
}

}  // namespace

HyperionTrie::HyperionTrie(const HyperionOptions& options)
    : options_(Capped(options)) {}

std::optional<size_t> HyperionTrie::MemoryUsage() const {
  // What the trie holds: the bins' pages that hold a chunk in use (with the
  // free chunks that share them: fragmentation the system cannot take
  // back), the heap blocks, the manager's bin and metabin descriptors, the
  // manager and this object. Pages of free chunks were given back, pages
  // never used are address space, and the cache of empty segments holds
  // at most the page of chunk 0 of each; none is counted
  // (docs/stage5_hyperion.md compares this with RssAnon). A write's undo
  // log lives only as long as the write (write.h).
  const MemoryStats stats = mm_.Stats();
  const SuperbinStats total = stats.Total();
  return mm_.HeldPageBytes() + total.extended_heap_bytes +
         total.metadata_bytes + stats.manager_bytes + sizeof(*this);
}

}  // namespace kvlab::stage5
