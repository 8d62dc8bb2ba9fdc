// Scan: the nodes in pre-order are the keys in order. A scan from a start
// key descends to it like Get (ScanFrom, one path of nodes), and everything
// after that path is visited by the bulk walk (ScanTNodes, ScanSNodes),
// which compares no bounds and decodes every node exactly once. Each key
// is rebuilt in one fixed buffer (ScanState): a byte pushed per T- and
// S-node on the way down, a suffix appended, and popped again on the way
// back.

#include <cstring>

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::Region;
using hyperion::SiblingSearch;

uint64_t HyperionStore::Scan(std::string_view start,
                             ScanVisitor visitor) const {
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
    ScanTNodes(root, root.begin, 0, &state);
  } else {
    ScanFrom(root, start, &state);
  }
  return visited + state.visited;
}

void HyperionStore::ScanState::Append(std::string_view bytes) {
  std::memcpy(key + length, bytes.data(), bytes.size());
  length += bytes.size();
}

bool HyperionStore::Emit(std::string_view value, ScanState* state) const {
  ++state->visited;
  return state->visitor(state->Key(), value);
}

bool HyperionStore::ScanTNodes(const Region& region, uint32_t pos,
                               uint8_t prev_t, ScanState* state) const {
  const uint8_t* buf = region.buf;
  while (pos < region.end && buf[pos] != 0) {
    const Node t = DecodeNode(buf, pos, prev_t);
    prev_t = t.key;
    state->Push(t.key);
    if (EndsKey(t.type) && !Emit(NodeValue(buf, t), state)) return false;
    // The S-children end where the next T-node starts: walking them finds
    // it, so the jump successor is not needed here.
    pos = t.end;
    if (!ScanSNodes(region, &pos, 0, state)) return false;
    state->Pop();
  }
  return true;
}

bool HyperionStore::ScanSNodes(const Region& region, uint32_t* pos,
                               uint8_t prev_s, ScanState* state) const {
  const uint8_t* buf = region.buf;
  while (*pos < region.end && buf[*pos] != 0 && hyperion::IsS(buf[*pos])) {
    const Node s = DecodeNode(buf, *pos, prev_s);
    prev_s = s.key;
    *pos = s.end;
    state->Push(s.key);
    if (EndsKey(s.type) && !Emit(NodeValue(buf, s), state)) return false;
    if (!ScanChild(buf, s, std::string_view(), state)) return false;
    state->Pop();
  }
  return true;
}

bool HyperionStore::ScanChild(const uint8_t* buf, const Node& s,
                              std::string_view bound, ScanState* state) const {
  switch (s.child) {
    case ChildKind::kNone:
      return true;
    case ChildKind::kPointer:
    case ChildKind::kEmbedded: {
      const Region below =
          s.child == ChildKind::kPointer
              ? hyperion::WholeContainer(static_cast<uint8_t*>(
                    mm_.Resolve(HyperionPointer::Load(buf + s.child_pos))))
              : hyperion::EmbeddedRegion(buf, s.child_pos);
      return bound.empty() ? ScanTNodes(below, below.begin, 0, state)
                           : ScanFrom(below, bound, state);
    }
    case ChildKind::kSuffix: {
      const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, s.child_pos);
      if (sx.bytes < bound) return true;
      state->Append(sx.bytes);
      const bool go_on = Emit(SuffixValue(buf, sx), state);
      state->Drop(sx.bytes.size());
      return go_on;
    }
  }
  return true;
}

// The start key's path: the T-node with its first byte (if any) and the
// S-node with its second; what comes after each on the path is in range
// whole, what comes before is skipped unread.
bool HyperionStore::ScanFrom(const Region& region, std::string_view bound,
                             ScanState* state) const {
  const uint8_t* buf = region.buf;
  const SiblingSearch ts = hyperion::FindT(region, uint8_t(bound[0]));
  if (!ts.found) return ScanTNodes(region, ts.pos, ts.prev, state);
  const Node& t = ts.node;
  const std::string_view t_bound = bound.substr(1);
  // A bound of one byte: this T-node's key and everything after is in range.
  if (t_bound.empty()) return ScanTNodes(region, ts.pos, ts.prev, state);
  state->Push(t.key);
  const SiblingSearch ss = hyperion::FindS(region, t, uint8_t(t_bound[0]));
  uint32_t pos = ss.pos;
  uint8_t prev_s = ss.prev;
  if (ss.found) {
    const Node& s = ss.node;
    if (t_bound.size() > 1) {
      state->Push(s.key);
      if (!ScanChild(buf, s, t_bound.substr(1), state)) return false;
      state->Pop();
      pos = s.end;
      prev_s = s.key;
    }
  }
  if (!ScanSNodes(region, &pos, prev_s, state)) return false;
  state->Pop();
  return ScanTNodes(region, pos, t.key, state);
}

}  // namespace kvlab::stage5
