// CheckInvariants, GetShape and Anchors: the whole structure, with every
// writer held off (the table writers' mutex, then every leaf's lock in list
// order, the order every writer takes them in).

#include <algorithm>
#include <map>
#include <set>
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
    if (l->size > 0 && l->block.slots < l->size) {
      return Fail("leaf storage has fewer slots than pairs", l->anchor);
    }
    if (l->size == 0 && l->block.memory != nullptr) {
      return Fail("an empty leaf keeps storage", l->anchor);
    }
    // Every slot in [0, size) once in each array; the live pairs' bytes
    // and the dead ones add up to what the data holds.
    std::vector<int> in_tag(l->size, 0);
    std::vector<int> in_key(l->size, 0);
    uint64_t live = 0;
    for (uint32_t i = 0; i < l->size; ++i) {
      const uint32_t e = l->by_tag[i];
      const uint32_t s = Leaf::SlotAt(e);
      const uint32_t k = l->by_key[i];
      if (s >= l->size || k >= l->size) {
        return Fail("a slot number past the leaf's size", l->anchor);
      }
      ++in_tag[s];
      ++in_key[k];
      if (i > 0 && Leaf::TagAt(l->by_tag[i - 1]) > Leaf::TagAt(e)) {
        return Fail("tag array out of tag order", l->anchor);
      }
      if (l->offsets[s] >= l->data_used) {
        return Fail("a pair lies outside the leaf's data", l->anchor);
      }
      if (Leaf::TagAt(e) != wh::TagOf(wh::Crc32c(l->KeyIn(s)))) {
        return Fail("a pair's tag is not its key's", l->anchor);
      }
      const std::string_view key = l->KeyIn(k);
      if (i > 0 && i < sorted && !(l->KeyIn(l->by_key[i - 1]) < key)) {
        return Fail("sorted part of the key array out of order", l->anchor);
      }
      if (key < l->anchor) return Fail("key below its anchor", l->anchor);
      if (next != nullptr && !(key < next->anchor)) {
        return Fail("key not below the next anchor", l->anchor);
      }
      live += l->PairIn(s).bytes();
    }
    for (uint32_t s = 0; s < l->size; ++s) {
      if (in_tag[s] != 1 || in_key[s] != 1) {
        return Fail("tag and key arrays hold different slots", l->anchor);
      }
    }
    if (l->data_used > l->block.data_size ||
        live + l->data_dead != l->data_used) {
      return Fail("the leaf's data bytes do not add up", l->anchor);
    }
    std::vector<std::string_view> keys_here;
    for (uint32_t s = 0; s < l->size; ++s) keys_here.push_back(l->KeyIn(s));
    std::sort(keys_here.begin(), keys_here.end());
    for (size_t i = 1; i < keys_here.size(); ++i) {
      if (keys_here[i - 1] == keys_here[i]) {
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
  // The leaves with counts pending are listed, each once.
  std::set<const Leaf*> listed;
  for (const Leaf* l = dirty_.load(); l != nullptr; l = l->dirty_next) {
    if (!listed.insert(l).second || !l->rank_dirty.load() || l->dead) {
      return absl::InternalError(
          "wormhole: the list of leaves to count is broken");
    }
  }
  for (const Leaf* l : leaves) {
    if (l->rank_delta.load() != 0 && listed.count(l) == 0) {
      return Fail("a pending count is on no list", l->anchor);
    }
  }
  // The rank treap: the leaves in order with their counts (pending ones
  // added).
  size_t at = 0;
  bool order_ok = true;
  uint64_t nodes = 0;
  absl::Status s = rank_->Check(&nodes, [&](const wh::RankNode* n) {
    const Leaf* l = static_cast<const Leaf*>(n);
    if (at >= leaves.size() || leaves[at] != l ||
        static_cast<int64_t>(n->count) + l->rank_delta.load() !=
            static_cast<int64_t>(l->size)) {
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
