// The invariant checker (hyperion_trie.h lists the invariants). Tests run
// it after every operation of small randomized runs.

#include <algorithm>
#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hyperion_trie.h"
#include "jump_table.h"
#include "tnode_table.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;

namespace {

// The checker's error: Internal, naming the first violation found.
absl::Status Violation(const std::string& what) {
  return absl::InternalError(what);
}
// A violation found below, named with where it was found.
absl::Status Violation(const absl::Status& below, const std::string& prefix,
                       const std::string& suffix) {
  return absl::InternalError(absl::StrCat(prefix, below.message(), suffix));
}

// Checks the value encoding at `enc` within [enc, limit).
absl::Status CheckValue(const MemoryManager& mm, const uint8_t* enc,
                        uint32_t inline_limit, std::vector<uint64_t>* chunks) {
  if (enc[0] != 0) {
    if (enc[0] > inline_limit) {
      return Violation(absl::StrCat("inline value of ", enc[0],
                                    " bytes, limit ", inline_limit));
    }
    return absl::OkStatus();
  }
  const HyperionPointer hp = hyperion::ExternalValue(enc);
  if (hp.IsNull()) return Violation("null external value");
  const size_t size = mm.Size(hp);
  if (size <= inline_limit || size > kMaxValueSize) {
    return Violation(absl::StrCat("external value of ", size, " bytes"));
  }
  chunks->push_back(hp.raw());
  return absl::OkStatus();
}

}  // namespace

// One run of CheckInvariants: the checks of the invariants hyperion_trie.h
// lists, over the trie it was made for, which must not change meanwhile.
class HyperionTrie::Checker {
 public:
  explicit Checker(const HyperionTrie& trie)
      : trie_(trie), mm_(trie.mm_), options_(trie.options_) {}

  // OK if every invariant holds, else Internal naming the first violation.
  absl::Status Run();

 private:
  // The checks return OK or Internal naming the first violation. The
  // nodes of `region` (an embedded container if `embedded`): adds the keys
  // below it to `*keys` and every chunk it references to `*chunks`.
  absl::Status CheckRegion(const Region& region, bool embedded, uint64_t* keys,
                           std::vector<uint64_t>* chunks);
  // S-node `s` of `region`, after a sibling with key byte `prev_s` (-1:
  // none), and its child.
  absl::Status CheckSNode(const Region& region, const Node& s, int prev_s,
                          uint64_t* keys, std::vector<uint64_t>* chunks);
  // The child of S-node `s` of `buf`: a container, split container,
  // embedded container or suffix, with the keys below it.
  absl::Status CheckChild(const uint8_t* buf, const Node& s, uint64_t* keys,
                          std::vector<uint64_t>* chunks);
  // T-node `t`'s jump successor and T-node jump table.
  absl::Status CheckJumpSuccessor(const uint8_t* buf, const Node& t,
                                  const Region& region, bool embedded);
  absl::Status CheckJumpTable(const Region& region);
  // A child container's header, chunk, free tail and nodes, `keys` the
  // keys below it.
  absl::Status CheckChildContainer(HyperionPointer hp, uint64_t* keys,
                                   std::vector<uint64_t>* chunks);
  absl::Status CheckSplit(HyperionPointer hp, uint64_t* keys,
                          std::vector<uint64_t>* chunks);

  const HyperionTrie& trie_;
  const MemoryManager& mm_;
  const HyperionOptions& options_;
};

absl::Status HyperionTrie::Checker::CheckJumpSuccessor(const uint8_t* buf,
                                                       const Node& t,
                                                       const Region& region,
                                                       bool embedded) {
  const bool present = hyperion::HasJumpSuccessor(t.header);
  const bool has_table = hyperion::HasTNodeTable(t.header);
  if (embedded) {
    if (present) return Violation("jump successor in embedded container");
    if (has_table) return Violation("T-node jump table in embedded container");
    return absl::OkStatus();
  }
  const hyperion::SChildren children =
      hyperion::MeasureSChildren(buf, t, region.end);
  const uint32_t end = children.end;
  if (present != (children.count > options_.jump_successor)) {
    return Violation(
        absl::StrCat(present ? "jump successor" : "no jump successor",
                     " on a T-node with ", children.count, " children"));
  }
  const uint64_t keys = hyperion::CountKeys(Region{buf, t.pos, end});
  if (has_table != WantsTNodeTable(trie_.options_, children.count, keys)) {
    return Violation(absl::StrCat(
        has_table ? "T-node jump table" : "no T-node jump table",
        " on a T-node with ", children.count, " children and ", keys, " keys"));
  }
  if (has_table) {
    const std::string want = hyperion::TNodeTableFor(buf, t.end, end);
    for (uint32_t e = 0; e < hyperion::kTNodeTableEntries; ++e) {
      const auto* w = reinterpret_cast<const uint8_t*>(want.data());
      const hyperion::TNodeTableEntry got =
          hyperion::LoadTNodeTableEntry(buf + t.table_pos, e);
      const hyperion::TNodeTableEntry expected =
          hyperion::LoadTNodeTableEntry(w, e);
      if (got.offset != expected.offset || got.key != expected.key ||
          got.keys_before != expected.keys_before) {
        return Violation(absl::StrCat(
            "T-node jump table entry ", e, " (+", got.offset, ", key ", got.key,
            ", ", got.keys_before, " keys before) but the children give (+",
            expected.offset, ", key ", expected.key, ", ", expected.keys_before,
            ")"));
      }
    }
  }
  if (!present) return absl::OkStatus();
  const uint32_t bytes = end - t.value_pos;
  const uint32_t stored = hyperion::LoadJump(buf + t.jump_pos);
  if (stored != (bytes > 0xffff ? 0 : bytes)) {
    return Violation(absl::StrCat("jump successor ", stored, " but ", bytes,
                                  " bytes to the next T-node"));
  }
  if (hyperion::LoadJumpKeys(buf + t.jump_pos) != keys) {
    return Violation(absl::StrCat("jump successor counts ",
                                  hyperion::LoadJumpKeys(buf + t.jump_pos),
                                  " keys but ", keys, " are below"));
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::CheckJumpTable(const Region& region) {
  const uint8_t* c = region.buf;
  // Every T-node's offset, key byte and the keys before it, counted anew.
  std::map<uint32_t, std::pair<uint8_t, uint64_t>> t_nodes;
  uint64_t keys = 0;
  // By hand, not by RegionCursor: the checker trusts no jump successor.
  uint32_t pos = region.begin;
  uint8_t prev = 0;
  while (pos < region.end && hyperion::IsTNodeAt(c, pos)) {
    const Node t = DecodeNode(c, pos, prev);
    const uint32_t end = hyperion::SkipSChildren(c, t.end, region.end);
    t_nodes[pos] = {t.key, keys};
    keys += hyperion::CountKeys(Region{c, pos, end, 0});
    prev = t.key;
    pos = end;
  }
  bool unused_seen = false;
  int last_key = -1;
  for (uint32_t i = 0; i < region.table_entries; ++i) {
    const hyperion::JumpTableEntry e = hyperion::LoadJumpTableEntry(c, i);
    const std::string at = absl::StrCat("jump table entry ", i);
    if (e.offset == 0) {
      if (e.key != 0 || e.keys_before != 0) {
        return Violation(at + ": unused but not zero");
      }
      unused_seen = true;
      continue;
    }
    if (unused_seen) return Violation(at + ": used after an unused one");
    if (int{e.key} <= last_key) return Violation(at + ": keys out of order");
    last_key = e.key;
    const auto t = t_nodes.find(e.offset);
    if (t == t_nodes.end()) {
      return Violation(
          absl::StrCat(at, ": offset ", e.offset, " is not a T-node"));
    }
    if (t->second.first != e.key) {
      return Violation(absl::StrCat(at, ": key ", e.key,
                                    " but the T-node's is ", t->second.first));
    }
    if (t->second.second != e.keys_before) {
      return Violation(absl::StrCat(at, ": ", e.keys_before,
                                    " keys before but ", t->second.second));
    }
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::CheckRegion(const Region& region,
                                                bool embedded, uint64_t* keys,
                                                std::vector<uint64_t>* chunks) {
  const uint8_t* buf = region.buf;
  auto where = [&](uint32_t pos) { return absl::StrCat(" at offset ", pos); };
  if (region.begin >= region.end) {
    return Violation(embedded ? "empty embedded container" : "empty container");
  }
  if (!embedded) {
    if (absl::Status e = CheckJumpTable(region); !e.ok()) return e;
  }
  // By hand, not by RegionCursor: it reports the zero bytes and stray
  // S-nodes a cursor would stop at or take as they come.
  uint32_t pos = region.begin;
  int prev_t = -1;
  while (pos < region.end) {
    if (buf[pos] == 0) {
      return Violation("zero byte inside the nodes" + where(pos));
    }
    if (hyperion::IsS(buf[pos]))
      return Violation("S-node without T-node" + where(pos));
    const Node t = DecodeNode(buf, pos, prev_t < 0 ? 0 : uint8_t(prev_t));
    if (t.type == NodeType::kInvalid) {
      return Violation("invalid T-node" + where(pos));
    }
    if (prev_t >= 0 && t.key <= prev_t) {
      return Violation("T-nodes out of order" + where(pos));
    }
    if (hyperion::DeltaOf(t.header) !=
        hyperion::DeltaFor(prev_t < 0 ? 0 : uint8_t(prev_t), t.key)) {
      return Violation("non-canonical T delta" + where(pos));
    }
    if (t.end > region.end) return Violation("T-node overruns" + where(pos));
    if (absl::Status e = CheckJumpSuccessor(buf, t, region, embedded);
        !e.ok()) {
      return Violation(e, "", where(pos));
    }
    if (t.type == NodeType::kLeafValue) {
      if (absl::Status e =
              CheckValue(mm_, buf + t.value_pos, options_.inline_value, chunks);
          !e.ok()) {
        return Violation(e, "", where(pos));
      }
    }
    if (EndsKey(t.type)) ++*keys;
    prev_t = t.key;
    pos = t.end;
    int prev_s = -1;
    while (pos < region.end && buf[pos] != 0 && hyperion::IsS(buf[pos])) {
      const Node s = DecodeNode(buf, pos, prev_s < 0 ? 0 : uint8_t(prev_s));
      if (absl::Status e = CheckSNode(region, s, prev_s, keys, chunks);
          !e.ok()) {
        return e;
      }
      prev_s = s.key;
      pos = s.end;
    }
    if (t.type == NodeType::kInner && pos == t.end) {
      return Violation("T-node leads to no key" + where(t.pos));
    }
  }
  if (pos != region.end) {
    return Violation("nodes overrun their region" + where(pos));
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::CheckSNode(const Region& region,
                                               const Node& s, int prev_s,
                                               uint64_t* keys,
                                               std::vector<uint64_t>* chunks) {
  const uint8_t* buf = region.buf;
  auto where = [&] { return absl::StrCat(" at offset ", s.pos); };
  if (s.type == NodeType::kInvalid) {
    return Violation("invalid S-node" + where());
  }
  if (prev_s >= 0 && s.key <= prev_s) {
    return Violation("S-nodes out of order" + where());
  }
  if (hyperion::DeltaOf(s.header) !=
      hyperion::DeltaFor(prev_s < 0 ? 0 : uint8_t(prev_s), s.key)) {
    return Violation("non-canonical S delta" + where());
  }
  if (s.end > region.end) return Violation("S-node overruns" + where());
  // (An inner S-node without a child is a bare leaf: TypeOf.)
  if (hyperion::IsBareLeaf(s.header)) {
    if (options_.inline_value < hyperion::kBareValueBytes) {
      return Violation("bare value past inline_value" + where());
    }
  } else if (s.type == NodeType::kLeafValue && s.child == ChildKind::kNone &&
             hyperion::IsBareable(hyperion::TaggedValue(buf, s).view())) {
    return Violation("8-byte value of a childless S-node not bare" + where());
  } else if (s.type == NodeType::kLeafValue) {
    if (absl::Status e =
            CheckValue(mm_, buf + s.value_pos, options_.inline_value, chunks);
        !e.ok()) {
      return Violation(e, "", where());
    }
  }
  if (EndsKey(s.type)) ++*keys;
  return CheckChild(buf, s, keys, chunks);
}

absl::Status HyperionTrie::Checker::CheckChild(const uint8_t* buf,
                                               const Node& s, uint64_t* keys,
                                               std::vector<uint64_t>* chunks) {
  auto where = [&] { return absl::StrCat(" at offset ", s.pos); };
  switch (s.child) {
    case ChildKind::kNone:
      break;
    case ChildKind::kPointer: {
      const HyperionPointer hp = HyperionPointer::Load(buf + s.child_pos);
      if (hp.IsNull()) return Violation("null child pointer" + where());
      uint64_t below = 0;
      const bool split =
          hyperion::IsSplit(static_cast<const uint8_t*>(mm_.Resolve(hp)));
      if (absl::Status e = split ? CheckSplit(hp, &below, chunks)
                                 : CheckChildContainer(hp, &below, chunks);
          !e.ok()) {
        return Violation(e, "", where());
      }
      const uint64_t count =
          hyperion::LoadCount(buf + s.child_pos + HyperionPointer::kBytes);
      if (count != below) {
        return Violation(absl::StrCat("child count ", count, " but ", below,
                                      " keys", where()));
      }
      *keys += below;
      break;
    }
    case ChildKind::kEmbedded: {
      const uint8_t size = buf[s.child_pos];
      if (size < 2 || size > options_.embed_limit) {
        return Violation(absl::StrCat("embedded size ", size, where()));
      }
      if (absl::Status e = CheckRegion(
              hyperion::EmbeddedRegion(buf, s.child_pos), true, keys, chunks);
          !e.ok()) {
        return Violation(e, "in embedded container: ", "");
      }
      break;
    }
    case ChildKind::kSuffix: {
      const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, s.child_pos);
      if (sx.bytes.empty()) return Violation("empty suffix" + where());
      if (sx.has_value) {
        if (absl::Status e = CheckValue(mm_, buf + sx.value_pos,
                                        options_.inline_value, chunks);
            !e.ok()) {
          return Violation(e, "", where());
        }
      }
      ++*keys;
      break;
    }
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::CheckChildContainer(
    HyperionPointer hp, uint64_t* keys, std::vector<uint64_t>* chunks) {
  chunks->push_back(hp.raw());
  const auto* c = static_cast<const uint8_t*>(mm_.Resolve(hp));
  const uint32_t size = hyperion::ContainerSize(c);
  if (size != mm_.Size(hp)) {
    return Violation("container size differs from its chunk");
  }
  if (hyperion::ContainerFree(c) >= hyperion::kContainerStep) {
    return Violation("container keeps 32+ free bytes");
  }
  if (options_.split_above == 0 && hyperion::ContainerSplitDelay(c) != 0) {
    return Violation("split delay without splits");
  }
  for (uint32_t i = hyperion::ContainerUsed(c); i < size; ++i) {
    if (c[i] != 0) return Violation("non-zero free byte in container");
  }
  if (absl::Status e =
          CheckRegion(hyperion::WholeContainer(c), false, keys, chunks);
      !e.ok()) {
    return Violation(e, "in container: ", "");
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::CheckSplit(HyperionPointer hp,
                                               uint64_t* keys,
                                               std::vector<uint64_t>* chunks) {
  chunks->push_back(hp.raw());
  const auto* d = static_cast<const uint8_t*>(mm_.Resolve(hp));
  const uint32_t n = hyperion::PieceCount(d);
  if (options_.split_above == 0) {
    return Violation("split container without splits");
  }
  if (n < 2 || n > hyperion::kMaxPieces) {
    return Violation(absl::StrCat("split container of ", n, " pieces"));
  }
  if (mm_.Size(hp) != hyperion::SplitDirectoryBytes(n)) {
    return Violation("split directory size differs from its chunk");
  }
  for (uint32_t i = 0; i < hyperion::kSplitHeaderBytes; ++i) {
    if (i != 4 && d[i] != 0) {
      return Violation("split directory header not zero");
    }
  }
  if (hyperion::PieceKey(d, 0) != 0) {
    return Violation("first piece's key not 0");
  }
  for (uint32_t j = 0; j < n; ++j) {
    const uint32_t low = hyperion::PieceKey(d, j);
    const uint32_t high = j + 1 < n ? hyperion::PieceKey(d, j + 1) : 256;
    if (low >= high) return Violation("split directory keys not increasing");
    const HyperionPointer piece = hyperion::PiecePointer(d, j);
    if (piece.IsNull()) return Violation("null piece pointer");
    const auto* c = static_cast<const uint8_t*>(mm_.Resolve(piece));
    if (hyperion::IsSplit(c)) return Violation("a piece is itself split");
    uint64_t below = 0;
    if (absl::Status e = CheckChildContainer(piece, &below, chunks); !e.ok()) {
      return Violation(e, absl::StrCat("piece ", j, ": "), "");
    }
    if (below != hyperion::PieceKeys(d, j)) {
      return Violation(absl::StrCat("piece ", j, " count ",
                                    hyperion::PieceKeys(d, j), " but ", below,
                                    " keys"));
    }
    const Region r = hyperion::WholeContainer(c);
    if (r.empty()) return Violation(absl::StrCat("piece ", j, " is empty"));
    for (hyperion::RegionCursor it(r); !it.done(); it.NextT()) {
      const uint8_t t = it.node().key;
      if (t < low || t >= high) {
        return Violation(absl::StrCat("piece ", j, " of [", low, ", ", high,
                                      ") holds T-node ", t));
      }
    }
    *keys += below;
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::Checker::Run() {
  std::vector<uint64_t> chunks;
  uint64_t keys = 0;
  if (trie_.has_empty_key_) {
    ++keys;
    if (!trie_.empty_value_.IsNull()) {
      chunks.push_back(trie_.empty_value_.raw());
      if (mm_.Size(trie_.empty_value_) == 0) {
        return Violation("empty-key chunk of 0 bytes");
      }
    }
  } else if (!trie_.empty_value_.IsNull()) {
    return Violation("value for an absent empty key");
  }
  if (!trie_.root_.IsNull()) {
    if (absl::Status e = CheckChildContainer(trie_.root_, &keys, &chunks);
        !e.ok()) {
      return Violation(e, "root: ", "");
    }
  }
  if (keys != trie_.size_) {
    return Violation(
        absl::StrCat("Size() is ", trie_.size_, " but ", keys, " keys found"));
  }
  std::sort(chunks.begin(), chunks.end());
  if (std::adjacent_find(chunks.begin(), chunks.end()) != chunks.end()) {
    return Violation("a chunk is referenced twice");
  }
  const uint64_t live = mm_.Stats().Total().chunks_in_use;
  if (live != chunks.size()) {
    return Violation(absl::StrCat(live,
                                  " chunks live in the memory manager but ",
                                  chunks.size(), " reachable"));
  }
  if (const absl::Status mm = mm_.CheckConsistency(); !mm.ok()) {
    return Violation(absl::StrCat("memory manager: ", mm.message()));
  }
  return absl::OkStatus();
}

absl::Status HyperionTrie::CheckInvariants() const {
  return Checker(*this).Run();
}

}  // namespace kvlab::stage5
