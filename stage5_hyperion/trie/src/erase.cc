// Delete: find the key recording the path (one frame per container level
// entered, real or embedded), lower the key counts on the way, then remove
// bottom-up: the node that ends the key loses its value; a node that no
// longer leads to any key is removed (its next sibling re-encoded against
// the new previous sibling); a container left empty is freed (embedded:
// cut out of its parent) and its parent S-node loses the child, and so on
// up to the root.

#include <cassert>

#include "descent.h"
#include "hyperion_trie.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::Descent;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::Stop;

// One container level on a deletion's path: the region (a whole container
// at `level`, or an embedded one whose size byte is at `size_pos`) and the
// T-node and S-node the key passes through in it, with the key bytes of
// their previous siblings.
struct TrieWrite::Frame {
  size_t level = 0;
  size_t depth = 0;  // the key byte this region's T-nodes hold
  bool embedded = false;
  uint32_t size_pos = 0;
  uint32_t t_pos = 0;
  uint8_t t_prev = 0;
  bool has_s = false;
  uint32_t s_pos = 0;
  uint8_t s_prev = 0;
};

// A deletion's path: the real containers it passes, as a write's, and one
// frame per region (real or embedded) the key passes through.
struct TrieWrite::ErasePath : hyperion::PathBase {
  TrieWrite& write;
  std::string_view key;
  absl::InlinedVector<Frame, 8>& frames;
  Frame frame;  // the current region's, pushed once its S-node is found

  void SawT(const Descent& d) {
    if (!frame.embedded) RecordT(&write.levels_.back(), d.t);
    frame.t_pos = d.t.pos;
    frame.t_prev = d.t.prev;
  }
  void PassS(const Descent& d) {
    frame.has_s = true;
    frame.s_pos = d.s.pos;
    frame.s_prev = d.s.prev;
    frames.push_back(frame);
  }
  const uint8_t* EnterPointer(const uint8_t* buf, const Node& s, size_t depth) {
    write.levels_.push_back(write.ChildLevel(buf, s.child_pos, key, depth));
    frame = Frame{.level = write.levels_.size() - 1, .depth = depth};
    return write.Base(frame.level);
  }
  void EnterEmbedded(const uint8_t*, const Node& s, size_t depth) {
    frame = Frame{.level = write.levels_.size() - 1,
                  .depth = depth,
                  .embedded = true,
                  .size_pos = s.child_pos};
  }
};

bool TrieWrite::Erase(std::string_view key) {
  if (key.empty()) {
    if (!trie_.has_empty_key_) return false;
    undo_.FreeLater(trie_.empty_value_);
    trie_.empty_value_ = HyperionPointer();
    trie_.has_empty_key_ = false;
    --trie_.size_;
    return true;
  }
  if (trie_.root_.IsNull()) return false;

  levels_.push_back(Level{.hp = trie_.root_});
  absl::InlinedVector<Frame, 8> frames;
  ErasePath path{{}, *this, key, frames, Frame()};
  const Descent d =
      hyperion::Descend(hyperion::WholeContainer(Base(0)), key, path);
  Loss loss = Loss::kTValue;    // set by each case that goes on
  HyperionPointer freed_chunk;  // an external value's, freed at the end
  switch (d.stop) {
    case Stop::kNoT:
    case Stop::kNoS:
    case Stop::kNoChild:
      return false;
    case Stop::kEndsAtT:
      if (!EndsKey(d.t.node.type)) return false;
      frames.push_back(path.frame);
      loss = Loss::kTValue;
      break;
    case Stop::kEndsAtS:
      if (!EndsKey(d.s.node.type)) return false;
      path.PassS(d);
      loss = Loss::kSValue;
      break;
    case Stop::kSuffix: {
      const uint8_t* buf = d.region.buf;
      const hyperion::Suffix sx =
          hyperion::DecodeSuffix(buf, d.s.node.child_pos);
      if (sx.bytes != key.substr(d.depth + 2)) return false;
      freed_chunk = hyperion::ExternalChunk(buf + sx.value_pos, sx.value_bytes);
      loss = Loss::kSChild;
      break;
    }
  }

  // Found: every container on the path holds one key less.
  AddToCounts(-1);
  --trie_.size_;

  // From the deepest frame up, while the region a removal leaves is empty.
  // Only a freed real container moves the walk to the level above, and a
  // freed level needs no upkeep, so FinishLevel can wait until the end.
  for (size_t f = frames.size(); f-- > 0;) {
    const Frame fr = frames[f];
    // Any deeper level left behind was freed (and marked finished) above.
    assert(levels_.size() <= fr.level + 1 || levels_[fr.level + 1].finished);
    levels_.resize(fr.level + 1);
    if (!RemoveFromFrame(frames.data(), f, loss, &freed_chunk)) break;
    // The region emptied: the S-node above loses its child.
    if (!fr.embedded && !levels_[fr.level].split.IsNull()) {
      // Other pieces remain: the S-node above keeps its child.
      RemovePiece(fr.level);
      break;
    }
    loss = Loss::kSChild;
    if (!fr.embedded) {
      undo_.FreeLater(levels_[fr.level].hp);
      if (fr.level == 0) trie_.root_ = HyperionPointer();
      levels_[fr.level].finished = true;
    }
  }
  // Deepest first: the last level changed, then those only passed
  // through, whose T-nodes on the path hold one key less.
  for (size_t i = levels_.size(); i-- > 0;) FinishLevel(i, key, -1);
  undo_.FreeLater(freed_chunk);
  return true;
}

bool TrieWrite::RemoveFromFrame(const Frame* frames, size_t f, Loss loss,
                                HyperionPointer* freed_chunk) {
  // handout: TrieWrite::RemoveFromFrame -> #delete-reclaims
  const Frame& fr = frames[f];
  uint8_t* buf = Base(fr.level);
  embeds_.clear();
  for (size_t g = 1; g <= f; ++g) {
    if (frames[g].level == fr.level && frames[g].embedded) {
      embeds_.push_back(
          Embed{frames[g].size_pos, frames[g - 1].s_pos, frames[g].depth});
    }
  }
  const Region r = fr.embedded ? hyperion::EmbeddedRegion(buf, fr.size_pos)
                               : hyperion::WholeContainer(buf);
  const Node t = DecodeNode(buf, fr.t_pos, fr.t_prev);
  // Walked, not jumped: a deeper frame may have changed t's children.
  const uint32_t t_end = hyperion::SkipSChildren(buf, t.end, r.end);
  // Removes a node; the path's T-node then loses an S-child, or goes, and
  // its jump structures are measured anew (FinishLevel).
  const auto remove = [&](const Node& n, uint32_t end, uint8_t prev,
                          bool s_level) {
    if (!fr.embedded) levels_[fr.level].s_removed = true;
    RemoveNode(r, n, end, prev, s_level);
  };
  if (loss == Loss::kTValue) {
    *freed_chunk = hyperion::ExternalChunk(buf, t);
    if (t_end > t.end) {
      Splice(t.pos, t.end - t.pos,
             hyperion::Rewritten(buf, t, NodeType::kInner, {}, ChildKind::kNone,
                                 {}));
    } else {
      remove(t, t_end, fr.t_prev, /*s_level=*/false);
    }
  } else {
    const Node s = DecodeNode(buf, fr.s_pos, fr.s_prev);
    NodeType type = s.type;
    ChildKind child = s.child;
    std::string_view child_bytes(
        reinterpret_cast<const char*>(buf + s.child_pos), s.child_bytes);
    if (loss == Loss::kSValue) {
      *freed_chunk = hyperion::ExternalChunk(buf, s);
      type = NodeType::kInner;
    } else {
      child = ChildKind::kNone;
      child_bytes = {};
    }
    if (type != NodeType::kInner || child != ChildKind::kNone) {
      const hyperion::TaggedValue value(buf, s);
      Splice(
          s.pos, s.end - s.pos,
          hyperion::Rewritten(buf, s, type, value.view(), child, child_bytes));
    } else if (t.type == NodeType::kInner && s.pos == t.end &&
               (s.end >= r.end || buf[s.end] == 0 ||
                !hyperion::IsS(buf[s.end]))) {
      // The T-node's only child, and no key ends at it: both go.
      remove(t, t_end, fr.t_prev, /*s_level=*/false);
    } else {
      remove(s, s.end, fr.s_prev, /*s_level=*/true);
    }
  }
  buf = Base(fr.level);
  return fr.embedded
             ? buf[fr.size_pos] == 1
             : hyperion::ContainerUsed(buf) == hyperion::NodesBegin(buf);
  // handout: end
}

void TrieWrite::RemoveNode(const Region& r, const Node& n, uint32_t end,
                           uint8_t prev, bool s_level) {
  // handout: TrieWrite::RemoveNode -> #delete-reclaims
  const uint8_t* buf = r.buf;
  std::string bytes;
  uint32_t old_len = end - n.pos;
  if (end < r.end && buf[end] != 0 && (!s_level || hyperion::IsS(buf[end]))) {
    const Node next = DecodeNode(buf, end, n.key);
    bytes = hyperion::Reencoded(next, prev);
    old_len += next.head_bytes();
  }
  Splice(n.pos, old_len, bytes);
  // handout: end
}

}  // namespace kvlab::stage5
