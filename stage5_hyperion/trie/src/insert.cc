// Put: descend container by container, two key bytes each, and change the
// deepest container reached with one splice. The cases, in the order the
// scan meets them: a missing T-node, a key ending at a T-node, a missing
// S-node, a key ending at an S-node, and an S-node whose child is absent, a
// pointer, an embedded container or a suffix (which splits).

#include <cstring>
#include <utility>

#include "descent.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::AppendHeaderAndKey;
using hyperion::ChildKind;
using hyperion::Descent;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::Stop;

namespace {

// The type of the node where a key ends: with or without an inline value.
NodeType EndType(std::string_view value_enc) {
  return value_enc.empty() ? NodeType::kLeaf : NodeType::kLeafValue;
}

}  // namespace

// A Put's path: it records in the write the real containers it passes
// (levels_, each with the T-node on the path) and the embedded containers
// enclosing the region it is in (embeds_, from the deepest real container
// down).
struct TrieWrite::InsertPath : hyperion::PathBase {
  TrieWrite& write;
  std::string_view key;
  bool in_embedded = false;  // the region is an embedded container

  void SawT(const Descent& d) {
    if (!in_embedded) RecordT(&write.levels_.back(), d.t);
  }
  const uint8_t* EnterPointer(const uint8_t* buf, const Node& s, size_t depth) {
    write.levels_.push_back(write.ChildLevel(buf, s.child_pos, key, depth));
    write.embeds_.clear();
    in_embedded = false;
    return write.Base(write.levels_.size() - 1);
  }
  void EnterEmbedded(const uint8_t*, const Node& s, size_t depth) {
    write.embeds_.push_back(Embed{s.child_pos, s.pos, depth});
    in_embedded = true;
  }
};

bool TrieWrite::InsertEmptyKey(std::string_view value) {
  const bool replaced = trie_.has_empty_key_;
  undo_.FreeLater(trie_.empty_value_);
  trie_.empty_value_ = value.empty() ? HyperionPointer() : NewChunkWith(value);
  trie_.has_empty_key_ = true;
  if (!replaced) ++trie_.size_;
  return replaced;
}

void TrieWrite::InsertFirst(std::string_view key, std::string_view value_enc) {
  const Entry entry{key, value_enc};
  std::string payload;
  BuildTLevel(&entry, 1, 0, 0, &payload);
  trie_.root_ = NewContainer(WithJumpSuccessors(payload));
  ++trie_.size_;
}

bool TrieWrite::Insert(std::string_view key, std::string_view value) {
  if (key.empty()) return InsertEmptyKey(value);
  EncodedValue encoded;
  EncodeValue(value, &encoded);
  const std::string_view value_enc = encoded.view();
  if (trie_.root_.IsNull()) {
    InsertFirst(key, value_enc);
    return false;
  }

  levels_.push_back(Level{.hp = trie_.root_});
  InsertPath path{{}, *this, key};
  const Descent d =
      hyperion::Descend(hyperion::WholeContainer(Base(0)), key, path);
  const uint8_t* buf = d.region.buf;
  // The old value's external chunk, freed once the new one is in place.
  HyperionPointer old_chunk;
  bool replaced = false;
  switch (d.stop) {
    case Stop::kNoT: {
      const Entry entry{key.substr(d.depth), value_enc};
      std::string bytes;
      BuildTLevel(&entry, 1, 0, d.t.prev, &bytes);
      InsertSibling(d.t, uint8_t(key[d.depth]), std::move(bytes));
      break;
    }
    case Stop::kEndsAtT: {
      const Node& tn = d.t.node;
      replaced = EndsKey(tn.type);
      old_chunk = hyperion::ExternalChunk(buf, tn);
      Splice(tn.pos, tn.end - tn.pos,
             hyperion::Rewritten(buf, tn, EndType(value_enc), value_enc,
                                 ChildKind::kNone, {}));
      break;
    }
    case Stop::kNoS: {
      if (!path.in_embedded) {
        levels_.back().s_added = true;
        levels_.back().s_offset = d.s.pos - d.t.node.end;
      }
      const Entry entry{key.substr(d.depth + 1), value_enc};
      std::string bytes;
      BuildSLevel(&entry, 1, 0, d.s.prev, &bytes);
      InsertSibling(d.s, uint8_t(key[d.depth + 1]), std::move(bytes));
      break;
    }
    case Stop::kEndsAtS: {
      const Node& sn = d.s.node;
      const std::string_view child_bytes(
          reinterpret_cast<const char*>(buf + sn.child_pos), sn.child_bytes);
      replaced = EndsKey(sn.type);
      old_chunk = hyperion::ExternalChunk(buf, sn);
      Splice(sn.pos, sn.end - sn.pos,
             hyperion::Rewritten(buf, sn, EndType(value_enc), value_enc,
                                 sn.child, child_bytes));
      break;
    }
    case Stop::kNoChild:
    case Stop::kSuffix:
      replaced = AddBelowS(d, key.substr(d.depth + 2), value_enc, &old_chunk);
      break;
  }
  if (!replaced) {
    // A new key: every container on the path holds one more.
    AddToCounts(1);
    ++trie_.size_;
  }
  // A level's pointer lives in the level above: split it before that one
  // can move.
  for (size_t i = levels_.size(); i-- > 0;) {
    FinishLevel(i, key, replaced ? 0 : 1);
    if (levels_[i].changed) SplitIfLarge(i);
  }
  undo_.FreeLater(old_chunk);
  return replaced;
}

// The key goes on below S-node d.s.node by `rest`: a new child for a node
// without one, else a new value for the suffix `rest` or a split of the
// suffix into a child holding both keys.
bool TrieWrite::AddBelowS(const hyperion::Descent& d, std::string_view rest,
                          std::string_view value_enc,
                          HyperionPointer* old_chunk) {
  const uint8_t* buf = d.region.buf;
  const Node& sn = d.s.node;
  std::string child;
  ChildKind kind;
  if (d.stop == Stop::kNoChild) {
    const Entry entry{rest, value_enc};
    kind = BuildChild(&entry, 1, 0, &child);
  } else {
    const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, sn.child_pos);
    const std::string suffix(sx.bytes);
    const std::string suffix_value(
        reinterpret_cast<const char*>(buf + sx.value_pos), sx.value_bytes);
    if (suffix == rest) {
      *old_chunk = hyperion::ExternalChunk(buf + sx.value_pos, sx.value_bytes);
      std::string bytes;
      hyperion::AppendSuffix(&bytes, rest, value_enc);
      Splice(sn.child_pos, sn.child_bytes, bytes);
      return true;
    }
    Entry entries[2] = {{suffix, suffix_value}, {rest, value_enc}};
    if (rest < suffix) std::swap(entries[0], entries[1]);
    kind = BuildChild(entries, 2, 0, &child);
  }
  // BuildChild may allocate; chunks never move on another's allocation,
  // but resolve again rather than rely on it.
  const uint8_t* base = Base(levels_.size() - 1);
  const hyperion::TaggedValue value_kept(base, sn);
  Splice(
      sn.pos, sn.end - sn.pos,
      hyperion::Rewritten(base, sn, sn.type, value_kept.view(), kind, child));
  return false;
}

// Building new nodes: the bytes for a set of key remainders, as T-nodes,
// S-nodes and children, used by every insertion and by suffix splits.

void TrieWrite::BuildTLevel(const Entry* entries, size_t n, size_t depth,
                            uint8_t prev, std::string* out) {
  // handout: TrieWrite::BuildTLevel -> #every-change-is-a-splice
  size_t i = 0;
  while (i < n) {
    const uint8_t t = uint8_t(entries[i].key[depth]);
    size_t j = i;
    while (j < n && uint8_t(entries[j].key[depth]) == t) ++j;
    // Sorted: a key ending at this byte comes first in its group.
    NodeType type = NodeType::kInner;
    size_t k = i;
    if (entries[i].key.size() == depth + 1) {
      type = EndType(entries[i].value_enc);
      k = i + 1;
    }
    AppendHeaderAndKey(out, type, /*s=*/false, prev, t, 0);
    if (type == NodeType::kLeafValue) out->append(entries[i].value_enc);
    if (k < j) BuildSLevel(entries + k, j - k, depth + 1, 0, out);
    prev = t;
    i = j;
  }
  // handout: end
}

void TrieWrite::BuildSLevel(const Entry* entries, size_t n, size_t depth,
                            uint8_t prev, std::string* out) {
  // handout: TrieWrite::BuildSLevel -> #every-change-is-a-splice
  size_t i = 0;
  while (i < n) {
    const uint8_t s = uint8_t(entries[i].key[depth]);
    size_t j = i;
    while (j < n && uint8_t(entries[j].key[depth]) == s) ++j;
    NodeType type = NodeType::kInner;
    size_t k = i;
    if (entries[i].key.size() == depth + 1) {
      type = EndType(entries[i].value_enc);
      k = i + 1;
    }
    std::string child;
    ChildKind kind = ChildKind::kNone;
    if (k < j) kind = BuildChild(entries + k, j - k, depth + 1, &child);
    hyperion::AppendSNode(out, type, prev, s, kind, entries[i].value_enc);
    out->append(child);
    prev = s;
    i = j;
  }
  // handout: end
}

ChildKind TrieWrite::BuildChild(const Entry* entries, size_t n, size_t depth,
                                std::string* out) {
  // handout: TrieWrite::BuildChild -> #embedded-containers-and-ejection
  if (n == 1 && entries[0].key.size() - depth <= hyperion::kMaxSuffix) {
    hyperion::AppendSuffix(out, entries[0].key.substr(depth),
                           entries[0].value_enc);
    return ChildKind::kSuffix;
  }
  std::string payload;
  BuildTLevel(entries, n, depth, 0, &payload);
  if (payload.size() + 1 <= options_.embed_limit) {
    out->push_back(char(payload.size() + 1));
    out->append(payload);
    return ChildKind::kEmbedded;
  }
  hyperion::AppendPointerChild(out, NewContainer(WithJumpSuccessors(payload)),
                               n);
  return ChildKind::kPointer;
  // handout: end
}

HyperionPointer TrieWrite::NewContainer(std::string_view payload, Fit fit) {
  const uint32_t used = uint32_t(hyperion::kHeaderBytes + payload.size());
  const uint32_t size = hyperion::RoundUpToStep(used);
  const HyperionPointer hp = AllocateChunk(size, fit);
  auto* c = static_cast<uint8_t*>(mm_.Resolve(hp));
  hyperion::StoreHeader(c, size, size - used);
  std::memcpy(c + hyperion::kHeaderBytes, payload.data(), payload.size());
  return hp;
}

}  // namespace kvlab::stage5
