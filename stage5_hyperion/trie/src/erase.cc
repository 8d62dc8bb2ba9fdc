// Delete: find the key recording the path (one frame per container level
// entered, real or embedded), lower the key counts on the way, then remove
// bottom-up: the node that ends the key loses its value; a node that no
// longer leads to any key is removed (its next sibling re-encoded against
// the new previous sibling); a container left empty is freed (embedded:
// cut out of its parent) and its parent S-node loses the child, and so on
// up to the root.

#include <cassert>

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::SiblingSearch;

// One container level on a deletion's path: the region (a whole container
// at `level`, or an embedded one whose size byte is at `size_pos`) and the
// T-node and S-node the key passes through in it, with the key bytes of
// their previous siblings.
struct HyperionStore::Frame {
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

namespace {

enum class Loss { kTValue, kSValue, kSChild };

}  // namespace

bool HyperionStore::Erase(std::string_view key) {
  if (key.empty()) {
    if (!has_empty_key_) return false;
    undo_.FreeLater(empty_value_);
    empty_value_ = HyperionPointer();
    has_empty_key_ = false;
    --size_;
    return true;
  }
  if (root_.IsNull()) return false;

  LevelPath levels{Level{.hp = root_}};
  absl::InlinedVector<Frame, 8> frames;
  Region region = hyperion::WholeContainer(Base(levels, 0));
  Frame frame;
  size_t depth = 0;
  Loss loss;
  HyperionPointer freed_chunk;  // an external value's, freed at the end
  while (true) {
    const uint8_t* buf = region.buf;
    const SiblingSearch ts = hyperion::FindT(region, uint8_t(key[depth]));
    if (!ts.found) return false;
    if (!frame.embedded) {
      levels.back().t_pos = ts.pos;
      levels.back().t_prev = ts.prev;
      levels.back().t_steps = ts.steps;
    }
    frame.t_pos = ts.pos;
    frame.t_prev = ts.prev;
    if (key.size() == depth + 1) {
      if (!EndsKey(ts.node.type)) return false;
      frames.push_back(frame);
      loss = Loss::kTValue;
      break;
    }
    const SiblingSearch ss =
        hyperion::FindS(region, ts.node, uint8_t(key[depth + 1]));
    if (!ss.found) return false;
    frame.has_s = true;
    frame.s_pos = ss.pos;
    frame.s_prev = ss.prev;
    frames.push_back(frame);
    depth += 2;
    const Node& sn = ss.node;
    if (key.size() == depth) {
      if (!EndsKey(sn.type)) return false;
      loss = Loss::kSValue;
      break;
    }
    if (sn.child == ChildKind::kNone) return false;
    if (sn.child == ChildKind::kSuffix) {
      const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, sn.child_pos);
      if (sx.bytes != key.substr(depth)) return false;
      freed_chunk = ExternalChunk(buf + sx.value_pos, sx.value_bytes);
      loss = Loss::kSChild;
      break;
    }
    frame = Frame();
    frame.depth = depth;
    if (sn.child == ChildKind::kPointer) {
      levels.push_back(ChildLevel(buf, sn.child_pos, key, depth));
      frame.level = levels.size() - 1;
      region = hyperion::WholeContainer(Base(levels, frame.level));
    } else {
      frame.level = levels.size() - 1;
      frame.embedded = true;
      frame.size_pos = sn.child_pos;
      region = hyperion::EmbeddedRegion(buf, sn.child_pos);
    }
  }

  // Found: every container on the path holds one key less.
  AddToCounts(levels, -1);
  --size_;

  // From the deepest frame up, while the region a removal leaves is empty.
  // Only a freed real container moves the walk to the level above, and a
  // freed level needs no upkeep, so FinishLevel can wait until the end.
  for (size_t f = frames.size(); f-- > 0;) {
    const Frame fr = frames[f];
    // Any deeper level left behind was freed (and marked finished) above.
    assert(levels.size() <= fr.level + 1 || levels[fr.level + 1].finished);
    levels.resize(fr.level + 1);
    uint8_t* buf = Base(levels, fr.level);
    EmbedPath embeds;
    for (size_t g = 1; g <= f; ++g) {
      if (frames[g].level == fr.level && frames[g].embedded) {
        embeds.push_back(
            Embed{frames[g].size_pos, frames[g - 1].s_pos, frames[g].depth});
      }
    }
    const Region r = fr.embedded ? hyperion::EmbeddedRegion(buf, fr.size_pos)
                                 : hyperion::WholeContainer(buf);
    const Node t = DecodeNode(buf, fr.t_pos, fr.t_prev);
    // Walked, not jumped: a deeper frame may have changed t's children.
    const uint32_t t_end = hyperion::SkipSChildren(buf, t.end, r.end);
    // The path's T-node loses an S-child, or goes: its jump structures are
    // measured anew (FinishLevel).
    auto mark_removal = [&] {
      if (!fr.embedded) levels[fr.level].s_removed = true;
    };
    // Removes the T-node and its children, re-encoding the next T-node.
    auto remove_t = [&] {
      mark_removal();
      std::string bytes;
      uint32_t old_len = t_end - t.pos;
      if (t_end < r.end && buf[t_end] != 0) {
        const Node next = DecodeNode(buf, t_end, t.key);
        bytes = Reencoded(next, fr.t_prev);
        old_len += next.head_bytes();
      }
      Splice(&levels, &embeds, t.pos, old_len, bytes);
    };
    if (loss == Loss::kTValue) {
      freed_chunk = ExternalChunk(buf, t);
      if (t_end > t.end) {
        Splice(&levels, &embeds, t.pos, t.end - t.pos,
               Rewritten(buf, t, NodeType::kInner, {}, ChildKind::kNone, {}));
      } else {
        remove_t();
      }
    } else {
      const Node s = DecodeNode(buf, fr.s_pos, fr.s_prev);
      NodeType type = s.type;
      ChildKind child = s.child;
      std::string_view child_bytes(
          reinterpret_cast<const char*>(buf + s.child_pos), s.child_bytes);
      if (loss == Loss::kSValue) {
        freed_chunk = ExternalChunk(buf, s);
        type = NodeType::kInner;
      } else {
        child = ChildKind::kNone;
        child_bytes = {};
      }
      if (type != NodeType::kInner || child != ChildKind::kNone) {
        const hyperion::TaggedValue value(buf, s);
        Splice(&levels, &embeds, s.pos, s.end - s.pos,
               Rewritten(buf, s, type, value.view(), child, child_bytes));
      } else if (t.type == NodeType::kInner && s.pos == t.end &&
                 (s.end >= r.end || buf[s.end] == 0 ||
                  !hyperion::IsS(buf[s.end]))) {
        remove_t();  // the T-node's only child, and no key ends at it
      } else {
        mark_removal();
        std::string bytes;
        uint32_t old_len = s.end - s.pos;
        if (s.end < r.end && buf[s.end] != 0 && hyperion::IsS(buf[s.end])) {
          const Node next = DecodeNode(buf, s.end, s.key);
          bytes = Reencoded(next, fr.s_prev);
          old_len += next.head_bytes();
        }
        Splice(&levels, &embeds, s.pos, old_len, bytes);
      }
    }
    // Did the region empty? Then the S-node above loses its child.
    buf = Base(levels, fr.level);
    const bool empty =
        fr.embedded ? buf[fr.size_pos] == 1
                    : hyperion::ContainerUsed(buf) == hyperion::NodesBegin(buf);
    if (!empty) break;
    if (!fr.embedded && !levels[fr.level].split.IsNull()) {
      // Other pieces remain: the S-node above keeps its child.
      RemovePiece(&levels, fr.level);
      break;
    }
    loss = Loss::kSChild;
    if (!fr.embedded) {
      undo_.FreeLater(levels[fr.level].hp);
      if (fr.level == 0) root_ = HyperionPointer();
      levels[fr.level].finished = true;
    }
  }
  // Deepest first: the last level changed, then those only passed
  // through, whose T-nodes on the path hold one key less.
  for (size_t i = levels.size(); i-- > 0;) FinishLevel(&levels, i, key, -1);
  undo_.FreeLater(freed_chunk);
  return true;
}

}  // namespace kvlab::stage5
