// Reading: Get descends like Put; GetNth walks the nodes in pre-order (key
// order, as Scan in scan.cc does) but skips a pointer child by its stored
// key count and an embedded container by counting its (at most 255) bytes.

#include "descent.h"
#include "hyperion_trie.h"
#include "jump_table.h"
#include "tnode_table.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::Region;
using hyperion::SiblingSearch;
using hyperion::Stop;

// Get records nothing on its way down; a pointer child leads to the
// container, or the piece of a split one, that holds the next key byte.
struct HyperionTrie::ReadPath : hyperion::PathBase {
  const HyperionTrie& store;
  std::string_view key;

  const uint8_t* EnterPointer(const uint8_t* buf, const Node& s, size_t depth) {
    return store.ContainerFor(HyperionPointer::Load(buf + s.child_pos),
                              uint8_t(key[depth]));
  }
};

bool HyperionTrie::GetImpl(std::string_view key, std::string* value) const {
  if (key.empty()) {
    if (!has_empty_key_) return false;
    if (value != nullptr) {
      value->assign(static_cast<const char*>(mm_.Resolve(empty_value_)),
                    mm_.Size(empty_value_));
    }
    return true;
  }
  if (root_.IsNull()) return false;
  ReadPath path{{}, *this, key};
  const hyperion::Descent d = hyperion::Descend(
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_))), key,
      path);
  const uint8_t* buf = d.region.buf;
  const Node* node = nullptr;
  switch (d.stop) {
    case Stop::kNoT:
    case Stop::kNoS:
    case Stop::kNoChild:
      return false;
    case Stop::kEndsAtT:
      node = &d.t.node;
      break;
    case Stop::kEndsAtS:
      node = &d.s.node;
      break;
    case Stop::kSuffix: {
      const hyperion::Suffix sx =
          hyperion::DecodeSuffix(buf, d.s.node.child_pos);
      if (sx.bytes != key.substr(d.depth + 2)) return false;
      if (value != nullptr) value->assign(SuffixValue(buf, sx));
      return true;
    }
  }
  if (!EndsKey(node->type)) return false;
  if (value != nullptr) value->assign(NodeValue(buf, *node));
  return true;
}

uint64_t hyperion::CountKeys(const Region& region) {
  // handout: hyperion::CountKeys -> #order-statistics-getnth
  uint64_t keys = 0;
  const uint8_t* buf = region.buf;
  for (hyperion::RegionCursor it(region); !it.done(); it.Next()) {
    const Node& n = it.node();
    if (EndsKey(n.type)) ++keys;
    switch (n.child) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer:
        keys +=
            hyperion::LoadCount(buf + n.child_pos + HyperionPointer::kBytes);
        break;
      case ChildKind::kEmbedded:
        keys += hyperion::CountKeys(hyperion::EmbeddedRegion(buf, n.child_pos));
        break;
      case ChildKind::kSuffix:
        ++keys;
        break;
    }
  }
  return keys;
  // handout: end
}

bool HyperionTrie::GetNth(uint64_t n, std::string* key,
                          std::string* value) const {
  if (n >= size_) return false;
  if (has_empty_key_) {
    if (n == 0) {
      if (key != nullptr) key->clear();
      if (value != nullptr) {
        value->assign(static_cast<const char*>(mm_.Resolve(empty_value_)),
                      mm_.Size(empty_value_));
      }
      return true;
    }
    --n;
  }
  // The caller's strings are filled in place (keeping their capacity); a
  // key is rebuilt even if not asked for, since the walk appends to it.
  std::string scratch;
  std::string* k = key != nullptr ? key : &scratch;
  k->clear();
  const bool found = NthInRegion(
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_))), n, k,
      value);
  // n < size_: the counts lead to a key.
  assert(found);
  return found;
}

// handout: cut
namespace {

// The keys below S-node `node` of `buf`: its child's.
uint64_t KeysBelow(const uint8_t* buf, const Node& node) {
  switch (node.child) {
    case ChildKind::kNone:
      return 0;
    case ChildKind::kPointer:
      return hyperion::LoadCount(buf + node.child_pos +
                                 HyperionPointer::kBytes);
    case ChildKind::kEmbedded:
      return hyperion::CountKeys(hyperion::EmbeddedRegion(buf, node.child_pos));
    case ChildKind::kSuffix:
      return 1;
  }
  return 0;
}

// The piece of split directory `dir` that holds its `*n`-th key, stepping
// over whole pieces by their counts: `*n` becomes the key's rank in it.
HyperionPointer PieceOfNth(const uint8_t* dir, uint64_t* n) {
  uint32_t j = 0;
  while (*n >= hyperion::PieceKeys(dir, j)) *n -= hyperion::PieceKeys(dir, j++);
  return hyperion::PiecePointer(dir, j);
}

}  // namespace
// handout: end

bool HyperionTrie::NthInRegion(const Region& region, uint64_t n,
                               std::string* key, std::string* value) const {
  // handout: HyperionTrie::NthInRegion -> #order-statistics-getnth
  // By hand rather than by RegionCursor: the walk jumps ahead by the jump
  // table, jump successors and T-node tables.
  const uint8_t* buf = region.buf;
  uint32_t pos = region.begin;
  hyperion::PreorderDecoder decoder;
  // A jump table entry knows the keys before its T-node: start there.
  const hyperion::JumpStart start = hyperion::JumpBeforeNth(region, n);
  if (start.found) {
    pos = start.entry.offset;
    n -= start.entry.keys_before;
    decoder.prev_t = hyperion::DecodeBaseFor(buf + pos, start.entry.key);
  }
  while (pos < region.end && buf[pos] != 0) {
    const Node node = decoder.Decode(buf, pos);
    pos = node.end;
    // A T-node with a jump successor knows its keys: step over it whole.
    if (hyperion::HasJumpSuccessor(node.header)) {
      const uint64_t keys = hyperion::LoadJumpKeys(buf + node.jump_pos);
      if (n >= keys) {
        n -= keys;
        pos = hyperion::SkipTNode(buf, node, region.end);
        continue;
      }
    }
    if (EndsKey(node.type)) {
      if (n == 0) {
        if (node.s) key->push_back(char(decoder.prev_t));
        key->push_back(char(node.key));
        if (value != nullptr) value->assign(NodeValue(buf, node));
        return true;
      }
      --n;
    }
    // A T-node jump table knows the keys before its entries: start at one.
    if (hyperion::HasTNodeTable(node.header)) {
      const hyperion::SChildStart start =
          hyperion::SChildBeforeNth(buf, node, n);
      if (start.found) {
        pos = start.pos;
        n -= start.keys_before;
        decoder.prev_s = start.prev;
        hyperion::PrefetchSChildren(buf, node, pos);
        continue;
      }
    }
    // The n-th key is at or below this T-node: its children come next.
    if (!node.s) hyperion::PrefetchSChildren(buf, node, pos);
    const uint64_t below = KeysBelow(buf, node);
    if (n >= below) {
      n -= below;
      continue;
    }
    // The key is below this S-node: its T-node is the last T seen.
    key->push_back(char(decoder.prev_t));
    key->push_back(char(node.key));
    switch (node.child) {
      case ChildKind::kPointer: {
        const uint8_t* c =
            ResolveAhead(HyperionPointer::Load(buf + node.child_pos));
        if (hyperion::IsSplit(c)) c = ResolveAhead(PieceOfNth(c, &n));
        return NthInRegion(hyperion::WholeContainer(c), n, key, value);
      }
      case ChildKind::kEmbedded:
        return NthInRegion(hyperion::EmbeddedRegion(buf, node.child_pos), n,
                           key, value);
      default: {
        const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, node.child_pos);
        key->append(sx.bytes);
        if (value != nullptr) value->assign(SuffixValue(buf, sx));
        return true;
      }
    }
  }
  return false;
  // handout: end
}

bool HyperionTrie::DeleteNth(uint64_t n) { return DeleteNthByKey(n); }

}  // namespace kvlab::stage5
