// Building new nodes: the bytes for a set of key remainders, as T-nodes,
// S-nodes and children, used by every insertion and by suffix splits.

#include <cstring>

#include "hyperion_trie.h"

namespace kvlab::stage5 {

using hyperion::AppendHeaderAndKey;
using hyperion::ChildKind;
using hyperion::NodeType;

namespace {

// The type of a node where entry `e` may end at byte `depth`.
NodeType EndType(std::string_view value_enc) {
  return value_enc.empty() ? NodeType::kLeaf : NodeType::kLeafValue;
}

}  // namespace

void HyperionTrie::BuildTLevel(const Entry* entries, size_t n, size_t depth,
                               uint8_t prev, std::string* out) {
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
}

void HyperionTrie::BuildSLevel(const Entry* entries, size_t n, size_t depth,
                               uint8_t prev, std::string* out) {
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
}

ChildKind HyperionTrie::BuildChild(const Entry* entries, size_t n, size_t depth,
                                   std::string* out) {
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
}

HyperionPointer HyperionTrie::NewContainer(std::string_view payload, Fit fit) {
  const uint32_t used = uint32_t(hyperion::kHeaderBytes + payload.size());
  const uint32_t size = hyperion::RoundUpToStep(used);
  const HyperionPointer hp = AllocateChunk(size, fit);
  auto* c = static_cast<uint8_t*>(mm_.Resolve(hp));
  hyperion::StoreHeader(c, size, size - used);
  std::memcpy(c + hyperion::kHeaderBytes, payload.data(), payload.size());
  return hp;
}

}  // namespace kvlab::stage5
