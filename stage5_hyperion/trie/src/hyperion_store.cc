#include "hyperion_store.h"

#include <algorithm>

namespace kvlab::stage5 {

absl::StatusOr<HyperionOptions> HyperionOptions::FromStoreOptions(
    const StoreOptions& options) {
  HyperionOptions o;
  struct Field {
    const char* name;
    uint32_t* value;
    int64_t min, max;
  };
  const Field fields[] = {
      {"inline_value", &o.inline_value, 0, int64_t{hyperion::kMaxInlineValue}},
      {"embed", &o.embed_limit, 16, int64_t{hyperion::kMaxEmbeddedSize}},
      {"eject_above", &o.eject_above, 0, int64_t{1} << 24},
      {"jump_successor", &o.jump_successor, 0, 256},
      {"tnode_table", &o.tnode_table, 0, 256},
      {"tnode_table_keys", &o.tnode_table_keys, 0, int64_t{1} << 24},
      {"jump_table", &o.jump_table, 0, 254},
      {"jump_table_min", &o.jump_table_min, 0, int64_t{1} << 24},
      {"compact", &o.compact, 0, 1000},
      {"split_above", &o.split_above, 0, int64_t{1} << 24},
      {"split_large_above", &o.split_large_above, 0, int64_t{1} << 24},
      {"large_node", &o.large_node, 1, int64_t{1} << 24},
      {"read_ahead", &o.read_ahead, 0, int64_t{1} << 24},
  };
  for (const Field& f : fields) {
    absl::StatusOr<int64_t> v = options.GetInt(f.name, *f.value, f.min, f.max);
    if (!v.ok()) return v.status();
    *f.value = uint32_t(*v);
  }
  return o;
}

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

HyperionStore::HyperionStore(const HyperionOptions& options)
    : options_(Capped(options)) {}

std::optional<size_t> HyperionStore::MemoryUsage() const {
  // What the trie holds: the bins' pages that hold a chunk in use (with the
  // free chunks that share them: fragmentation the system cannot take
  // back), the heap blocks, the manager's bin and metabin descriptors, the
  // manager and this object. Pages of free chunks were given back, pages
  // never used are address space, and the cache of empty segments holds no
  // page; none is counted (docs/stage5_hyperion.md compares this with
  // RssAnon). The undo log holds nothing but its own bytes between writes
  // (undo_log.h), which sizeof counts.
  const MemoryStats stats = mm_.Stats();
  const SuperbinStats total = stats.Total();
  return mm_.HeldPageBytes() + total.extended_heap_bytes +
         total.metadata_bytes + stats.manager_bytes + sizeof(*this);
}

}  // namespace kvlab::stage5
