#include "kvlab/stage5/hyperion_store.h"

#include <memory>

#include "hyperion_trie.h"
#include "node.h"
#include "preprocess/preprocessed_trie.h"

namespace kvlab::stage5 {

// The default stated in the public header, which cannot see node.h.
static_assert(HyperionOptions{}.tnode_table_keys ==
              8 * hyperion::kTNodeTableBytes);

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
  absl::StatusOr<int64_t> preprocess = options.GetInt("preprocess", 0, 0, 1);
  if (!preprocess.ok()) return preprocess.status();
  o.preprocess = *preprocess == 1;
  return o;
}

std::unique_ptr<HyperionStore> NewHyperionStore(
    const HyperionOptions& options) {
  // Without pre-processing the trie is the store: no call pays for the
  // option.
  if (options.preprocess) return std::make_unique<PreprocessedTrie>(options);
  return std::make_unique<HyperionTrie>(options);
}

}  // namespace kvlab::stage5
