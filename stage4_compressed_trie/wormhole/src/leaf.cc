#include "leaf.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <thread>

namespace kvlab::stage4::wormhole {
namespace {

bool KeyLess(const Item* a, const Item* b) { return a->key() < b->key(); }

// SortLeaf inserts the unsorted tail into the sorted head, item by item,
// while the tail is at most 1/kTailInsertionRatio of the head; a longer
// tail (a burst of inserts, a bulk load) is sorted with the head at once.
constexpr uint32_t kTailInsertionRatio = 4;

// Fills by_tag from by_key and sorts it by tag.
void RebuildTags(Leaf* leaf) {
  for (uint32_t i = 0; i < leaf->size; ++i) {
    leaf->by_tag[i] = Leaf::EntryOf(leaf->by_key[i]);
  }
  std::sort(leaf->by_tag, leaf->by_tag + leaf->size);
}

uint32_t IndexInByKey(const Leaf& leaf, const Item* item) {
  const uint32_t sorted = leaf.sorted.load(std::memory_order_relaxed);
  Item* const* begin = leaf.by_key;
  Item* const* it = std::lower_bound(begin, begin + sorted, item, KeyLess);
  if (it != begin + sorted && *it == item)
    return static_cast<uint32_t>(it - begin);
  for (uint32_t i = sorted; i < leaf.size; ++i) {
    if (leaf.by_key[i] == item) return i;
  }
  return leaf.size;  // not reached for an item of this leaf
}

}  // namespace

Item* NewItem(std::string_view key, std::string_view value, uint16_t tag) {
  void* block = ::operator new(sizeof(Item) + key.size() + value.size());
  Item* item = new (block) Item{static_cast<uint16_t>(key.size()),
                                static_cast<uint16_t>(value.size()), tag, 0};
  char* bytes = reinterpret_cast<char*>(item + 1);
  if (!key.empty()) std::memcpy(bytes, key.data(), key.size());
  if (!value.empty())
    std::memcpy(bytes + key.size(), value.data(), value.size());
  return item;
}

void FreeItem(Item* item) { ::operator delete(item); }

Leaf* NewLeaf(uint32_t capacity, std::string_view anchor) {
  const size_t bytes =
      sizeof(Leaf) + capacity * (sizeof(uint64_t) + sizeof(Item*));
  void* block = ::operator new(bytes);
  Leaf* leaf;
  try {
    leaf = new (block) Leaf();
    leaf->anchor.assign(anchor);
  } catch (...) {
    ::operator delete(block);
    throw;
  }
  leaf->capacity = capacity;
  leaf->by_tag = reinterpret_cast<uint64_t*>(leaf + 1);
  leaf->by_key = reinterpret_cast<Item**>(leaf->by_tag + capacity);
  return leaf;
}

void FreeLeaf(Leaf* leaf) {
  leaf->~Leaf();
  ::operator delete(leaf);
}

size_t LeafBytes(const Leaf* leaf) {
  size_t bytes =
      sizeof(Leaf) + leaf->capacity * (sizeof(uint64_t) + sizeof(Item*));
  // A long anchor lives outside the std::string (beyond its inline buffer).
  if (leaf->anchor.capacity() > 15) bytes += leaf->anchor.capacity() + 1;
  return bytes;
}

int FindInLeaf(const Leaf& leaf, std::string_view key, uint16_t tag) {
  // handout: FindInLeaf -> #leaves-and-tags
  const uint32_t n = leaf.size;
  if (n == 0) return -1;
  // Speculative position: where the tag would sit if tags were uniform.
  uint32_t i = static_cast<uint32_t>((uint64_t{tag} * n) >> 16);
  const uint64_t* t = leaf.by_tag;
  auto tag_at = [t](uint32_t k) { return static_cast<uint16_t>(t[k] >> 48); };
  if (tag_at(i) < tag) {
    while (i < n && tag_at(i) < tag) ++i;
  } else {
    while (i > 0 && tag_at(i - 1) >= tag) --i;
  }
  for (; i < n && tag_at(i) == tag; ++i) {
    if (Leaf::ItemOf(t[i])->key() == key) return static_cast<int>(i);
  }
  return -1;
  // handout: end
}

void InsertInLeaf(Leaf* leaf, Item* item) {
  const uint64_t entry = Leaf::EntryOf(item);
  uint64_t* pos =
      std::upper_bound(leaf->by_tag, leaf->by_tag + leaf->size, entry);
  std::memmove(pos + 1, pos,
               (leaf->by_tag + leaf->size - pos) * sizeof(uint64_t));
  *pos = entry;
  leaf->by_key[leaf->size] = item;
  // An append in order keeps the array sorted (loading sorted input).
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  if (sorted == leaf->size &&
      (sorted == 0 || leaf->by_key[sorted - 1]->key() < item->key())) {
    leaf->sorted.store(sorted + 1, std::memory_order_release);
  }
  ++leaf->size;
}

Item* ReplaceInLeaf(Leaf* leaf, int at, Item* item) {
  Item* old = Leaf::ItemOf(leaf->by_tag[at]);
  leaf->by_tag[at] = Leaf::EntryOf(item);
  leaf->by_key[IndexInByKey(*leaf, old)] = item;
  return old;
}

Item* RemoveFromLeaf(Leaf* leaf, int at) {
  Item* item = Leaf::ItemOf(leaf->by_tag[at]);
  std::memmove(leaf->by_tag + at, leaf->by_tag + at + 1,
               (leaf->size - at - 1) * sizeof(uint64_t));
  const uint32_t k = IndexInByKey(*leaf, item);
  std::memmove(leaf->by_key + k, leaf->by_key + k + 1,
               (leaf->size - k - 1) * sizeof(Item*));
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  if (k < sorted) leaf->sorted.store(sorted - 1, std::memory_order_release);
  --leaf->size;
  return item;
}

void SortLeaf(Leaf* leaf) {
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  if (sorted == leaf->size) return;
  Item** keys = leaf->by_key;
  // Neither way needs a buffer, so sorting never allocates (and never fails
  // for want of memory).
  if (leaf->size - sorted <= sorted / kTailInsertionRatio) {
    // A short tail (a few Puts since the last range read, the common case
    // in a mixed workload): each item is placed by binary search and one
    // shift, about log2(size) comparisons, not a sort of the whole leaf.
    for (uint32_t i = sorted; i < leaf->size; ++i) {
      Item* item = keys[i];
      Item** at = std::upper_bound(keys, keys + i, item, KeyLess);
      std::memmove(at + 1, at, (keys + i - at) * sizeof(Item*));
      *at = item;
    }
  } else {
    std::sort(keys, keys + leaf->size, KeyLess);
  }
  leaf->sorted.store(leaf->size, std::memory_order_release);
}

void EnsureSorted(Leaf* leaf) {
  if (leaf->sorted.load(std::memory_order_acquire) == leaf->size) return;
  int spins = 0;
  for (;;) {
    uint32_t expected = 0;
    if (leaf->sorting.compare_exchange_weak(expected, 1,
                                            std::memory_order_acquire)) {
      break;
    }
    if (++spins > 64) std::this_thread::yield();
  }
  // Another holder of the shared lock may have sorted meanwhile.
  SortLeaf(leaf);
  leaf->sorting.store(0, std::memory_order_release);
}

uint32_t LowerBoundInLeaf(const Leaf& leaf, std::string_view key) {
  Item* const* begin = leaf.by_key;
  Item* const* it = std::lower_bound(
      begin, begin + leaf.size, key,
      [](const Item* a, std::string_view k) { return a->key() < k; });
  return static_cast<uint32_t>(it - begin);
}

void MoveTail(Leaf* from, uint32_t at, Leaf* to) {
  const uint32_t moved = from->size - at;
  std::memcpy(to->by_key, from->by_key + at, moved * sizeof(Item*));
  to->size = moved;
  to->sorted.store(moved, std::memory_order_relaxed);
  from->size = at;
  from->sorted.store(at, std::memory_order_relaxed);
  RebuildTags(from);
  RebuildTags(to);
}

void MoveAll(Leaf* from, Leaf* to) {
  std::memcpy(to->by_key + to->size, from->by_key, from->size * sizeof(Item*));
  to->size += from->size;
  to->sorted.store(to->size, std::memory_order_relaxed);
  from->size = 0;
  from->sorted.store(0, std::memory_order_relaxed);
  RebuildTags(to);
}

}  // namespace kvlab::stage4::wormhole
