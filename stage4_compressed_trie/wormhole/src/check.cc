// CheckInvariants, GetShape and Anchors: the whole structure, with every
// writer held off (the table writers' mutex, then every leaf's lock in list
// order, the order every writer takes them in).

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "crc32c.h"
#include "kvlab/stage4/wormhole_store.h"
#include "kvlab/structure.h"
#include "leaf.h"
#include "leaf_lock.h"
#include "meta_table.h"
#include "rank_tree.h"

namespace kvlab {

namespace wh = stage4::wormhole;
using wh::Item;

void WormholeStore::LockAllLeaves() const {
  meta_mu_.lock();
  for (Leaf* l = head_; l != nullptr; l = l->next.load()) {
    wh::LockLeaf(l, true);
  }
}

void WormholeStore::UnlockAllLeaves() const {
  for (Leaf* l = head_; l != nullptr; l = l->next.load()) {
    wh::UnlockLeaf(l, true);
  }
  meta_mu_.unlock();
}

absl::Status WormholeStore::CheckInvariants() const {
  LockAllLeaves();
  absl::Status status;
  try {
    status = CheckLocked();
  } catch (...) {  // std::bad_alloc from the check's own vectors
    UnlockAllLeaves();
    throw;
  }
  UnlockAllLeaves();
  return status;
}

namespace {

absl::Status Fail(std::string_view what, std::string_view anchor) {
  return absl::InternalError(absl::StrCat("wormhole: ", std::string(what),
                                          " (leaf ", QuotedKey(anchor), ")"));
}

struct Expected {
  bool anchor = false;
  const void* anchor_leaf = nullptr;
  const void* lmost = nullptr;
  const void* rmost = nullptr;
  uint64_t bitmap[4] = {0, 0, 0, 0};
};

}  // namespace

absl::Status WormholeStore::CheckLocked() const {
  if (!head_->anchor.empty() || head_->prev.load() != nullptr) {
    return Fail("the first leaf's anchor is not empty or it has a prev",
                head_->anchor);
  }
  const MetaTable* current = current_.load();
  uint64_t keys = 0;
  int64_t bytes = 0;
  std::vector<const Leaf*> leaves;
  const Leaf* prev = nullptr;
  for (const Leaf* l = head_; l != nullptr; l = l->next.load()) {
    leaves.push_back(l);
    bytes += static_cast<int64_t>(wh::LeafBytes(l));
    if (l->dead) return Fail("a merged-away leaf is in the list", l->anchor);
    if (l->prev.load() != prev) return Fail("prev link is wrong", l->anchor);
    if (prev != nullptr && !(prev->anchor < l->anchor)) {
      return Fail("anchors do not ascend", l->anchor);
    }
    if (l->version.load() > current->version) {
      return Fail("leaf version is newer than the table's", l->anchor);
    }
    if (l->size > l->capacity) return Fail("leaf over capacity", l->anchor);
    const uint32_t sorted = l->sorted.load();
    if (sorted > l->size) return Fail("sorted count past size", l->anchor);
    const Leaf* next = l->next.load();
    std::vector<const Item*> by_key(l->by_key, l->by_key + l->size);
    std::vector<const Item*> by_tag;
    for (uint32_t i = 0; i < l->size; ++i) {
      const uint64_t e = l->by_tag[i];
      const Item* item = Leaf::ItemOf(e);
      by_tag.push_back(item);
      if (i > 0 && (l->by_tag[i - 1] >> 48) > (e >> 48)) {
        return Fail("tag array out of tag order", l->anchor);
      }
      if ((e >> 48) != item->tag ||
          item->tag != wh::TagOf(wh::Crc32c(item->key()))) {
        return Fail("an item's tag is not its key's", l->anchor);
      }
      const Item* k = l->by_key[i];
      if (i > 0 && i < sorted && !(l->by_key[i - 1]->key() < k->key())) {
        return Fail("sorted part of the key array out of order", l->anchor);
      }
      if (k->key() < l->anchor) return Fail("key below its anchor", l->anchor);
      if (next != nullptr && !(k->key() < next->anchor)) {
        return Fail("key not below the next anchor", l->anchor);
      }
      bytes += static_cast<int64_t>(wh::ItemBytes(k));
    }
    std::sort(by_key.begin(), by_key.end());
    std::sort(by_tag.begin(), by_tag.end());
    if (by_key != by_tag) {
      return Fail("tag and key arrays hold different pairs", l->anchor);
    }
    std::sort(by_key.begin(), by_key.end(),
              [](const Item* a, const Item* b) { return a->key() < b->key(); });
    for (size_t i = 1; i < by_key.size(); ++i) {
      if (by_key[i - 1]->key() == by_key[i]->key()) {
        return Fail("a key is held twice", l->anchor);
      }
    }
    keys += l->size;
    prev = l;
  }
  if (keys != size_.load()) {
    return absl::InternalError(absl::StrCat(
        "wormhole: Size() is ", size_.load(), ", the leaves hold ", keys));
  }
  // The rank treap: the leaves in order with their counts.
  size_t at = 0;
  bool order_ok = true;
  uint64_t nodes = 0;
  absl::Status s = rank_->Check(&nodes, [&](const wh::RankNode* n) {
    const Leaf* l = static_cast<const Leaf*>(n);
    if (at >= leaves.size() || leaves[at] != l || n->count != l->size) {
      order_ok = false;
    }
    ++at;
  });
  if (!s.ok()) return s;
  if (!order_ok || nodes != leaves.size()) {
    return absl::InternalError(
        "wormhole: the rank treap does not list the leaves with their counts");
  }
  // Both table copies: exactly the anchors' prefixes, each node right.
  for (const std::unique_ptr<MetaTable>& table : tables_) {
    if (table->version != current->version) {
      return absl::InternalError("wormhole: table copies differ in version");
    }
    s = CheckTable(*table);
    if (!s.ok()) return s;
    table->ForEach([&](const MetaNode* node) {
      bytes += static_cast<int64_t>(wh::MetaNodeBytes(node));
    });
  }
  if (bytes != bytes_.load()) {
    return absl::InternalError(absl::StrCat("wormhole: bytes counted ",
                                            bytes_.load(), ", held ", bytes));
  }
  return absl::OkStatus();
}

absl::Status WormholeStore::CheckTable(const MetaTable& table) const {
  std::map<std::string, Expected> expected;
  for (Leaf* l = head_; l != nullptr; l = l->next.load()) {
    const std::string& a = l->anchor;
    if (a.size() > table.max_anchor_size) {
      return Fail("anchor longer than the table's bound", a);
    }
    for (size_t len = 0; len <= a.size(); ++len) {
      Expected& e = expected[a.substr(0, len)];
      if (e.lmost == nullptr) e.lmost = l;
      e.rmost = l;
      if (len < a.size()) {
        const uint8_t b = static_cast<uint8_t>(a[len]);
        e.bitmap[b >> 6] |= uint64_t{1} << (b & 63);
      } else {
        e.anchor_leaf = l;
      }
    }
  }
  if (table.node_count() != expected.size()) {
    return absl::InternalError(
        absl::StrCat("wormhole: table holds ", table.node_count(),
                     " nodes, the anchors ", expected.size(), " prefixes"));
  }
  for (const auto& [prefix, e] : expected) {
    const MetaNode* node = table.Find(wh::Crc32c(prefix), prefix);
    if (node == nullptr)
      return Fail("a prefix is missing from the table", prefix);
    if (node->anchor_leaf != e.anchor_leaf || node->lmost != e.lmost ||
        node->rmost != e.rmost ||
        !std::equal(node->bitmap, node->bitmap + 4, e.bitmap)) {
      return Fail("a table node's children, anchor or ends are wrong", prefix);
    }
  }
  return absl::OkStatus();
}

WormholeStore::Shape WormholeStore::GetShape() const {
  LockAllLeaves();
  Shape shape;
  for (const Leaf* l = head_; l != nullptr; l = l->next.load()) {
    ++shape.leaves;
    shape.largest_leaf = std::max<uint64_t>(shape.largest_leaf, l->size);
    shape.longest_anchor =
        std::max(shape.longest_anchor, static_cast<uint32_t>(l->anchor.size()));
  }
  shape.table_nodes = current_.load()->node_count();
  UnlockAllLeaves();
  return shape;
}

std::vector<std::string> WormholeStore::Anchors() const {
  LockAllLeaves();
  std::vector<std::string> anchors;
  for (const Leaf* l = head_; l != nullptr; l = l->next.load()) {
    anchors.push_back(l->anchor);
  }
  UnlockAllLeaves();
  return anchors;
}

}  // namespace kvlab
