// WormholeStore's operations: construction, the point operations, splits
// and merges, Scan and the ranked operations.

#include "kvlab/stage4/wormhole_store.h"

#include <algorithm>
#include <new>
#include <utility>

#include "crc32c.h"
#include "kvlab/stage4/epoch.h"
#include "leaf.h"
#include "leaf_lock.h"
#include "meta_table.h"
#include "rank_tree.h"

namespace kvlab {

using stage4::EpochReclaimer;
using stage4::wormhole::Crc32c;
using stage4::wormhole::Crc32cExtend;
using stage4::wormhole::HeldLeaf;
using stage4::wormhole::LockLeaf;
using stage4::wormhole::TagOf;
using stage4::wormhole::UnlockLeaf;
namespace wh = stage4::wormhole;

absl::StatusOr<WormholeOptions> WormholeOptions::FromStoreOptions(
    const StoreOptions& options) {
  absl::StatusOr<int64_t> leaf = options.GetInt("leaf", 128, 4, 1024);
  if (!leaf.ok()) return leaf.status();
  WormholeOptions o;
  o.leaf_capacity = static_cast<uint32_t>(*leaf);
  return o;
}

WormholeStore::WormholeStore(const WormholeOptions& options)
    : options_(options),
      head_(wh::NewLeaf(options.leaf_capacity, "")),
      epochs_(std::make_unique<EpochReclaimer>()),
      rank_(std::make_unique<wh::RankTree>(head_)) {
  bytes_ = static_cast<int64_t>(wh::LeafBytes(head_));
  // Both copies start as the root alone: the empty prefix, whose anchor is
  // the first leaf's.
  for (std::unique_ptr<MetaTable>& table : tables_) {
    table = std::make_unique<MetaTable>();
    table->Install(table->Prepare(1));
    MetaNode* root = wh::NewMetaNode("", 0);
    root->anchor_leaf = root->lmost = root->rmost = head_;
    table->Insert(root);
    bytes_ += static_cast<int64_t>(wh::MetaNodeBytes(root));
  }
  current_.store(tables_[0].get());
}

WormholeStore::~WormholeStore() {
  for (Leaf* leaf = head_; leaf != nullptr;) {
    Leaf* next = leaf->next.load(std::memory_order_relaxed);
    wh::FreeLeaf(leaf);
    leaf = next;
  }
  for (std::unique_ptr<MetaTable>& table : tables_) {
    table->ForEach([](MetaNode* node) { wh::FreeMetaNode(node); });
  }
}

WormholeStore::Leaf* WormholeStore::LockLeafFor(std::string_view key,
                                                bool exclusive) const {
  // handout: WormholeStore::LockLeafFor -> #concurrency
  for (;;) {
    const MetaTable* table = current_.load(std::memory_order_acquire);
    const uint64_t version = table->version;
    Leaf* leaf = FindLeaf(*table, key);
    LockLeaf(leaf, exclusive);
    // A leaf split or merged after this copy was made (a merged-away leaf
    // included) carries a newer version: its range may no longer hold key.
    if (leaf->version.load(std::memory_order_acquire) <= version) return leaf;
    UnlockLeaf(leaf, exclusive);
  }
  // handout: end
}

bool WormholeStore::GetImpl(std::string_view key, std::string* value) const {
  const uint16_t tag = TagOf(Crc32c(key));
  EpochReclaimer::Guard guard(epochs_.get());
  HeldLeaf leaf(LockLeafFor(key, false), false);
  const int at = wh::FindInLeaf(*leaf.get(), key, tag);
  if (at < 0) return false;
  if (value != nullptr) {
    value->assign(leaf.get()->PairByTag(at).value);
  }
  return true;
}

bool WormholeStore::PutImpl(std::string_view key, std::string_view value) {
  const uint16_t tag = TagOf(Crc32c(key));
  const uint32_t pair_bytes = wh::PairBytes(key.size(), value.size());
  // Inserts the pair as a new key of the locked `leaf`, which has room;
  // throws std::bad_alloc with nothing changed.
  auto insert_new = [&](Leaf* leaf) {
    bytes_.fetch_add(wh::Reserve(leaf, 1, pair_bytes),
                     std::memory_order_relaxed);
    wh::InsertInLeaf(leaf, key, value, tag);
    CountKeys(leaf, 1);
    size_.fetch_add(1, std::memory_order_release);
  };
  // Gives the pair at `at` of the locked `leaf` the new value; throws
  // std::bad_alloc with nothing changed.
  auto replace = [&](Leaf* leaf, int at) {
    if (!wh::ReplacesInPlace(*leaf, at, value)) {
      bytes_.fetch_add(wh::Reserve(leaf, 0, pair_bytes),
                       std::memory_order_relaxed);
    }
    wh::ReplaceInLeaf(leaf, at, value);
  };
  {
    EpochReclaimer::Guard guard(epochs_.get());
    HeldLeaf leaf(LockLeafFor(key, true), true);
    const int at = wh::FindInLeaf(*leaf.get(), key, tag);
    if (at >= 0) {
      replace(leaf.get(), at);
      return true;
    }
    if (leaf.get()->size < leaf.get()->capacity) {
      insert_new(leaf.get());
      return false;
    }
  }
  // The leaf is full: split it, as the one writer of the table. Without an
  // epoch section: Split waits for the readers of the old table copy.
  std::lock_guard<std::mutex> meta(meta_mu_);
  Leaf* found = FindLeaf(*current_.load(std::memory_order_acquire), key);
  LockLeaf(found, true);
  HeldLeaf leaf(found, true);
  const int at = wh::FindInLeaf(*found, key, tag);
  if (at >= 0) {  // changed meanwhile
    replace(found, at);
    return true;
  }
  if (found->size < found->capacity) {
    insert_new(found);
    return false;
  }
  wh::TableChange pending;
  Leaf* right = Split(found, pair_bytes, &pending);
  // Both halves have room for the pair: this insert cannot fail.
  insert_new(key >= right->anchor ? right : found);
  UnlockLeaf(right, true);
  leaf.Unlock();
  Finish(&pending);
  return false;
}

WormholeStore::Leaf* WormholeStore::Split(Leaf* leaf, uint32_t extra,
                                          wh::TableChange* pending) {
  // handout: WormholeStore::Split -> #splits-and-merges
  wh::SortLeaf(leaf);
  const uint32_t at = leaf->size / 2;
  // The anchor: the shortest prefix of the right half's first key that is
  // larger than the left half's last key.
  // Both views point into the leaf's storage, which MoveTail replaces.
  const std::string_view last = leaf->PairByKey(at - 1).key;
  const std::string_view first = leaf->PairByKey(at).key;
  const size_t common =
      std::mismatch(last.begin(), last.end(), first.begin(), first.end())
          .first -
      last.begin();
  const std::string_view anchor = first.substr(0, common + 1);

  MetaTable* active = current_.load(std::memory_order_relaxed);
  MetaTable* inactive =
      active == tables_[0].get() ? tables_[1].get() : tables_[0].get();
  // Prefixes are present up to some length and absent beyond it.
  uint32_t hashes[kMaxKeySize + 2];
  hashes[0] = 0;
  for (size_t len = 1; len <= anchor.size(); ++len) {
    hashes[len] = Crc32cExtend(hashes[len - 1], anchor.data() + len - 1, 1);
  }
  size_t present = anchor.size();
  while (active->Find(hashes[present], anchor.substr(0, present)) == nullptr) {
    --present;
  }
  const size_t missing = anchor.size() - present;

  // Everything the split needs, allocated before anything changes.
  std::vector<MetaNode*> fresh_now;
  Leaf* right = nullptr;
  MetaTable::Storage storage_now;
  wh::Block left_block;
  wh::Block right_block;
  try {
    fresh_now.reserve(missing);
    pending->fresh.reserve(missing);
    for (size_t len = present + 1; len <= anchor.size(); ++len) {
      fresh_now.push_back(wh::NewMetaNode(anchor.substr(0, len), hashes[len]));
      pending->fresh.push_back(
          wh::NewMetaNode(anchor.substr(0, len), hashes[len]));
    }
    storage_now = inactive->Prepare(missing);
    pending->storage = active->Prepare(missing);
    right = wh::NewLeaf(options_.leaf_capacity, anchor);
    wh::PrepareSplit(*leaf, at, extra, &left_block, &right_block);
  } catch (...) {
    if (right != nullptr) wh::FreeLeaf(right);
    for (MetaNode* node : fresh_now) wh::FreeMetaNode(node);
    for (MetaNode* node : pending->fresh) wh::FreeMetaNode(node);
    pending->fresh.clear();
    MetaTable::FreeStorage(storage_now);
    MetaTable::FreeStorage(pending->storage);
    pending->storage = {};
    throw;
  }

  // Commit: nothing below allocates.
  int64_t added = static_cast<int64_t>(wh::LeafBytes(right));
  for (MetaNode* node : fresh_now) {
    added += 2 * static_cast<int64_t>(wh::MetaNodeBytes(node));
  }
  LockLeaf(right, true);  // no one else can reach it yet
  added += wh::MoveTail(leaf, at, right, left_block, right_block);
  bytes_.fetch_add(added, std::memory_order_relaxed);
  const uint64_t version = active->version + 1;
  leaf->version.store(version, std::memory_order_release);
  right->version.store(version, std::memory_order_release);
  Leaf* after = leaf->next.load(std::memory_order_relaxed);
  right->prev.store(leaf, std::memory_order_relaxed);
  right->next.store(after, std::memory_order_relaxed);
  if (after != nullptr) after->prev.store(right, std::memory_order_release);
  leaf->next.store(right, std::memory_order_release);
  {
    std::lock_guard<std::mutex> rank(rank_mu_);
    // The treap learns the left leaf's pending count with the move.
    const int32_t pending = leaf->rank_delta.exchange(0);
    rank_->InsertAfter(leaf, right, right->size);
    rank_->Add(leaf, pending - static_cast<int64_t>(right->size));
  }
  if (storage_now.slots != nullptr) inactive->Install(storage_now);
  AddAnchor(inactive, right, fresh_now.begin());
  inactive->version = version;
  Publish(inactive);
  pending->table = active;
  pending->add = right;
  pending->version = version;
  return right;
  // handout: end
}

void WormholeStore::Finish(wh::TableChange* pending) {
  // Readers of the old copy leave; then it gets the same change.
  epochs_->Synchronize();
  MetaTable* table = pending->table;
  if (pending->storage.slots != nullptr) table->Install(pending->storage);
  pending->storage = {};
  if (pending->add != nullptr) {
    AddAnchor(table, pending->add, pending->fresh.begin());
    pending->fresh.clear();
  } else {
    RemoveAnchor(table, pending->remove->anchor);
    bytes_.fetch_sub(static_cast<int64_t>(wh::LeafBytes(pending->remove)),
                     std::memory_order_relaxed);
    // No reader can reach the merged-away leaf any more: the table copies
    // and the rank tree no longer hold it, its neighbours no longer link
    // to it, and every reader that found it before has left.
    wh::FreeLeaf(pending->remove);
  }
  table->version = pending->version;
}

bool WormholeStore::DeleteImpl(std::string_view key) {
  const uint16_t tag = TagOf(Crc32c(key));
  bool small;
  {
    EpochReclaimer::Guard guard(epochs_.get());
    HeldLeaf leaf(LockLeafFor(key, true), true);
    const int at = wh::FindInLeaf(*leaf.get(), key, tag);
    if (at < 0) return false;
    int64_t change = wh::RemoveFromLeaf(leaf.get(), at);
    change += wh::MaybeShrink(leaf.get());
    bytes_.fetch_add(change, std::memory_order_relaxed);
    CountKeys(leaf.get(), -1);
    size_.fetch_sub(1, std::memory_order_release);
    small = leaf.get()->size * 4 < leaf.get()->capacity;
  }
  if (small) MaybeMerge(key);
  return true;
}

void WormholeStore::MaybeMerge(std::string_view key) {
  // handout: WormholeStore::MaybeMerge -> #splits-and-merges
  std::lock_guard<std::mutex> meta(meta_mu_);
  const uint32_t capacity = options_.leaf_capacity;
  // Two leaves merge when the result leaves room (a quarter of a leaf), so
  // that a few inserts after a merge do not split it again; an empty leaf
  // merges whenever it can.
  auto fits = [capacity](const Leaf* a, const Leaf* b) {
    const uint32_t sum = a->size + b->size;
    return sum <= capacity * 3 / 4 ||
           (sum <= capacity && (a->size == 0 || b->size == 0));
  };
  Leaf* leaf = FindLeaf(*current_.load(std::memory_order_relaxed), key);
  Leaf* left = nullptr;
  Leaf* right = nullptr;
  LockLeaf(leaf, true);
  if (leaf->size * 4 >= capacity) {  // refilled meanwhile
    UnlockLeaf(leaf, true);
    return;
  }
  // Locks are taken left to right, as every holder of two does.
  if (Leaf* next = leaf->next.load(std::memory_order_relaxed)) {
    LockLeaf(next, true);
    if (fits(leaf, next)) {
      left = leaf;
      right = next;
    } else {
      UnlockLeaf(next, true);
    }
  }
  if (left == nullptr) {
    Leaf* prev = leaf->prev.load(std::memory_order_relaxed);
    if (prev != nullptr) {
      UnlockLeaf(leaf, true);
      LockLeaf(prev, true);
      LockLeaf(leaf, true);
      if (fits(prev, leaf)) {
        left = prev;
        right = leaf;
      } else {
        UnlockLeaf(prev, true);
      }
    }
  }
  if (left == nullptr) {
    UnlockLeaf(leaf, true);
    return;
  }
  // Merging is optional: without memory for the merged storage (a Delete
  // allocates nothing it needs), both leaves stay as they are.
  wh::Block block;
  try {
    block = wh::PrepareMerge(*right, *left);
  } catch (const std::bad_alloc&) {
    UnlockLeaf(right, true);
    UnlockLeaf(left, true);
    return;
  }

  MetaTable* active = current_.load(std::memory_order_relaxed);
  MetaTable* inactive =
      active == tables_[0].get() ? tables_[1].get() : tables_[0].get();
  const uint64_t version = active->version + 1;
  wh::SortLeaf(left);
  wh::SortLeaf(right);
  const uint32_t moved = right->size;
  bytes_.fetch_add(wh::MoveAll(right, left, block), std::memory_order_relaxed);
  left->version.store(version, std::memory_order_release);
  right->version.store(version, std::memory_order_release);
  right->dead = true;
  Leaf* after = right->next.load(std::memory_order_relaxed);
  left->next.store(after, std::memory_order_release);
  if (after != nullptr) after->prev.store(left, std::memory_order_release);
  {
    std::lock_guard<std::mutex> rank(rank_mu_);
    // Both leaves are locked: after the flush their counts are exact, and
    // the dead one is on no list.
    FlushRanks();
    rank_->Add(left, moved);
    rank_->Remove(right);
  }
  RemoveAnchor(inactive, right->anchor);
  inactive->version = version;
  Publish(inactive);
  UnlockLeaf(right, true);
  UnlockLeaf(left, true);
  wh::TableChange pending;
  pending.table = active;
  pending.remove = right;
  pending.version = version;
  Finish(&pending);
  // handout: end
}

uint64_t WormholeStore::Scan(std::string_view start,
                             ScanVisitor visitor) const {
  // handout: WormholeStore::Scan -> #range-operations
  Leaf* first;
  {
    EpochReclaimer::Guard guard(epochs_.get());
    first = LockLeafFor(start, false);
  }
  // Holding a leaf's lock keeps it alive (a merge must lock it first), so
  // the walk along the list needs no epoch section: each next leaf is
  // locked before the current one is released.
  HeldLeaf leaf(first, false);
  wh::EnsureSorted(leaf.get());
  uint32_t i = wh::LowerBoundInLeaf(*leaf.get(), start);
  uint64_t visited = 0;
  for (;;) {
    for (; i < leaf.get()->size; ++i) {
      const wh::Pair pair = leaf.get()->PairByKey(i);
      ++visited;
      if (!visitor(pair.key, pair.value)) return visited;
    }
    Leaf* next = leaf.get()->next.load(std::memory_order_acquire);
    if (next == nullptr) return visited;
    LockLeaf(next, false);
    leaf.Reset(next);
    wh::EnsureSorted(next);
    i = 0;
  }
  // handout: end
}

bool WormholeStore::GetNth(uint64_t n, std::string* key,
                           std::string* value) const {
  // handout: WormholeStore::GetNth -> #range-operations
  EpochReclaimer::Guard guard(epochs_.get());
  for (;;) {
    Leaf* leaf;
    {
      std::lock_guard<std::mutex> rank(rank_mu_);
      FlushRanks();
      if (n >= rank_->Total()) return false;
      uint64_t offset;
      leaf = static_cast<Leaf*>(rank_->Find(n, &offset));
    }
    LockLeaf(leaf, false);
    HeldLeaf held(leaf, false);
    if (leaf->dead) continue;
    // With the leaf locked its count is fixed; the keys before it are
    // counted again, now consistent with it.
    {
      std::lock_guard<std::mutex> rank(rank_mu_);
      FlushRanks();
    }
    uint64_t before;
    {
      std::lock_guard<std::mutex> rank(rank_mu_);
      before = rank_->KeysBefore(leaf);
    }
    if (n < before || n >= before + leaf->size) continue;
    wh::EnsureSorted(leaf);
    const wh::Pair pair = leaf->PairByKey(n - before);
    if (key != nullptr) key->assign(pair.key);
    if (value != nullptr) value->assign(pair.value);
    return true;
  }
  // handout: end
}

bool WormholeStore::DeleteNth(uint64_t n) {
  // Like GetNth with the leaf locked exclusively; allocates nothing: the
  // removed key is kept in a buffer on the stack for MaybeMerge.
  char removed[kMaxKeySize];
  size_t removed_size = 0;
  bool done = false;
  bool small = false;
  {
    EpochReclaimer::Guard guard(epochs_.get());
    while (!done) {
      Leaf* leaf;
      {
        std::lock_guard<std::mutex> rank(rank_mu_);
        FlushRanks();
        if (n >= rank_->Total()) return false;
        uint64_t offset;
        leaf = static_cast<Leaf*>(rank_->Find(n, &offset));
      }
      LockLeaf(leaf, true);
      HeldLeaf held(leaf, true);
      if (leaf->dead) continue;
      std::lock_guard<std::mutex> rank(rank_mu_);
      FlushRanks();
      const uint64_t before = rank_->KeysBefore(leaf);
      if (n < before || n >= before + leaf->size) continue;
      wh::SortLeaf(leaf);
      const std::string_view key = leaf->PairByKey(n - before).key;
      removed_size = key.size();
      std::copy(key.begin(), key.end(), removed);
      int64_t change = wh::RemoveFromLeaf(
          leaf, wh::FindInLeaf(*leaf, key, TagOf(Crc32c(key))));
      change += wh::MaybeShrink(leaf);
      bytes_.fetch_add(change, std::memory_order_relaxed);
      rank_->Add(leaf, -1);
      size_.fetch_sub(1, std::memory_order_release);
      small = leaf->size * 4 < leaf->capacity;
      done = true;
    }
  }
  // The removed pair's key still finds the leaf it was in.
  if (small) MaybeMerge({removed, removed_size});
  return true;
}

void WormholeStore::CountKeys(Leaf* leaf, int32_t delta) const {
  // seq_cst, as in FlushRanks: a delta added after a flush took the
  // leaf's delta is followed by a load that sees the flag it cleared.
  leaf->rank_delta.fetch_add(delta, std::memory_order_seq_cst);
  if (leaf->rank_dirty.load(std::memory_order_seq_cst) ||
      leaf->rank_dirty.exchange(true, std::memory_order_acq_rel)) {
    return;  // on the list already
  }
  Leaf* head = dirty_.load(std::memory_order_relaxed);
  do {
    leaf->dirty_next = head;
  } while (!dirty_.compare_exchange_weak(head, leaf, std::memory_order_release,
                                         std::memory_order_relaxed));
}

void WormholeStore::FlushRanks() const {
  Leaf* leaf = dirty_.exchange(nullptr, std::memory_order_acquire);
  while (leaf != nullptr) {
    // Read before the flag clears: a writer may then push the leaf again.
    Leaf* next = leaf->dirty_next;
    // Cleared before the delta is taken: a key counted after the exchange
    // below finds the flag clear and lists the leaf again.
    leaf->rank_dirty.store(false, std::memory_order_seq_cst);
    const int32_t delta =
        leaf->rank_delta.exchange(0, std::memory_order_seq_cst);
    if (delta != 0) rank_->Add(leaf, delta);
    leaf = next;
  }
}

uint64_t WormholeStore::Size() const {
  return size_.load(std::memory_order_acquire);
}

std::optional<size_t> WormholeStore::MemoryUsage() const {
  std::lock_guard<std::mutex> meta(meta_mu_);
  return sizeof(*this) + sizeof(MetaTable) * 2 + sizeof(EpochReclaimer) +
         sizeof(wh::RankTree) +
         static_cast<size_t>(bytes_.load(std::memory_order_relaxed)) +
         tables_[0]->Bytes() + tables_[1]->Bytes();
}

}  // namespace kvlab
