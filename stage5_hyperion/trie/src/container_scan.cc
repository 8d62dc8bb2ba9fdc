#include "container_scan.h"

#include <algorithm>

#include "jump_table.h"
#include "tnode_table.h"

namespace kvlab::stage5::hyperion {

uint32_t SkipSChildren(const uint8_t* buf, uint32_t pos, uint32_t end) {
  while (pos < end && IsS(buf[pos])) pos += NodeBytes(buf + pos);
  return pos;
}

SChildren MeasureSChildren(const uint8_t* buf, const Node& t, uint32_t end) {
  SChildren c;
  c.end = t.end;
  while (c.end < end && IsS(buf[c.end])) {
    c.end += NodeBytes(buf + c.end);
    ++c.count;
  }
  return c;
}

uint32_t SkipTNode(const uint8_t* buf, const Node& t, uint32_t end) {
  // handout: hyperion::SkipTNode -> #jump-successors
  if (HasJumpSuccessor(t.header)) {
    const uint32_t jump = LoadJump(buf + t.jump_pos);
    if (jump != 0) return t.value_pos + jump;
  }
  return SkipSChildren(buf, t.end, end);
  // handout: end
}

ByteSpan SChildrenAhead(const uint8_t* buf, const Node& t, uint32_t from) {
  if (!HasJumpSuccessor(t.header)) return {};
  // A jump of 0 (it did not fit) ends the span at value_pos, before the
  // children: empty.
  const uint32_t end = t.value_pos + LoadJump(buf + t.jump_pos);
  if (from >= end) return {};
  return ByteSpan{from, std::min(end, from + kMaxPrefetchBytes)};
}

void PrefetchBytes(const uint8_t* p, size_t bytes) {
  if (bytes == 0) return;
  constexpr uintptr_t kLine = 64;
  const uintptr_t first = reinterpret_cast<uintptr_t>(p) / kLine;
  const uintptr_t last = reinterpret_cast<uintptr_t>(p + bytes - 1) / kLine;
  for (uintptr_t line = first + 1; line <= last; ++line) {
    __builtin_prefetch(reinterpret_cast<const void*>(line * kLine));
  }
}

void PrefetchSChildren(const uint8_t* buf, const Node& t, uint32_t from) {
  const ByteSpan span = SChildrenAhead(buf, t, from);
  PrefetchBytes(buf + span.begin, span.end - span.begin);
}

namespace {

// Walks siblings from `pos` (T-nodes if !s, else S-nodes) until `key`;
// `prev` is the key byte before pos (the decoding base of the first node).
SiblingSearch FindSibling(const uint8_t* buf, uint32_t pos, uint32_t end,
                          bool s, uint8_t key, uint8_t prev) {
  // handout: hyperion::FindSibling -> #the-scan-loop
  SiblingSearch r;
  while (pos < end && buf[pos] != 0 && IsS(buf[pos]) == s) {
    const Node n = DecodeNode(buf, pos, prev);
    if (n.key >= key) {
      r.found = n.key == key;
      r.has_next = true;
      r.node = n;
      break;
    }
    prev = n.key;
    ++r.steps;
    pos = s ? n.end : SkipTNode(buf, n, end);
  }
  r.pos = pos;
  r.prev = prev;
  return r;
  // handout: end
}

}  // namespace

SiblingSearch FindT(const Region& region, uint8_t key) {
  // Starting at an entry whose key is smaller, never equal, means the scan
  // always passes the node before the one it stops at, so `prev` is known.
  const JumpStart start = JumpBeforeKey(region, key);
  if (!start.found) {
    return FindSibling(region.buf, region.begin, region.end, false, key, 0);
  }
  const uint32_t pos = start.entry.offset;
  return FindSibling(region.buf, pos, region.end, false, key,
                     DecodeBaseFor(region.buf + pos, start.entry.key));
}

SiblingSearch FindS(const Region& region, const Node& t, uint8_t key) {
  if (HasTNodeTable(t.header)) {
    const SChildStart start = SChildBefore(region.buf, t, key);
    if (start.found) {
      PrefetchSChildren(region.buf, t, start.pos);
      return FindSibling(region.buf, start.pos, region.end, true, key,
                         start.prev);
    }
  }
  PrefetchSChildren(region.buf, t, t.end);
  return FindSibling(region.buf, t.end, region.end, true, key, 0);
}

}  // namespace kvlab::stage5::hyperion
