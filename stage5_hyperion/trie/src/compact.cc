// Compaction from the trie (kvlab's own; the paper's trie never moves its
// chunks). Containers grow and shrink in 32-byte steps, each step a chunk
// in the next or previous superbin, so after many random changes the bins
// hold scattered free chunks that still cost resident pages: on 1M random
// integers, more free chunk bytes than live ones. The memory manager can
// move chunks out of its sparsest bins (BeginCompaction); the trie then
// forwards every pointer it stores, in one walk over all its nodes, before
// the manager frees the old chunks and unmaps the emptied bins.
//
// Automatic compaction (options.compact) is checked after every write
// (write.cc).

#include "hyperion_trie.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;

namespace {

// Replaces an external value's pointer in encoding `enc` by its forward.
void ForwardValue(MemoryManager& mm, uint8_t* enc) {
  if (!hyperion::IsExternal(enc)) return;
  mm.Forward(hyperion::ExternalValue(enc)).Store(enc + 1);
}

// Replaces every pointer stored below `region` by its forward.
void ForwardRegion(MemoryManager& mm, const Region& region) {
  // The region's bytes are the trie's own; Region only reads them.
  uint8_t* buf = const_cast<uint8_t*>(region.buf);
  for (hyperion::RegionCursor it(region); !it.done(); it.Next()) {
    const Node& n = it.node();
    if (n.type == NodeType::kLeafValue && !hyperion::IsBareLeaf(n.header)) {
      ForwardValue(mm, buf + n.value_pos);
    }
    switch (n.child) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer: {
        // Forwarded before it is resolved, as the manager requires.
        const HyperionPointer hp =
            mm.Forward(HyperionPointer::Load(buf + n.child_pos));
        hp.Store(buf + n.child_pos);
        auto* c = static_cast<uint8_t*>(mm.Resolve(hp));
        if (!hyperion::IsSplit(c)) {
          ForwardRegion(mm, hyperion::WholeContainer(c));
          break;
        }
        for (uint32_t j = 0; j < hyperion::PieceCount(c); ++j) {
          uint8_t* entry = c + hyperion::PieceEntryPos(j) + 1;
          const HyperionPointer piece =
              mm.Forward(HyperionPointer::Load(entry));
          piece.Store(entry);
          ForwardRegion(mm, hyperion::WholeContainer(
                                static_cast<uint8_t*>(mm.Resolve(piece))));
        }
        break;
      }
      case ChildKind::kEmbedded:
        ForwardRegion(mm, hyperion::EmbeddedRegion(buf, n.child_pos));
        break;
      case ChildKind::kSuffix: {
        const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, n.child_pos);
        if (sx.has_value) ForwardValue(mm, buf + sx.value_pos);
        break;
      }
    }
  }
}

}  // namespace

CompactionStats HyperionTrie::Compact(const CompactionPolicy& policy) {
  mm_.BeginCompaction(policy);
  root_ = mm_.Forward(root_);
  empty_value_ = mm_.Forward(empty_value_);
  if (!root_.IsNull()) {
    ForwardRegion(mm_, hyperion::WholeContainer(
                           static_cast<uint8_t*>(mm_.Resolve(root_))));
  }
  writes_since_compaction_ = 0;
  ++compactions_;
  return mm_.FinishCompaction();
}

}  // namespace kvlab::stage5
