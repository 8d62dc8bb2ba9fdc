// Put: descend container by container, two key bytes each, and change the
// deepest container reached with one splice. The cases, in the order the
// scan meets them: a missing T-node, a key ending at a T-node, a missing
// S-node, a key ending at an S-node, and an S-node whose child is absent, a
// pointer, an embedded container or a suffix (which splits).

#include <utility>

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::SiblingSearch;

namespace {

NodeType EndType(std::string_view value_enc) {
  return value_enc.empty() ? NodeType::kLeaf : NodeType::kLeafValue;
}

}  // namespace

bool HyperionStore::Insert(std::string_view key, std::string_view value) {
  if (key.empty()) {
    const bool replaced = has_empty_key_;
    undo_.FreeLater(empty_value_);
    empty_value_ = value.empty() ? HyperionPointer() : NewChunkWith(value);
    has_empty_key_ = true;
    if (!replaced) ++size_;
    return replaced;
  }

  EncodedValue encoded;
  EncodeValue(value, &encoded);
  const std::string_view value_enc = encoded.view();
  if (root_.IsNull()) {
    const Entry entry{key, value_enc};
    std::string payload;
    BuildTLevel(&entry, 1, 0, 0, &payload);
    root_ = NewContainer(WithJumpSuccessors(payload));
    ++size_;
    return false;
  }

  LevelPath levels{Level{.hp = root_}};
  EmbedPath embeds;
  Region region = hyperion::WholeContainer(Base(levels, 0));
  size_t depth = 0;
  bool in_embedded = false;  // region is an embedded container
  // The old value's external chunk, freed once the new one is in place.
  HyperionPointer old_chunk;
  bool replaced = false;
  while (true) {
    const uint8_t* buf = region.buf;
    const uint8_t t = uint8_t(key[depth]);
    const SiblingSearch ts = hyperion::FindT(region, t);
    if (!in_embedded) {
      levels.back().t_pos = ts.pos;
      levels.back().t_prev = ts.prev;
      levels.back().t_steps = ts.steps;
    }
    if (!ts.found) {
      const Entry entry{key.substr(depth), value_enc};
      std::string bytes;
      BuildTLevel(&entry, 1, 0, ts.prev, &bytes);
      InsertSibling(&levels, &embeds, ts, t, std::move(bytes));
      break;
    }
    const Node tn = ts.node;
    if (key.size() == depth + 1) {
      replaced = EndsKey(tn.type);
      old_chunk = ExternalChunk(buf, tn);
      Splice(&levels, &embeds, tn.pos, tn.end - tn.pos,
             Rewritten(buf, tn, EndType(value_enc), value_enc, ChildKind::kNone,
                       {}));
      break;
    }
    const uint8_t s = uint8_t(key[depth + 1]);
    const SiblingSearch ss = hyperion::FindS(region, tn, s);
    if (!ss.found) {
      if (!in_embedded) {
        levels.back().s_added = true;
        levels.back().s_offset = ss.pos - tn.end;
      }
      const Entry entry{key.substr(depth + 1), value_enc};
      std::string bytes;
      BuildSLevel(&entry, 1, 0, ss.prev, &bytes);
      InsertSibling(&levels, &embeds, ss, s, std::move(bytes));
      break;
    }
    const Node sn = ss.node;
    depth += 2;
    const std::string_view child_bytes(
        reinterpret_cast<const char*>(buf + sn.child_pos), sn.child_bytes);
    if (key.size() == depth) {
      replaced = EndsKey(sn.type);
      old_chunk = ExternalChunk(buf, sn);
      Splice(&levels, &embeds, sn.pos, sn.end - sn.pos,
             Rewritten(buf, sn, EndType(value_enc), value_enc, sn.child,
                       child_bytes));
      break;
    }
    const std::string_view rest = key.substr(depth);
    if (sn.child == ChildKind::kPointer) {
      levels.push_back(ChildLevel(buf, sn.child_pos, key, depth));
      embeds.clear();
      region = hyperion::WholeContainer(Base(levels, levels.size() - 1));
      in_embedded = false;
      continue;
    }
    if (sn.child == ChildKind::kEmbedded) {
      embeds.push_back(Embed{sn.child_pos, sn.pos, depth});
      region = hyperion::EmbeddedRegion(buf, sn.child_pos);
      in_embedded = true;
      continue;
    }
    std::string child;
    ChildKind kind;
    if (sn.child == ChildKind::kNone) {
      const Entry entry{rest, value_enc};
      kind = BuildChild(&entry, 1, 0, &child);
    } else {  // a suffix: replace its value or split it
      const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, sn.child_pos);
      const std::string suffix(sx.bytes);
      const std::string suffix_value(
          reinterpret_cast<const char*>(buf + sx.value_pos), sx.value_bytes);
      if (suffix == rest) {
        replaced = true;
        old_chunk = ExternalChunk(buf + sx.value_pos, sx.value_bytes);
        std::string bytes;
        hyperion::AppendSuffix(&bytes, rest, value_enc);
        Splice(&levels, &embeds, sn.child_pos, sn.child_bytes, bytes);
        break;
      }
      Entry entries[2] = {{suffix, suffix_value}, {rest, value_enc}};
      if (rest < suffix) std::swap(entries[0], entries[1]);
      kind = BuildChild(entries, 2, 0, &child);
    }
    // BuildChild may allocate; chunks never move on another's allocation,
    // but resolve again rather than rely on it.
    const uint8_t* base = Base(levels, levels.size() - 1);
    const hyperion::TaggedValue value_kept(base, sn);
    Splice(&levels, &embeds, sn.pos, sn.end - sn.pos,
           Rewritten(base, sn, sn.type, value_kept.view(), kind, child));
    break;
  }
  if (!replaced) {
    // A new key: every container on the path holds one more.
    AddToCounts(levels, 1);
    ++size_;
  }
  // A level's pointer lives in the level above: split it before that one
  // can move.
  for (size_t i = levels.size(); i-- > 0;) {
    FinishLevel(&levels, i, key, replaced ? 0 : 1);
    if (levels[i].changed) SplitIfLarge(&levels, i);
  }
  undo_.FreeLater(old_chunk);
  return replaced;
}

}  // namespace kvlab::stage5
