#include "node.h"

#include <cassert>

#include "kvlab/coding.h"

namespace kvlab::stage5::hyperion {

void AppendHeaderAndKey(std::string* out, NodeType type, bool s, uint8_t prev,
                        uint8_t key, uint8_t flags) {
  // handout: hyperion::AppendHeaderAndKey -> #containers-at-the-bit-level
  const uint8_t delta = DeltaFor(prev, key);
  out->push_back(char(MakeHeader(type, s, delta, flags)));
  if (delta == 0) out->push_back(char(key));
  // handout: end
}

void AppendSNode(std::string* out, NodeType type, uint8_t prev, uint8_t key,
                 ChildKind child, std::string_view value_enc) {
  // handout: hyperion::AppendSNode -> #containers-at-the-bit-level
  // Those bits mean a bare leaf: an S-node leading nowhere is removed.
  assert(type != NodeType::kInner || child != ChildKind::kNone);
  const bool bare = type == NodeType::kLeafValue && child == ChildKind::kNone &&
                    IsBareable(value_enc);
  AppendHeaderAndKey(out, bare ? NodeType::kInner : type, /*s=*/true, prev, key,
                     uint8_t(child));
  if (type == NodeType::kLeafValue) {
    out->append(bare ? value_enc.substr(1) : value_enc);
  }
  // handout: end
}

void AppendSuffix(std::string* out, std::string_view suffix,
                  std::string_view value_enc) {
  assert(!suffix.empty() && suffix.size() <= kMaxSuffix);
  out->push_back(char(uint8_t(suffix.size()) |
                      (value_enc.empty() ? 0 : kSuffixValueFlag)));
  out->append(value_enc);
  out->append(suffix);
}

void AppendPointerChild(std::string* out, HyperionPointer hp, uint64_t count) {
  uint8_t bytes[kPointerChildBytes];
  hp.Store(bytes);
  StoreCount(bytes + HyperionPointer::kBytes, count);
  out->append(reinterpret_cast<const char*>(bytes), sizeof(bytes));
}

uint32_t VarintSize(uint64_t v) {
  uint32_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

uint64_t LoadVarint(const uint8_t* p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7, ++p) {
    v |= uint64_t{*p & 0x7fu} << shift;
    if ((*p & 0x80) == 0) return v;
  }
}

uint32_t StoreVarint(uint8_t* p, uint64_t v) {
  assert(VarintSize(v) <= kMaxVarintBytes);
  uint32_t n = 0;
  while (v >= 0x80) {
    p[n++] = uint8_t(v | 0x80);
    v >>= 7;
  }
  p[n++] = uint8_t(v);
  return n;
}

uint32_t StoreJumpSuccessor(uint8_t* p, uint32_t jump, uint64_t keys) {
  assert(jump <= 0xffff);
  StoreLE16(p, uint16_t(jump));
  return kJumpBytes + StoreVarint(p + kJumpBytes, keys);
}

std::string Reencoded(const Node& n, uint8_t prev) {
  std::string out;
  // The stored type: a bare leaf stays one.
  AppendHeaderAndKey(&out, StoredTypeOf(n.header), n.s, prev, n.key,
                     uint8_t(n.header >> kFlagShift));
  return out;
}

std::string Rewritten(const uint8_t* buf, const Node& n, NodeType type,
                      std::string_view value_enc, ChildKind child,
                      std::string_view child_bytes) {
  std::string out;
  if (n.s) {
    // An S-node keeps its key byte's encoding against the same predecessor.
    const uint8_t prev = uint8_t(n.key - DeltaOf(n.header));
    AppendSNode(&out, type, prev, n.key, child, value_enc);
    out.append(child_bytes);
    return out;
  }
  constexpr uint8_t kKept = kDeltaMask | kJumpSuccessorFlag | kTNodeTableFlag;
  out.push_back(char(uint8_t(uint8_t(type) | (n.header & kKept))));
  if (DeltaOf(n.header) == 0) out.push_back(char(buf[n.pos + 1]));
  // A T-node keeps its jump successor; FinishLevel corrects its value.
  out.append(reinterpret_cast<const char*>(buf + n.jump_pos),
             n.value_pos - n.jump_pos);
  if (type == NodeType::kLeafValue) out.append(value_enc);
  out.append(child_bytes);
  return out;
}

}  // namespace kvlab::stage5::hyperion
