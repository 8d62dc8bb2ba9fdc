// Reading: Get descends like Put; Scan walks the nodes in pre-order, which
// is key order, rebuilding each key from the T- and S-node key bytes,
// embedded containers and suffixes on the way; GetNth walks the same order
// but skips a pointer child by its stored key count and an embedded
// container by counting its (at most 255) bytes.

#include "hyperion_store.h"
#include "jump_table.h"

namespace kvlab::stage5 {

using hyperion::ChildKind;
using hyperion::DecodeNode;
using hyperion::EndsKey;
using hyperion::Node;
using hyperion::NodeType;
using hyperion::Region;
using hyperion::SiblingSearch;

namespace {

bool IsSAt(const Region& r, uint32_t pos) {
  return pos < r.end && r.buf[pos] != 0 && hyperion::IsS(r.buf[pos]);
}

}  // namespace

bool HyperionStore::GetImpl(std::string_view key, std::string* value) const {
  if (key.empty()) {
    if (!has_empty_key_) return false;
    if (value != nullptr) {
      value->assign(static_cast<const char*>(mm_.Resolve(empty_value_)),
                    mm_.Size(empty_value_));
    }
    return true;
  }
  if (root_.IsNull()) return false;
  Region region =
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_)));
  size_t depth = 0;
  while (true) {
    const SiblingSearch ts = hyperion::FindT(region, uint8_t(key[depth]));
    if (!ts.found) return false;
    const Node* node = &ts.node;
    SiblingSearch ss;
    if (key.size() > depth + 1) {
      ss = hyperion::FindS(region, ts.node, uint8_t(key[depth + 1]));
      if (!ss.found) return false;
      node = &ss.node;
      depth += 2;
      if (key.size() > depth) {
        const uint8_t* buf = region.buf;
        switch (node->child) {
          case ChildKind::kNone:
            return false;
          case ChildKind::kPointer:
            region = hyperion::WholeContainer(static_cast<uint8_t*>(
                mm_.Resolve(HyperionPointer::Load(buf + node->child_pos))));
            continue;
          case ChildKind::kEmbedded:
            region = hyperion::EmbeddedRegion(buf, node->child_pos);
            continue;
          case ChildKind::kSuffix: {
            const hyperion::Suffix sx =
                hyperion::DecodeSuffix(buf, node->child_pos);
            if (sx.bytes != key.substr(depth)) return false;
            if (value != nullptr) {
              value->assign(sx.has_value ? ValueAt(buf + sx.value_pos)
                                         : std::string_view());
            }
            return true;
          }
        }
      }
    }
    if (!EndsKey(node->type)) return false;
    if (value != nullptr) {
      value->assign(node->type == NodeType::kLeafValue
                        ? ValueAt(region.buf + node->value_pos)
                        : std::string_view());
    }
    return true;
  }
}

uint64_t HyperionStore::CountKeys(const Region& region) {
  uint64_t keys = 0;
  const uint8_t* buf = region.buf;
  uint32_t pos = region.begin;
  uint8_t prev_t = 0, prev_s = 0;
  while (pos < region.end && buf[pos] != 0) {
    const bool s = hyperion::IsS(buf[pos]);
    const Node n = DecodeNode(buf, pos, s ? prev_s : prev_t);
    if (s) {
      prev_s = n.key;
    } else {
      prev_t = n.key;
      prev_s = 0;
    }
    if (EndsKey(n.type)) ++keys;
    switch (n.child) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer:
        keys +=
            hyperion::LoadCount(buf + n.child_pos + HyperionPointer::kBytes);
        break;
      case ChildKind::kEmbedded:
        keys += CountKeys(hyperion::EmbeddedRegion(buf, n.child_pos));
        break;
      case ChildKind::kSuffix:
        ++keys;
        break;
    }
    pos = n.end;
  }
  return keys;
}

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
  std::string key;
  std::optional<std::string_view> bound;
  if (!start.empty()) bound = start;
  ScanRegion(
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_))), &key,
      bound, visitor, &visited);
  return visited;
}

// Visits the keys below `region` (prefixed by `*key`) whose remainder is
// >= `*bound` (all if no bound), in order. Returns false once the visitor
// does.
bool HyperionStore::ScanRegion(const Region& region, std::string* key,
                               std::optional<std::string_view> bound,
                               ScanVisitor& visitor, uint64_t* visited) const {
  const uint8_t* buf = region.buf;
  auto emit = [&](const Node& n) {
    ++*visited;
    return visitor(*key, n.type == NodeType::kLeafValue
                             ? ValueAt(buf + n.value_pos)
                             : std::string_view());
  };
  uint32_t pos = region.begin;
  uint8_t prev_t = 0;
  while (pos < region.end && buf[pos] != 0) {
    const Node t = DecodeNode(buf, pos, prev_t);
    prev_t = t.key;
    const uint32_t t_end = hyperion::SkipTNode(buf, t, region.end);
    pos = t_end;
    // The bound for what follows this T-node's byte; once a T-node passes
    // the bound's first byte, everything after it is in range. Below the
    // top, an empty bound means none: every key is >= "".
    std::string_view t_bound;
    if (bound) {
      const uint8_t b = uint8_t((*bound)[0]);
      if (t.key < b) continue;
      if (t.key == b) t_bound = bound->substr(1);
      bound.reset();
    }
    key->push_back(char(t.key));
    if (EndsKey(t.type) && t_bound.empty() && !emit(t)) return false;
    uint32_t p = t.end;
    uint8_t prev_s = 0;
    while (IsSAt(region, p)) {
      const Node s = DecodeNode(buf, p, prev_s);
      prev_s = s.key;
      p = s.end;
      std::optional<std::string_view> s_bound;
      if (!t_bound.empty()) {
        const uint8_t b = uint8_t(t_bound[0]);
        if (s.key < b) continue;
        if (s.key == b && t_bound.size() > 1) s_bound = t_bound.substr(1);
        t_bound = {};
      }
      key->push_back(char(s.key));
      if (EndsKey(s.type) && !s_bound && !emit(s)) return false;
      bool go_on = true;
      switch (s.child) {
        case ChildKind::kNone:
          break;
        case ChildKind::kPointer:
          go_on = ScanRegion(
              hyperion::WholeContainer(static_cast<uint8_t*>(
                  mm_.Resolve(HyperionPointer::Load(buf + s.child_pos)))),
              key, s_bound, visitor, visited);
          break;
        case ChildKind::kEmbedded:
          go_on = ScanRegion(hyperion::EmbeddedRegion(buf, s.child_pos), key,
                             s_bound, visitor, visited);
          break;
        case ChildKind::kSuffix: {
          const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, s.child_pos);
          if (!s_bound || sx.bytes >= *s_bound) {
            key->append(sx.bytes);
            ++*visited;
            go_on = visitor(*key, sx.has_value ? ValueAt(buf + sx.value_pos)
                                               : std::string_view());
            key->resize(key->size() - sx.bytes.size());
          }
          break;
        }
      }
      key->pop_back();
      if (!go_on) return false;
    }
    key->pop_back();
  }
  return true;
}

bool HyperionStore::GetNth(uint64_t n, std::string* key,
                           std::string* value) const {
  if (n >= size_) return false;
  std::string k, v;
  if (has_empty_key_) {
    if (n == 0) {
      v.assign(static_cast<const char*>(mm_.Resolve(empty_value_)),
               mm_.Size(empty_value_));
      if (key != nullptr) key->clear();
      if (value != nullptr) *value = std::move(v);
      return true;
    }
    --n;
  }
  const bool found = NthInRegion(
      hyperion::WholeContainer(static_cast<uint8_t*>(mm_.Resolve(root_))), n,
      &k, &v);
  if (!found) return false;
  if (key != nullptr) *key = std::move(k);
  if (value != nullptr) *value = std::move(v);
  return true;
}

// Finds the n-th key below `region`, appending its bytes to `*key`.
bool HyperionStore::NthInRegion(const Region& region, uint64_t n,
                                std::string* key, std::string* value) const {
  const uint8_t* buf = region.buf;
  auto take = [&](const Node& n) {
    value->assign(n.type == NodeType::kLeafValue ? ValueAt(buf + n.value_pos)
                                                 : std::string_view());
    return true;
  };
  uint32_t pos = region.begin;
  uint8_t prev_t = 0, prev_s = 0;
  // A jump table entry knows the keys before its T-node: start there.
  const hyperion::JumpStart start = hyperion::JumpBeforeNth(region, n);
  if (start.found) {
    pos = start.entry.offset;
    n -= start.entry.keys_before;
    prev_t = hyperion::DecodeBaseFor(buf + pos, start.entry.key);
  }
  while (pos < region.end && buf[pos] != 0) {
    const bool is_s = hyperion::IsS(buf[pos]);
    const Node node = DecodeNode(buf, pos, is_s ? prev_s : prev_t);
    pos = node.end;
    if (is_s) {
      prev_s = node.key;
    } else {
      prev_t = node.key;
      prev_s = 0;
      // A T-node with a jump successor knows its keys: step over it whole.
      if (hyperion::HasJumpSuccessor(node.header)) {
        const uint64_t keys = hyperion::LoadJumpKeys(buf + node.jump_pos);
        if (n >= keys) {
          n -= keys;
          pos = hyperion::SkipTNode(buf, node, region.end);
          continue;
        }
      }
    }
    if (EndsKey(node.type)) {
      if (n == 0) {
        if (is_s) key->push_back(char(prev_t));
        key->push_back(char(node.key));
        return take(node);
      }
      --n;
    }
    uint64_t below = 0;
    switch (node.child) {
      case ChildKind::kNone:
        break;
      case ChildKind::kPointer:
        below =
            hyperion::LoadCount(buf + node.child_pos + HyperionPointer::kBytes);
        break;
      case ChildKind::kEmbedded:
        below = CountKeys(hyperion::EmbeddedRegion(buf, node.child_pos));
        break;
      case ChildKind::kSuffix:
        below = 1;
        break;
    }
    if (n >= below) {
      n -= below;
      continue;
    }
    // The key is below this S-node: its T-node is the last T seen.
    key->push_back(char(prev_t));
    key->push_back(char(node.key));
    switch (node.child) {
      case ChildKind::kPointer:
        return NthInRegion(
            hyperion::WholeContainer(static_cast<uint8_t*>(
                mm_.Resolve(HyperionPointer::Load(buf + node.child_pos)))),
            n, key, value);
      case ChildKind::kEmbedded:
        return NthInRegion(hyperion::EmbeddedRegion(buf, node.child_pos), n,
                           key, value);
      default: {
        const hyperion::Suffix sx = hyperion::DecodeSuffix(buf, node.child_pos);
        key->append(sx.bytes);
        value->assign(sx.has_value ? ValueAt(buf + sx.value_pos)
                                   : std::string_view());
        return true;
      }
    }
  }
  return false;
}

bool HyperionStore::DeleteNth(uint64_t n) { return DeleteNthByKey(n); }

}  // namespace kvlab::stage5
