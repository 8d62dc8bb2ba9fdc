// Scan: the nodes in pre-order are the keys in order. A scan from a start
// key descends to it like Get (ScanFrom, one path of nodes); everything
// after that path is in range and left to the walk (Walk), which compares
// no bounds and reads every byte once, where it lies.
//
// The walk is one loop over an explicit stack of levels rather than a
// recursion per container level and child: the calls cost more than the
// decoding (callgrind, 200,000 gcide3 keys: 322 instructions per key for
// the recursive walk, 175 for this loop, the visitor included). Each key
// is rebuilt in one fixed buffer: a level writes its T-node's key byte at
// `base` and its S-node's at `base + 1`, and a suffix goes after them.
//
// The one cache miss the walk cannot avoid by reading in order is a pointer
// child's container; it asks for the next one early (PrefetchNextChild).

#include <cstring>

#include "descent.h"
#include "hyperion_trie.h"
#include "short_copy.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::Descent;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::Stop;

namespace {

// The key byte of the node whose header is at `*p`, given its previous
// sibling's `prev`; steps `*p` past the header and any explicit key byte.
inline uint8_t ReadKeyByte(const uint8_t** p, uint8_t prev) {
  const uint8_t delta = hyperion::DeltaOf(**p);
  if (delta != 0) {
    *p += 1;
    return uint8_t(prev + delta);
  }
  const uint8_t key = (*p)[1];
  *p += 2;
  return key;
}

}  // namespace

// Spans have no default member initialisers: they would zero the whole
// stack (20 KB) on every Scan, and each push writes all their fields.
inline void HyperionTrie::ScanState::Enter(const uint8_t* p, const uint8_t* end,
                                           uint32_t base, uint8_t prev_t,
                                           uint8_t prev_s, const uint8_t* split,
                                           uint32_t next_piece) {
  Push(Span{p, end, base, prev_t, prev_s, split, next_piece});
}

// Member by member: a whole-struct copy has g++ assemble the walk's span
// (held in registers) in a stack temporary with narrow stores and read it
// back with 16-byte loads, which wait for the stores to retire instead of
// being forwarded from them.
inline void HyperionTrie::ScanState::Push(const Span& span) {
  assert(depth < std::size(levels));
  Span& top = levels[depth++];
  top.p = span.p;
  top.end = span.end;
  top.base = span.base;
  top.prev_t = span.prev_t;
  top.prev_s = span.prev_s;
  top.split = span.split;
  top.next_piece = span.next_piece;
}

uint64_t HyperionTrie::Scan(std::string_view start, ScanVisitor visitor) const {
  uint64_t visited = 0;
  if (has_empty_key_ && start.empty()) {
    ++visited;
    const std::string_view value(
        static_cast<const char*>(mm_.Resolve(empty_value_)),
        mm_.Size(empty_value_));
    if (!visitor(std::string_view(), value)) return visited;
  }
  if (root_.IsNull()) return visited;
  ScanState state(visitor);
  const Region root =
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_)));
  if (start.empty()) {
    state.Enter(root.buf + root.begin, root.buf + root.end, 0);
  } else if (!ScanFrom(root, start, &state)) {
    return visited + state.visited;
  }
  Walk(&state);
  return visited + state.visited;
}

// Inline: the walk makes this call for every key.
inline bool HyperionTrie::Emit(std::string_view value, ScanState* state) const {
  ++state->visited;
  return state->visitor(state->Key(), value);
}

// Inline, as Emit: the walk reads every value through it.
inline std::string_view HyperionTrie::LeafValue(uint8_t header,
                                                const uint8_t** p) const {
  std::string_view value;
  if (hyperion::IsBareLeaf(header)) {
    value = hyperion::BareValue(*p);
    *p += hyperion::kBareValueBytes;
  } else if (hyperion::TypeOf(header) == NodeType::kLeafValue) {
    value = ValueAt(*p);
    *p += hyperion::ValueBytes(*p);
  }
  return value;
}

// Inline, and by value as PieceSpan below.
inline HyperionTrie::ScanState::Span HyperionTrie::ContainerSpan(
    const uint8_t* c, uint32_t base) const {
  if (hyperion::IsSplit(c)) return PieceSpan(c, 0, base);
  const Region nodes = hyperion::WholeContainer(c);
  return {
      nodes.buf + nodes.begin, nodes.buf + nodes.end, base, 0, 0, nullptr, 0};
}

void HyperionTrie::Walk(ScanState* state) const {
  char* const key = state->key;
  // The top level lives in these locals; the levels below it on the stack
  // hold where each resumes once the one above is done.
  ScanState::Span level = state->levels[--state->depth];
  for (;;) {
    const uint8_t* p = level.p;
    // A zero byte is the free tail; an embedded container ends at `end`.
    if (p >= level.end || *p == 0) {
      if (level.split != nullptr &&
          level.next_piece < hyperion::PieceCount(level.split)) {
        level = PieceSpan(level.split, level.next_piece, level.base);
        continue;
      }
      if (state->depth == 0) return;
      level = state->levels[--state->depth];
      continue;
    }
    const uint8_t header = *p;
    uint32_t length;
    if (!hyperion::IsS(header)) {
      level.prev_t = ReadKeyByte(&p, level.prev_t);
      level.prev_s = 0;
      // The S-children end where the next T-node starts: walking them
      // finds it, so neither jump structure is needed here.
      if (hyperion::HasJumpSuccessor(header)) {
        p += hyperion::JumpSuccessorBytes(p);
      }
      if (hyperion::HasTNodeTable(header)) p += hyperion::kTNodeTableBytes;
      key[level.base] = char(level.prev_t);
      length = level.base + 1;
    } else {
      level.prev_s = ReadKeyByte(&p, level.prev_s);
      key[level.base + 1] = char(level.prev_s);
      length = level.base + 2;
    }
    const NodeType type = hyperion::TypeOf(header);
    if (type == NodeType::kLeaf || type == NodeType::kLeafValue) {
      state->length = length;
      if (!Emit(LeafValue(header, &p), state)) return;
    }
    level.p = p;
    switch (hyperion::ChildOf(header)) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer: {
        level.p = p + hyperion::kPointerChildBytes;
        state->Push(level);
        const auto* c =
            static_cast<const uint8_t*>(mm_.Resolve(HyperionPointer::Load(p)));
        PrefetchNextChild(level.p, level.end);
        level = ContainerSpan(c, length);
        break;
      }
      case ChildKind::kEmbedded:
        // [size byte][nodes]: the size counts itself.
        level.p = p + p[0];
        state->Push(level);
        level = {p + 1, p + p[0], length, 0, 0, nullptr, 0};
        break;
      case ChildKind::kSuffix: {
        // [header: length, value flag][value?][suffix bytes]
        const uint8_t suffix_header = *p++;
        std::string_view value;
        if (suffix_header & hyperion::kSuffixValueFlag) {
          value = ValueAt(p);
          p += hyperion::ValueBytes(p);
        }
        const uint32_t suffix = suffix_header & ~hyperion::kSuffixValueFlag;
        state->length = length;
        state->Append(p, suffix);
        level.p = p + suffix;
        if (!Emit(value, state)) return;
        break;
      }
    }
  }
}

// Returned by value, not filled in through a pointer: the walk's current
// span must not have its address taken, or it lives in memory, and copying
// it to the stack then waits on stores that cannot be forwarded to the
// wider loads of the copy.
HyperionTrie::ScanState::Span HyperionTrie::PieceSpan(const uint8_t* split,
                                                      uint32_t piece,
                                                      uint32_t base) const {
  const Region nodes = hyperion::WholeContainer(static_cast<const uint8_t*>(
      mm_.Resolve(hyperion::PiecePointer(split, piece))));
  return {nodes.buf + nodes.begin,
          nodes.buf + nodes.end,
          base,
          0,
          0,
          split,
          piece + 1};
}

void HyperionTrie::PrefetchNextChild(const uint8_t* p,
                                     const uint8_t* end) const {
  for (int nodes = 0; nodes < kPrefetchLookahead; ++nodes) {
    if (p >= end || *p == 0) return;
    const uint8_t header = *p;
    if (hyperion::ChildOf(header) == ChildKind::kPointer) {
      // Only the offsets matter here, so any previous key byte will do.
      const Node node = hyperion::DecodeNode(p, 0, 0);
      const char* c = static_cast<const char*>(
          mm_.Resolve(HyperionPointer::Load(p + node.child_pos)));
      __builtin_prefetch(c);
      __builtin_prefetch(c + 64);
      return;
    }
    p += hyperion::NodeBytes(p);
  }
}

// Out of line: inlined, g++ copies a longer suffix with a `rep movs`,
// whose start-up cost is tens of cycles for a few bytes.
void HyperionTrie::ScanState::Append(const uint8_t* bytes, size_t n) {
  if (n <= hyperion::kMaxShortCopy) {
    hyperion::CopyShort(key + length, bytes, n);
  } else {
    std::memcpy(key + length, bytes, n);
  }
  length += n;
}

// A scan's path: at each region the start key passes through, what follows
// the path's S-node there is in range whole, and goes on the stack for the
// walk (the deepest region on top). The key bytes of the path are written
// as it goes.
struct HyperionTrie::ScanPath : hyperion::PathBase {
  const HyperionTrie& store;
  std::string_view bound;
  ScanState* state;
  // The current region is a piece of this split directory, and the walk
  // moves on to piece `next_piece` when it ends (null: not a piece).
  const uint8_t* split = nullptr;
  uint32_t next_piece = 0;

  void PassS(const Descent& d) {
    const uint32_t base = uint32_t(state->length);
    const Node& t = d.t.node;
    const Node& s = d.s.node;
    state->Enter(d.region.buf + s.end, d.region.buf + d.region.end, base, t.key,
                 s.key, split, next_piece);
    state->key[base] = char(t.key);
    state->key[base + 1] = char(s.key);
    state->length = base + 2;
  }
  const uint8_t* EnterPointer(const uint8_t* buf, const Node& s, size_t depth) {
    const auto* c = static_cast<const uint8_t*>(
        store.mm_.Resolve(HyperionPointer::Load(buf + s.child_pos)));
    split = nullptr;
    next_piece = 0;
    if (!hyperion::IsSplit(c)) return c;
    // The pieces before the bound's are out of range; the walk moves on
    // to those after it once the bound's piece is done.
    const uint32_t j = hyperion::PieceFor(c, uint8_t(bound[depth]));
    split = c;
    next_piece = j + 1;
    return static_cast<const uint8_t*>(
        store.mm_.Resolve(hyperion::PiecePointer(c, j)));
  }
  void EnterEmbedded(const uint8_t*, const Node&, size_t) {
    split = nullptr;
    next_piece = 0;
  }
};

bool HyperionTrie::ScanFrom(const Region& root, std::string_view bound,
                            ScanState* state) const {
  ScanPath path{{}, *this, bound, state};
  const Descent d = hyperion::Descend(root, bound, path);
  const uint8_t* buf = d.region.buf;
  const uint8_t* end = buf + d.region.end;
  const uint32_t base = uint32_t(state->length);
  switch (d.stop) {
    case Stop::kNoT:
    case Stop::kEndsAtT:
      // The walk starts at the first T-node at or after the bound's byte.
      state->Enter(buf + d.t.pos, end, base, d.t.prev, 0, path.split,
                   path.next_piece);
      return true;
    case Stop::kNoS:
    case Stop::kEndsAtS:
      // ... or at the first S-node at or after the next one.
      state->key[base] = char(d.t.node.key);
      state->Enter(buf + d.s.pos, end, base, d.t.node.key, d.s.prev, path.split,
                   path.next_piece);
      return true;
    case Stop::kNoChild:
      return true;
    case Stop::kSuffix: {
      const hyperion::Suffix sx =
          hyperion::DecodeSuffix(buf, d.s.node.child_pos);
      if (sx.bytes < bound.substr(d.depth + 2)) return true;
      state->Append(reinterpret_cast<const uint8_t*>(sx.bytes.data()),
                    sx.bytes.size());
      return Emit(SuffixValue(buf, sx), state);
    }
  }
  return true;
}

}  // namespace kvlab::stage5
