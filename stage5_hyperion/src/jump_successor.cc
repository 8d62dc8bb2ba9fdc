// Jump successors (paper, section 3.3): a T-node with many S-children
// records how many bytes follow it up to its next sibling T-node, so the
// scan for a T-node steps over each smaller one with one addition instead
// of decoding every S-node below it. Without them, finding the last T-node
// of a full container decodes all its (up to 65,536) S-nodes.
//
// Operations never keep them up to date splice by splice. A change inside
// a real container only ever touches the subtree of one top-level T-node,
// the one holding the key's byte at that level, so once the operation is
// done FinishLevel takes that T-node where the descent met it (no splice
// starts before it), measures its children and rewrites, adds or removes
// its 3-7 bytes. A Put skips the measuring when the T-node already has
// one: its jump grows by the container's change in size. In a container
// the operation only passed through, it adds the change in keys to the
// T-node's count. A container just ejected from an embedded one (which
// has no jump successors) is normalised as a whole; it is small.

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::DecodeNode;
using hyperion::kJumpSuccessorFlag;
using hyperion::Node;

namespace {

// The stored form of a jump of `bytes`: 0 when 16 bits cannot hold it.
uint32_t JumpValue(uint32_t bytes) { return bytes > 0xffff ? 0 : bytes; }

// Appends T-node `t`'s header and key byte with the jump-successor flag
// set or cleared, and the jump successor itself if set: stored jump
// `jump` (JumpValue) over `keys` keys.
void AppendTHead(const uint8_t* buf, const Node& t, bool with_jump,
                 uint32_t jump, uint64_t keys, std::string* out) {
  out->push_back(char(with_jump ? t.header | kJumpSuccessorFlag
                                : t.header & ~kJumpSuccessorFlag));
  out->append(reinterpret_cast<const char*>(buf + t.pos + 1),
              t.head_bytes() - 1);
  if (with_jump) {
    uint8_t field[hyperion::kMaxJumpSuccessorBytes];
    const uint32_t n = hyperion::StoreJumpSuccessor(field, jump, keys);
    out->append(reinterpret_cast<const char*>(field), n);
  }
}

}  // namespace

std::string HyperionStore::WithJumpSuccessors(std::string_view nodes) const {
  const auto* buf = reinterpret_cast<const uint8_t*>(nodes.data());
  const uint32_t end = uint32_t(nodes.size());
  std::string out;
  out.reserve(nodes.size());
  uint32_t pos = 0;
  uint8_t prev = 0;
  while (pos < end && buf[pos] != 0) {
    const Node t = DecodeNode(buf, pos, prev);
    const hyperion::SChildren children =
        hyperion::MeasureSChildren(buf, t, end);
    const bool jump = children.count > options_.jump_successor;
    AppendTHead(buf, t, jump, JumpValue(children.end - t.value_pos),
                jump ? CountKeys(Region{buf, t.pos, children.end}) : 0, &out);
    out.append(nodes.substr(t.value_pos, children.end - t.value_pos));
    prev = t.key;
    pos = children.end;
  }
  return out;
}

void HyperionStore::SetJumpSuccessor(std::vector<Level>* levels, size_t i,
                                     const Node& t, uint32_t jump,
                                     uint64_t keys) {
  uint8_t* c = Base(*levels, i);
  // The varint may change length; then the T-node's head is respliced.
  if (hyperion::kJumpBytes + hyperion::VarintSize(keys) ==
      t.value_pos - t.jump_pos) {
    hyperion::StoreJumpSuccessor(c + t.jump_pos, jump, keys);
    return;
  }
  std::string head;
  AppendTHead(c, t, true, jump, keys, &head);
  RawSpliceAt(levels, i, t.pos, t.value_pos - t.pos, head);
}

void HyperionStore::FinishJumpSuccessors(std::vector<Level>* levels, size_t i,
                                         std::string_view key, int key_delta) {
  const Level& level = (*levels)[i];
  uint8_t* c = Base(*levels, i);
  if (!level.changed) {
    if (key_delta == 0) return;
    // Untouched bytes: the T-node is where the descent met it.
    const Node t = DecodeNode(c, level.t_pos, level.t_prev);
    if (hyperion::HasJumpSuccessor(t.header)) {
      const uint8_t* jump = c + t.jump_pos;
      SetJumpSuccessor(levels, i, t, hyperion::LoadJump(jump),
                       hyperion::LoadJumpKeys(jump) + key_delta);
    }
    return;
  }
  const uint32_t used = hyperion::ContainerUsed(c);
  if (level.ejected) {
    const uint32_t begin = hyperion::NodesBegin(c);
    const std::string_view nodes(reinterpret_cast<const char*>(c + begin),
                                 used - begin);
    const std::string normalised = WithJumpSuccessors(nodes);
    if (normalised != nodes) {
      RawSpliceAt(levels, i, begin, uint32_t(nodes.size()), normalised);
    }
    return;
  }
  // Every splice of the operation in this container started at the
  // path's T-node or after it, so it still starts at t_pos: unless the
  // operation removed it, and the next T-node (re-encoded against the same
  // predecessor, t_prev) or the end took its place.
  if (level.t_pos >= used || !hyperion::IsTNodeAt(c, level.t_pos)) return;
  const Node t = DecodeNode(c, level.t_pos, level.t_prev);
  if (t.key != uint8_t(key[level.depth])) return;
  // A Put never removes an S-node, so a T-node that had a jump successor
  // still needs one, and every change in size the Put made here lies
  // between its value and its next sibling: the jump moves by the
  // container's change in size, without walking the children (unless it
  // had overflowed).
  if (key_delta >= 0 && hyperion::HasJumpSuccessor(t.header)) {
    const uint8_t* field = c + t.jump_pos;
    const uint32_t stored = hyperion::LoadJump(field);
    if (stored != 0) {
      SetJumpSuccessor(levels, i, t,
                       JumpValue(stored + used - level.used_before),
                       hyperion::LoadJumpKeys(field) + key_delta);
      return;
    }
  }
  const hyperion::SChildren children = hyperion::MeasureSChildren(c, t, used);
  const bool wanted = children.count > options_.jump_successor;
  const bool present = hyperion::HasJumpSuccessor(t.header);
  const uint32_t jump = JumpValue(children.end - t.value_pos);
  if (wanted && present) {
    // Its key count was right before the operation.
    SetJumpSuccessor(levels, i, t, jump,
                     hyperion::LoadJumpKeys(c + t.jump_pos) + key_delta);
  } else if (wanted != present) {
    const uint64_t keys =
        wanted ? CountKeys(Region{c, t.pos, children.end}) : 0;
    std::string head;
    AppendTHead(c, t, wanted, jump, keys, &head);
    RawSpliceAt(levels, i, t.pos, t.value_pos - t.pos, head);
  }
}

}  // namespace kvlab::stage5
