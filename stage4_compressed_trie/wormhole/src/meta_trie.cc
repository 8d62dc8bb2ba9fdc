// The MetaTrie over the table: finding a key's leaf (the binary search over
// prefix lengths and the sibling rule), and adding and removing anchors.

#include <algorithm>
#include <string_view>

#include "crc32c.h"
#include "kvlab/stage4/epoch.h"
#include "kvlab/stage4/wormhole_store.h"
#include "leaf.h"
#include "meta_table.h"

namespace kvlab {

using stage4::wormhole::Crc32cExtend;

namespace {

// handout: cut
// The longest prefix of `key` in `table` by a binary search over lengths,
// trusting 16-bit tags alone (`exact` false: no node is touched until the
// end, and the answer may be wrong) or comparing byte by byte. Sets *hash
// to the prefix's hash and *length to its length.
const stage4::wormhole::MetaNode* LongestPrefix(
    const stage4::wormhole::MetaTable& table, std::string_view key, bool exact,
    uint32_t* hash, uint32_t* length) {
  const uint32_t bound = static_cast<uint32_t>(
      std::min<size_t>(key.size(), table.max_anchor_size));
  // Lengths [lo, hi): lo is known to be in the table (the root, length 0,
  // always is), hi known not to be or past the bound.
  uint32_t lo = 0;
  uint32_t hi = bound + 1;
  uint32_t lo_hash = 0;
  const stage4::wormhole::MetaNode* node =
      exact ? table.Find(0, {}) : table.FindByTag(0);
  while (lo + 1 < hi) {
    const uint32_t mid = (lo + hi) / 2;
    // The prefix's hash extends the hash of the longest one known present,
    // so over the whole search each byte is hashed about twice at most.
    const uint32_t h = Crc32cExtend(lo_hash, key.data() + lo, mid - lo);
    const stage4::wormhole::MetaNode* n =
        exact ? table.Find(h, key.substr(0, mid)) : table.FindByTag(h);
    if (n != nullptr) {
      lo = mid;
      lo_hash = h;
      node = n;
    } else {
      hi = mid;
    }
  }
  *hash = lo_hash;
  *length = lo;
  return node;
}
// handout: end

}  // namespace

WormholeStore::Leaf* WormholeStore::FindLeaf(const MetaTable& table,
                                             std::string_view key) const {
  // handout: WormholeStore::FindLeaf -> #the-lookup
  uint32_t hash;
  uint32_t length;
  const MetaNode* node = LongestPrefix(table, key, false, &hash, &length);
  // Tags can collide: a tag match may have been another prefix's node, or
  // a prefix absent from the table. Verify the answer once (a wrong step
  // leaves a final node of the wrong length or bytes), and on a mismatch
  // (rare) search again comparing bytes at every step.
  if (node->size != length || node->prefix() != key.substr(0, length)) {
    node = LongestPrefix(table, key, true, &hash, &length);
  }
  const uint32_t matched = node->size;
  if (matched == key.size()) {
    // The key ends at this node: its smallest-token child, the anchor equal
    // to the key, if there is one; else every anchor below is larger and
    // the target is the leaf before the left-most one.
    if (node->anchor_leaf != nullptr) return node->anchor_leaf;
    return node->lmost->prev.load(std::memory_order_acquire);
  }
  const int next = static_cast<uint8_t>(key[matched]);
  const int left = node->ChildBelow(next);
  if (left >= 0) {
    // The left sibling's subtree ends with the target leaf.
    const char byte = static_cast<char>(left);
    const MetaNode* sibling =
        table.Find(Crc32cExtend(hash, &byte, 1), node->prefix(), {&byte, 1});
    return sibling->rmost;
  }
  if (node->anchor_leaf != nullptr) return node->anchor_leaf;
  // Only right siblings: the target precedes the left-most leaf below.
  return node->lmost->prev.load(std::memory_order_acquire);
  // handout: end
}

void WormholeStore::RecomputeEnds(const MetaTable& table,
                                  MetaNode* node) const {
  auto child = [&](int b) {
    const char byte = static_cast<char>(b);
    return table.Find(Crc32cExtend(node->hash, &byte, 1), node->prefix(),
                      {&byte, 1});
  };
  const int first = node->FirstChild();
  const int last = node->LastChild();
  node->lmost = node->anchor_leaf != nullptr ? node->anchor_leaf
                : first >= 0                 ? child(first)->lmost
                                             : nullptr;
  node->rmost = last >= 0 ? child(last)->rmost : node->anchor_leaf;
}

void WormholeStore::AddAnchor(MetaTable* table, Leaf* leaf,
                              std::vector<MetaNode*>::iterator fresh) {
  // handout: WormholeStore::AddAnchor -> #splits-and-merges
  const std::string_view anchor = leaf->anchor;
  MetaNode* path[kMaxKeySize + 1];
  uint32_t hash = 0;
  for (size_t len = 0; len <= anchor.size(); ++len) {
    if (len > 0) hash = Crc32cExtend(hash, anchor.data() + len - 1, 1);
    MetaNode* node = table->Find(hash, anchor.substr(0, len));
    if (node == nullptr) {
      node = *fresh++;  // prepared by Split for exactly this prefix
      table->Insert(node);
      path[len - 1]->SetChild(static_cast<uint8_t>(anchor[len - 1]));
    }
    path[len] = node;
  }
  path[anchor.size()]->anchor_leaf = leaf;
  for (size_t len = anchor.size() + 1; len-- > 0;) {
    RecomputeEnds(*table, path[len]);
  }
  table->max_anchor_size =
      std::max(table->max_anchor_size, static_cast<uint32_t>(anchor.size()));
  // handout: end
}

void WormholeStore::RemoveAnchor(MetaTable* table, std::string_view anchor) {
  // handout: WormholeStore::RemoveAnchor -> #splits-and-merges
  // stage4_wormhole.md#splits-and-merges
  MetaNode* path[kMaxKeySize + 1];
  uint32_t hash = 0;
  for (size_t len = 0; len <= anchor.size(); ++len) {
    if (len > 0) hash = Crc32cExtend(hash, anchor.data() + len - 1, 1);
    path[len] = table->Find(hash, anchor.substr(0, len));
  }
  path[anchor.size()]->anchor_leaf = nullptr;
  // Nodes used by this anchor alone go, bottom-up; the rest get new ends.
  for (size_t len = anchor.size() + 1; len-- > 0;) {
    MetaNode* node = path[len];
    if (len > 0 && node->anchor_leaf == nullptr && !node->HasChildren()) {
      table->Erase(node);
      path[len - 1]->ClearChild(static_cast<uint8_t>(anchor[len - 1]));
      bytes_.fetch_sub(
          static_cast<int64_t>(stage4::wormhole::MetaNodeBytes(node)),
          std::memory_order_relaxed);
      stage4::wormhole::FreeMetaNode(node);
    } else {
      RecomputeEnds(*table, node);
    }
  }
  // handout: end
}

WormholeStore::MetaTable* WormholeStore::Publish(MetaTable* table) {
  return current_.exchange(table, std::memory_order_seq_cst);
}

}  // namespace kvlab
