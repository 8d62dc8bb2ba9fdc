#include "hyperion_store.h"

namespace kvlab::stage5 {

absl::StatusOr<HyperionOptions> HyperionOptions::FromStoreOptions(
    const StoreOptions& options) {
  HyperionOptions o;
  absl::StatusOr<int64_t> inline_value = options.GetInt(
      "inline_value", o.inline_value, 0, int64_t{hyperion::kMaxInlineValue});
  if (!inline_value.ok()) return inline_value.status();
  o.inline_value = uint32_t(*inline_value);
  absl::StatusOr<int64_t> embed = options.GetInt(
      "embed", o.embed_limit, 16, int64_t{hyperion::kMaxEmbeddedSize});
  if (!embed.ok()) return embed.status();
  o.embed_limit = uint32_t(*embed);
  absl::StatusOr<int64_t> eject_above =
      options.GetInt("eject_above", o.eject_above, 0, int64_t{1} << 24);
  if (!eject_above.ok()) return eject_above.status();
  o.eject_above = uint32_t(*eject_above);
  absl::StatusOr<int64_t> jump =
      options.GetInt("jump_successor", o.jump_successor, 0, 256);
  if (!jump.ok()) return jump.status();
  o.jump_successor = uint32_t(*jump);
  absl::StatusOr<int64_t> table =
      options.GetInt("jump_table", o.jump_table, 0, 254);
  if (!table.ok()) return table.status();
  o.jump_table = uint32_t(*table);
  absl::StatusOr<int64_t> table_min =
      options.GetInt("jump_table_min", o.jump_table_min, 0, int64_t{1} << 24);
  if (!table_min.ok()) return table_min.status();
  o.jump_table_min = uint32_t(*table_min);
  return o;
}

HyperionStore::HyperionStore(const HyperionOptions& options)
    : options_(options) {}

std::optional<size_t> HyperionStore::MemoryUsage() const {
  // What the trie holds: chunks in use (whole 32-byte classes) and heap
  // blocks, the manager's bin and metabin descriptors, the manager and this
  // object. Mapped but never-used chunks of a bin are address space, not
  // memory, and the cache of empty segments is reuse capacity; neither is
  // counted (docs/stage5_hyperion.md compares this with RssAnon).
  const MemoryStats stats = mm_.Stats();
  const SuperbinStats total = stats.Total();
  return total.held_bytes + total.metadata_bytes + stats.manager_bytes +
         sizeof(*this);
}

}  // namespace kvlab::stage5
