// HyperionStore (`hyperion`): the Hyperion trie (Mäsker et al., "Hyperion:
// Building the Largest In-memory Search Tree", SIGMOD 2019; design in
// docs/stage5_hyperion.md) over the stage-5 memory manager
// (kvlab/stage5/memory_manager.h), with jump successors, container and
// T-node jump tables and container splits (with kvlab's own split
// directory) and optional key pre-processing (options.preprocess); one
// arena (arena_store.h splits it into several).
//
// A 65,536-ary trie of containers: exact-fit byte arrays, each holding
// the nodes for two key bytes, in which small containers are embedded and
// single keys are path-compressed into suffixes. Ordered: Scan, GetNth and
// DeleteNth run in key order, GetNth and DeleteNth in O(key length) steps
// through the key counts the trie keeps.
//
// Out of memory (kv_store.h): a Put or Delete that finds no memory leaves
// the store exactly as it was, and a Put then returns ResourceExhausted.
// An automatic compaction (options.compact) that finds no memory is left
// for later. Reads never change the store.
//
// Not thread-safe; MakeThreadSafe wraps it in a LockedStore. Split into
// arenas (arena_store.h, `hyperion:arenas=N`) it serves threads itself.

#ifndef KVLAB_STAGE5_HYPERION_STORE_H_
#define KVLAB_STAGE5_HYPERION_STORE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "kvlab/kv_store.h"
#include "kvlab/stage5/memory_manager.h"
#include "kvlab/store_options.h"

namespace kvlab::stage5 {

struct HyperionOptions {
  // Values up to this many bytes are stored inline in the node (a length
  // byte and the bytes); longer ones in a chunk of their own behind a
  // 5-byte pointer. 0..255.
  uint32_t inline_value = 255;
  // An embedded container is ejected into a container of its own once it
  // would grow past this many bytes (its size byte included). 16..255.
  uint32_t embed_limit = 144;
  // An embedded container that grows inside a container larger than this
  // many bytes is ejected whatever its size (the paper's implementation
  // ejects past 16-32 KiB of root container). 0 turns this off.
  uint32_t eject_above = 16384;
  // A T-node of a real container with more than this many S-children
  // carries a jump successor (paper, section 3.3). The default reads the
  // paper's as "more than 2"; its wording ("reaches 2") would
  // be 1 here, which measures the same on course keys
  // (docs/stage5_hyperion.md). 0..256; 256 turns jump successors off (a
  // T-node has at most 256 children).
  uint32_t jump_successor = 2;
  // A T-node of a real container with a jump successor and more than this
  // many S-children carries a T-node jump table (paper, section 3.3;
  // docs/stage5_hyperion.md): 120 bytes that let a search or GetNth start at
  // one of 15 children instead of the first. 0..256; 256 turns them off.
  uint32_t tnode_table = 32;
  // ... and at least this many keys at and below it: the default, 8 times
  // the table's 120 bytes, keeps a table's cost under 1/8 byte per key, so
  // T-nodes of leaves (seq_int's 256 per T-node) go without. 0..2^24.
  uint32_t tnode_table_keys = 960;
  // A Put or Delete whose lookup in a real container walks past more than
  // this many T-nodes (after its jump table, if any) rebuilds that
  // container's table when it finishes (the paper, section 3.3, does so
  // once a traversal has seen eight). 0 turns container jump tables off; at
  // most 254, since a lookup walks past at most 255 T-nodes.
  uint32_t jump_table = 8;
  // ... in a container of at least this many used bytes: a smaller one is
  // read in a few cache lines, where a table would cost more than it saves
  // (56 bytes for its first 7 entries). 0..2^24.
  uint32_t jump_table_min = 1024;
  // Every 1,024 Puts and Deletes, if at least size/8 of them ran since the
  // last compaction and the free chunks inside mapped bins exceed this
  // percentage of the bytes held, compact (Compact()). 0 turns it off;
  // 0..1000.
  uint32_t compact = 0;
  // A container below the root that passes split_above * (1 + 4 * delay)
  // bytes after a Put is cut in two at the T-node nearest its middle
  // (paper, section 3.3: a + b * delay with a = 16 KiB, b = 64 KiB; half
  // that a measured faster and smaller on course keys,
  // docs/stage5_hyperion.md); delay counts failed attempts (a single
  // T-node, or kMaxPieces pieces already), 0..3. 0 turns splits off;
  // 0..2^24.
  uint32_t split_above = 8192;
  // ... or passes split_large_above * (1 + 4 * delay) bytes while holding
  // at least large_node bytes per key: a container of few large nodes
  // (values kept inline) is cut sooner, since a walk over it misses the
  // cache at every node it steps past, and a splice in it moves few keys'
  // worth of bytes per key it serves (docs/stage5_hyperion.md, "Pieces of
  // large nodes"). 0 turns the rule off; 0..2^24 and 1..2^24.
  uint32_t split_large_above = 2048;
  uint32_t large_node = 64;
  // A search entering a container, piece or split directory of at most
  // this many bytes asks for all its cache lines at once: the walk that
  // follows reads it in a few dependent steps (header, T-node jumps,
  // S-children), each a cache miss without this. 0 turns it off; 0..2^24.
  uint32_t read_ahead = 2304;
  // Stores each key transformed by the paper's zero-bit injection (section
  // 3.4; docs/stage5_hyperion.md, "Key pre-processing"): two zero bits
  // after every six bits of key bytes 1-3, one byte longer. For uniformly
  // random keys, whose third-level containers it makes fewer and fuller.
  // The transform keeps the key order and is undone on the way out: every
  // call takes and returns the caller's keys, kMaxKeySize bytes included.
  // DebugString, DumpContainer and ExportStructure show the bytes stored,
  // and say so.
  bool preprocess = false;

  static absl::StatusOr<HyperionOptions> FromStoreOptions(
      const StoreOptions& options);
};

// The store's interface beyond KVStore: compaction, its counters and the
// debugging views. NewHyperionStore makes one; the trie behind it is
// internal to the stage.
class HyperionStore : public KVStore {
 public:
  // Moves the trie's chunks out of the memory manager's sparsest bins and
  // forwards every pointer the trie stores, so that the emptied bins are
  // returned to the system (MemoryManager::BeginCompaction). O(size).
  // Throws std::bad_alloc, having moved nothing, if memory runs out.
  virtual CompactionStats Compact(const CompactionPolicy& policy = {}) = 0;
  // Compactions run so far (by Compact or options.compact).
  virtual uint64_t compactions() const = 0;
  // Containers cut in two by splits (options.split_above) so far.
  virtual uint64_t splits() const = 0;

  // The root container and, recursively, every container below it, each
  // byte annotated node by node.
  virtual std::string DebugString() const = 0;
  // One container's annotated bytes (its embedded containers nested).
  virtual std::string DumpContainer(HyperionPointer hp) const = 0;
  // The root container (null while no non-empty key is stored).
  virtual HyperionPointer root() const = 0;
  // The memory manager holding every chunk of the trie.
  virtual const MemoryManager& memory() const = 0;

 protected:
  HyperionStore() = default;
};

// A new, empty store. inline_value and embed_limit past 255 act as 255
// (FromStoreOptions rejects them).
std::unique_ptr<HyperionStore> NewHyperionStore(
    const HyperionOptions& options = {});

}  // namespace kvlab::stage5

#endif  // KVLAB_STAGE5_HYPERION_STORE_H_
