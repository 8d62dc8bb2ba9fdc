// Changing a container: every insertion and deletion is one splice, a byte
// range of a real container replaced by new bytes (paper, section 3.1,
// "Operations" and Figure 8). The tail moves, the container grows or
// shrinks in 32-byte steps, enclosing embedded containers' size bytes
// change by the same amount, and an embedded container that would pass its
// budget is ejected into a container of its own first.

#include <cassert>
#include <cstring>

#include "hyperion_trie.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::kContainerStep;
using hyperion::kFlagShift;
using hyperion::Node;
using hyperion::NodeType;

void TrieWrite::SetLevelPointer(size_t i, HyperionPointer hp) {
  const Level& level = levels_[i];
  levels_[i].hp = hp;
  if (i == 0) {
    trie_.root_ = hp;
    return;
  }
  uint8_t* at = level.split.IsNull()
                    ? Base(i - 1) + level.ref
                    : static_cast<uint8_t*>(mm_.Resolve(level.split)) +
                          hyperion::PieceEntryPos(level.piece) + 1;
  undo_.SaveBytes(at, HyperionPointer::kBytes);
  hp.Store(at);
}

void TrieWrite::AddToCounts(int delta) {
  auto add = [&](uint8_t* count) {
    undo_.SaveBytes(count, hyperion::kCountBytes);
    hyperion::StoreCount(count, hyperion::LoadCount(count) + delta);
  };
  for (size_t i = 1; i < levels_.size(); ++i) {
    add(Base(i - 1) + levels_[i].ref + HyperionPointer::kBytes);
    if (!levels_[i].split.IsNull()) {
      add(hyperion::PieceCountAt(
          static_cast<uint8_t*>(mm_.Resolve(levels_[i].split)),
          levels_[i].piece));
    }
  }
}

void TrieWrite::RawSpliceAt(size_t li, uint32_t pos, uint32_t old_len,
                            std::string_view bytes) {
  uint8_t* c = Base(li);
  const uint32_t size = hyperion::ContainerSize(c);
  const uint32_t used = hyperion::ContainerUsed(c);
  const uint32_t jump_groups = hyperion::ContainerJumpBits(c);
  const uint32_t split_delay = hyperion::ContainerSplitDelay(c);
  if (!levels_[li].changed) levels_[li].used_before = used;
  levels_[li].changed = true;
  const uint32_t new_used = used - old_len + uint32_t(bytes.size());
  const uint32_t tail = used - pos - old_len;
  // The chunk stays as long as the nodes fit and leave under 32 bytes free.
  const uint32_t new_size = new_used > size || size - new_used >= kContainerStep
                                ? hyperion::RoundUpToStep(new_used)
                                : size;
  const HyperionPointer hp = levels_[li].hp;
  if (new_size != size && !mm_.ResizesInPlace(hp, new_size)) {
    // Spliced into a chunk of the new size; the old one stays as it was
    // until the write is done (undo_log.h).
    const auto* old_bytes = reinterpret_cast<const char*>(c);
    const HyperionPointer moved = undo_.Allocate([&] {
      return mm_.AllocateWith(
          new_size, {std::string_view(old_bytes, pos), bytes,
                     std::string_view(old_bytes + pos + old_len, tail)});
    });
    hyperion::StoreHeader(static_cast<uint8_t*>(mm_.Resolve(moved)), new_size,
                          new_size - new_used, jump_groups, split_delay);
    undo_.FreeLater(hp);
    SetLevelPointer(li, moved);
    return;
  }
  // In place: a growing chunk grows first, a shrinking one shrinks last.
  if (new_size > size) ResizeInPlace(hp, new_size);
  undo_.SaveSplice(c, pos, old_len, uint32_t(bytes.size()), used);
  if (bytes.size() != old_len) {
    std::memmove(c + pos + bytes.size(), c + pos + old_len, tail);
  }
  std::memcpy(c + pos, bytes.data(), bytes.size());
  // The free tail must read as zero: a zero byte ends every scan.
  if (new_used < used) std::memset(c + new_used, 0, used - new_used);
  hyperion::StoreHeader(c, new_size, new_size - new_used, jump_groups,
                        split_delay);
  if (new_size < size) ResizeInPlace(hp, new_size);
}

void TrieWrite::ResizeInPlace(HyperionPointer hp, size_t new_size) {
  undo_.Resized(hp, mm_.Size(hp));
  const HyperionPointer same = mm_.Reallocate(hp, new_size);
  assert(same == hp);
  (void)same;
}

void TrieWrite::Splice(uint32_t pos, uint32_t old_len, std::string_view bytes) {
  // handout: TrieWrite::Splice -> #every-change-is-a-splice
  const int64_t delta = int64_t(bytes.size()) - int64_t(old_len);
  // The outermost embedded container is the largest; once it fits, the
  // nested ones fit too. It also leaves a container already past
  // eject_above bytes: every splice moves the container's tail, so
  // embedded bytes kept in a large container make each change inside it
  // slower, while in a small container of their own they stay cheap.
  auto must_eject = [&] {
    if (delta <= 0 || embeds_.empty()) return false;
    const uint8_t* c = Base(levels_.size() - 1);
    return c[embeds_.front().size_pos] + delta > options_.embed_limit ||
           (options_.eject_above != 0 &&
            hyperion::ContainerSize(c) > options_.eject_above);
  };
  while (must_eject()) Eject(&pos);
  uint8_t* c = Base(levels_.size() - 1);
  for (const Embed& e : embeds_) {
    undo_.SaveBytes(c + e.size_pos, 1);
    c[e.size_pos] = uint8_t(c[e.size_pos] + delta);
  }
  RawSplice(pos, old_len, bytes);
  // handout: end
}

void TrieWrite::Eject(uint32_t* pos) {
  // handout: TrieWrite::Eject -> #embedded-containers-and-ejection
  const size_t li = levels_.size() - 1;
  const Embed e = embeds_.front();
  uint8_t* c = Base(li);
  const uint32_t esize = c[e.size_pos];
  const uint64_t count =
      hyperion::CountKeys(hyperion::EmbeddedRegion(c, e.size_pos));
  const std::string payload(reinterpret_cast<const char*>(c + e.size_pos + 1),
                            esize - 1);
  const HyperionPointer child = NewContainer(payload);
  c = Base(li);
  // The S-node holding an embedded child: never a bare leaf, whose child
  // bits these would overwrite.
  assert(hyperion::ChildOf(c[e.node_pos]) == ChildKind::kEmbedded);
  undo_.SaveBytes(c + e.node_pos, 1);
  c[e.node_pos] = uint8_t((c[e.node_pos] & ~(3u << kFlagShift)) |
                          (uint8_t(ChildKind::kPointer) << kFlagShift));
  std::string pointer;
  hyperion::AppendPointerChild(&pointer, child, count);
  RawSplice(e.size_pos, esize, pointer);
  // Its T-nodes get their jump successors once the operation is done
  // (FinishLevel); until then the payload's offsets stay valid.
  levels_.push_back(Level{.hp = child,
                          .ref = e.size_pos,
                          .depth = e.depth,
                          .changed = true,
                          .ejected = true});
  // Offsets inside the ejected payload move from after its size byte to
  // after the new container's header.
  const uint32_t shift = e.size_pos + 1 - hyperion::kHeaderBytes;
  *pos -= shift;
  embeds_.erase(embeds_.begin());
  for (Embed& inner : embeds_) {
    inner.size_pos -= shift;
    inner.node_pos -= shift;
  }
  // handout: end
}

void TrieWrite::InsertSibling(const hyperion::SiblingSearch& search,
                              uint8_t key, std::string nodes) {
  // handout: TrieWrite::InsertSibling -> #every-change-is-a-splice
  uint32_t old_len = 0;
  if (search.has_next) {
    // The sibling after the insertion point now follows `key`.
    nodes += hyperion::Reencoded(search.node, key);
    old_len = search.node.head_bytes();
  }
  Splice(search.pos, old_len, nodes);
  // handout: end
}

// Jump successors first: the jump table's entries after the path's T-node
// move by the level's final change in bytes, theirs included.
void TrieWrite::FinishLevel(size_t i, std::string_view key, int key_delta) {
  if (levels_[i].finished) return;
  levels_[i].finished = true;
  FinishJumpSuccessors(i, key, key_delta);
  FinishJumpTable(i, key, key_delta);
}

}  // namespace kvlab::stage5
