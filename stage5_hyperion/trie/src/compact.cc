// Compaction from the trie (kvlab's own; the paper's trie never moves its
// chunks). Containers grow and shrink in 32-byte steps, each step a chunk
// in the next or previous superbin, so after many random changes the bins
// hold scattered free chunks that still cost resident pages: on 1M random
// integers, more free chunk bytes than live ones. The memory manager can
// move chunks out of its sparsest bins (BeginCompaction); the trie then
// forwards every pointer it stores, in one walk over all its nodes, before
// the manager frees the old chunks and unmaps the emptied bins.
//
// Automatic compaction (options.compact) is checked every 1,024 writes and
// runs only after at least size/8 writes since the last one, so its O(size)
// walk costs O(1) per write amortised. The check follows every write, so
// the writes' entry points are here too: PutImpl and DeleteImpl, which run
// Insert and Erase through their undo log (Write).

#include <new>

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;

namespace {

constexpr uint64_t kCompactCheckEvery = 1024;

// Bytes of free chunks inside mapped bins (superbin 0 has none), less one
// bin's worth per superbin: the bin being filled, whose untouched chunks
// cost no memory and which no compaction could empty.
uint64_t FreeChunkBytes(const MemoryStats& stats) {
  uint64_t bytes = 0;
  for (uint32_t i = 1; i < kSuperbins; ++i) {
    const uint64_t free = stats.superbins[i].chunks_free;
    if (free > kChunksPerBin) bytes += (free - kChunksPerBin) * ChunkSize(i);
  }
  return bytes;
}

}  // namespace

bool HyperionStore::PutImpl(std::string_view key, std::string_view value) {
  const bool replaced = Write([&] { return Insert(key, value); });
  CompactIfFragmented();
  return replaced;
}

bool HyperionStore::DeleteImpl(std::string_view key) {
  if (!Write([&] { return Erase(key); })) return false;
  CompactIfFragmented();
  return true;
}

bool HyperionStore::Write(absl::FunctionRef<bool()> write) {
  undo_.Clear();
  const HyperionPointer root = root_, empty_value = empty_value_;
  const bool has_empty_key = has_empty_key_;
  const uint64_t size = size_, splits = splits_;
  try {
    const bool result = write();
    undo_.Commit(&mm_);
    return result;
  } catch (const std::bad_alloc&) {
    undo_.Undo(&mm_);
    root_ = root;
    empty_value_ = empty_value;
    has_empty_key_ = has_empty_key;
    size_ = size;
    splits_ = splits;
    throw;
  }
}

void HyperionStore::CompactIfFragmented() {
  ++writes_since_compaction_;
  if (options_.compact == 0 ||
      writes_since_compaction_ % kCompactCheckEvery != 0 ||
      writes_since_compaction_ < size_ / 8) {
    return;
  }
  const MemoryStats stats = mm_.Stats();
  if (FreeChunkBytes(stats) * 100 >
      stats.Total().held_bytes * uint64_t{options_.compact}) {
    // The write is done; a compaction that finds no memory changed nothing
    // (BeginCompaction) and runs at a later check instead.
    try {
      Compact();
    } catch (const std::bad_alloc&) {
    }
  }
}

CompactionStats HyperionStore::Compact(const CompactionPolicy& policy) {
  mm_.BeginCompaction(policy);
  root_ = mm_.Forward(root_);
  empty_value_ = mm_.Forward(empty_value_);
  if (!root_.IsNull()) {
    ForwardRegion(
        hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_))));
  }
  writes_since_compaction_ = 0;
  ++compactions_;
  return mm_.FinishCompaction();
}

void HyperionStore::ForwardValue(uint8_t* enc) {
  if (!hyperion::IsExternal(enc)) return;
  mm_.Forward(hyperion::ExternalValue(enc)).Store(enc + 1);
}

void HyperionStore::ForwardRegion(const Region& region) {
  // The region's bytes are the trie's own; Region only reads them.
  uint8_t* buf = const_cast<uint8_t*>(region.buf);
  uint32_t pos = region.begin;
  hyperion::PreorderDecoder decoder;
  while (pos < region.end && buf[pos] != 0) {
    const Node n = decoder.Decode(buf, pos);
    if (n.type == NodeType::kLeafValue && !hyperion::IsBareLeaf(n.header)) {
      ForwardValue(buf + n.value_pos);
    }
    switch (n.child) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer: {
        // Forwarded before it is resolved, as the manager requires.
        const HyperionPointer hp =
            mm_.Forward(HyperionPointer::Load(buf + n.child_pos));
        hp.Store(buf + n.child_pos);
        auto* c = static_cast<uint8_t*>(mm_.Resolve(hp));
        if (!hyperion::IsSplit(c)) {
          ForwardRegion(hyperion::WholeContainer(c));
          break;
        }
        for (uint32_t j = 0; j < hyperion::PieceCount(c); ++j) {
          uint8_t* entry = c + hyperion::PieceEntryPos(j) + 1;
          const HyperionPointer piece =
              mm_.Forward(HyperionPointer::Load(entry));
          piece.Store(entry);
          ForwardRegion(hyperion::WholeContainer(
              static_cast<uint8_t*>(mm_.Resolve(piece))));
        }
        break;
      }
      case ChildKind::kEmbedded:
        ForwardRegion(hyperion::EmbeddedRegion(buf, n.child_pos));
        break;
      case ChildKind::kSuffix: {
        const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, n.child_pos);
        if (sx.has_value) ForwardValue(buf + sx.value_pos);
        break;
      }
    }
    pos = n.end;
  }
}

}  // namespace kvlab::stage5
