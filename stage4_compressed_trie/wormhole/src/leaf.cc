#include "leaf.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <thread>

namespace kvlab::stage4::wormhole {
namespace {

// Pair lengths: one byte below 128, else two (high bit set on the first).
char* WriteLength(char* p, size_t n) {
  if (n < 128) {
    *p = static_cast<char>(n);
    return p + 1;
  }
  p[0] = static_cast<char>(0x80 | (n >> 8));
  p[1] = static_cast<char>(n & 0xff);
  return p + 2;
}

const char* ReadLength(const char* p, uint32_t* n) {
  const uint8_t b = static_cast<uint8_t>(p[0]);
  if (b < 128) {
    *n = b;
    return p + 1;
  }
  *n = (uint32_t{b & 0x7fu} << 8) | static_cast<uint8_t>(p[1]);
  return p + 2;
}

size_t ArrayBytes(uint32_t slots) {
  // offsets and by_tag (4 bytes each), by_key (2), rounded to 8 bytes.
  return (size_t{slots} * 10 + 7) & ~size_t{7};
}

// Room to grow: a quarter more than `n`, so that a leaf filling up rebuilds
// its storage a few times between splits, not at every insert.
uint32_t SlotsFor(uint32_t n, uint32_t capacity) {
  return std::min(capacity, n + std::max<uint32_t>(2, n / 4));
}
uint32_t DataFor(uint32_t bytes) {
  return (bytes + std::max<uint32_t>(16, bytes / 4) + 7) & ~7u;
}

void Install(Leaf* leaf, Block block) {
  leaf->block = block;
  if (block.memory == nullptr) {
    leaf->offsets = nullptr;
    leaf->by_tag = nullptr;
    leaf->by_key = nullptr;
    leaf->data = nullptr;
    return;
  }
  leaf->offsets = reinterpret_cast<uint32_t*>(block.memory);
  leaf->by_tag = leaf->offsets + block.slots;
  leaf->by_key = reinterpret_cast<uint16_t*>(leaf->by_tag + block.slots);
  leaf->data = block.memory + ArrayBytes(block.slots);
}

uint32_t LiveBytes(const Leaf& leaf) { return leaf.data_used - leaf.data_dead; }

// Appends the pair at `p` to `to`'s data as slot `as`.
void CopyPair(const char* p, Leaf* to, uint32_t as) {
  uint32_t key_size;
  uint32_t value_size;
  const char* q = ReadLength(ReadLength(p, &key_size), &value_size);
  const uint32_t bytes = static_cast<uint32_t>(q - p) + key_size + value_size;
  std::memcpy(to->data + to->data_used, p, bytes);
  to->offsets[as] = to->data_used;
  to->data_used += bytes;
}

// Moves the leaf's pairs into `block` (large enough), in by_key order,
// dropping dead bytes; slot numbers and both orders stay. Frees the old
// block; returns the change of bytes.
int64_t Rebuild(Leaf* leaf, Block block) {
  const char* old_data = leaf->data;
  const uint32_t* old_offsets = leaf->offsets;
  const Block old = leaf->block;
  const uint32_t* old_tags = leaf->by_tag;
  const uint16_t* old_keys = leaf->by_key;
  Install(leaf, block);
  leaf->data_used = 0;
  leaf->data_dead = 0;
  for (uint32_t i = 0; i < leaf->size; ++i) {
    CopyPair(old_data + old_offsets[old_keys[i]], leaf, old_keys[i]);
  }
  if (leaf->size > 0) {
    std::memcpy(leaf->by_tag, old_tags, leaf->size * sizeof(uint32_t));
    std::memcpy(leaf->by_key, old_keys, leaf->size * sizeof(uint16_t));
  }
  FreeBlock(old);
  return static_cast<int64_t>(BlockBytes(block)) -
         static_cast<int64_t>(BlockBytes(old));
}

void DropStorage(Leaf* leaf) {
  FreeBlock(leaf->block);
  Install(leaf, Block{});
  leaf->data_used = 0;
  leaf->data_dead = 0;
}

uint32_t IndexInByKey(const Leaf& leaf, uint32_t slot) {
  for (uint32_t i = 0;; ++i) {
    if (leaf.by_key[i] == slot) return i;
  }
}

uint32_t IndexInByTag(const Leaf& leaf, uint32_t slot) {
  for (uint32_t i = 0;; ++i) {
    if (Leaf::SlotAt(leaf.by_tag[i]) == slot) return i;
  }
}

}  // namespace

Block NewBlock(uint32_t slots, uint32_t data_size) {
  Block block;
  block.memory = static_cast<char*>(
      ::operator new (ArrayBytes(slots) + size_t{data_size}));
  block.slots = slots;
  block.data_size = data_size;
  return block;
}

void FreeBlock(Block block) {
  if (block.memory != nullptr) ::operator delete(block.memory);
}

size_t BlockBytes(const Block& block) {
  if (block.memory == nullptr) return 0;
  return ArrayBytes(block.slots) + block.data_size;
}

Pair Leaf::PairIn(uint32_t slot) const {
  const char* p = data + offsets[slot];
  uint32_t key_size;
  uint32_t value_size;
  p = ReadLength(ReadLength(p, &key_size), &value_size);
  return {{p, key_size}, {p + key_size, value_size}};
}

std::string_view Leaf::KeyIn(uint32_t slot) const {
  const char* p = data + offsets[slot];
  uint32_t key_size;
  uint32_t value_size;
  p = ReadLength(ReadLength(p, &key_size), &value_size);
  return {p, key_size};
}

Leaf* NewLeaf(uint32_t capacity, std::string_view anchor) {
  Leaf* leaf = new Leaf();
  try {
    leaf->anchor.assign(anchor);
  } catch (...) {
    delete leaf;
    throw;
  }
  leaf->capacity = capacity;
  return leaf;
}

void FreeLeaf(Leaf* leaf) {
  FreeBlock(leaf->block);
  delete leaf;
}

size_t LeafBytes(const Leaf* leaf) {
  size_t bytes = sizeof(Leaf) + BlockBytes(leaf->block);
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
  const uint32_t* t = leaf.by_tag;
  if (Leaf::TagAt(t[i]) < tag) {
    while (i < n && Leaf::TagAt(t[i]) < tag) ++i;
  } else {
    while (i > 0 && Leaf::TagAt(t[i - 1]) >= tag) --i;
  }
  for (; i < n && Leaf::TagAt(t[i]) == tag; ++i) {
    if (leaf.KeyIn(Leaf::SlotAt(t[i])) == key) return static_cast<int>(i);
  }
  return -1;
  // handout: end
}

int64_t Reserve(Leaf* leaf, uint32_t slots, uint32_t bytes) {
  const uint32_t need = leaf->size + slots;
  if (leaf->block.slots >= need &&
      leaf->block.data_size - leaf->data_used >= bytes) {
    return 0;
  }
  const Block block = NewBlock(SlotsFor(need, leaf->capacity),
                               DataFor(LiveBytes(*leaf) + bytes));
  return Rebuild(leaf, block);
}

void InsertInLeaf(Leaf* leaf, std::string_view key, std::string_view value,
                  uint16_t tag) {
  const uint32_t slot = leaf->size;
  char* p = leaf->data + leaf->data_used;
  leaf->offsets[slot] = leaf->data_used;
  p = WriteLength(WriteLength(p, key.size()), value.size());
  if (!key.empty()) std::memcpy(p, key.data(), key.size());
  if (!value.empty()) std::memcpy(p + key.size(), value.data(), value.size());
  leaf->data_used += PairBytes(key.size(), value.size());

  const uint32_t entry = (uint32_t{tag} << 16) | slot;
  uint32_t* pos =
      std::upper_bound(leaf->by_tag, leaf->by_tag + leaf->size, entry);
  std::memmove(pos + 1, pos,
               (leaf->by_tag + leaf->size - pos) * sizeof(uint32_t));
  *pos = entry;
  leaf->by_key[leaf->size] = static_cast<uint16_t>(slot);
  // An append in order keeps the array sorted (loading sorted input).
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  if (sorted == leaf->size &&
      (sorted == 0 || leaf->KeyIn(leaf->by_key[sorted - 1]) < key)) {
    leaf->sorted.store(sorted + 1, std::memory_order_release);
  }
  ++leaf->size;
}

bool ReplacesInPlace(const Leaf& leaf, int at, std::string_view value) {
  return leaf.PairByTag(at).value.size() == value.size();
}

void ReplaceInLeaf(Leaf* leaf, int at, std::string_view value) {
  const uint32_t slot = Leaf::SlotAt(leaf->by_tag[at]);
  const Pair old = leaf->PairIn(slot);
  if (old.value.size() == value.size()) {
    if (!value.empty()) {
      std::memcpy(leaf->data + (old.value.data() - leaf->data), value.data(),
                  value.size());
    }
    return;
  }
  // The key is copied from the old pair, which stays where it is (dead).
  const uint32_t offset = leaf->data_used;
  char* p = leaf->data + offset;
  p = WriteLength(WriteLength(p, old.key.size()), value.size());
  if (!old.key.empty()) std::memcpy(p, old.key.data(), old.key.size());
  if (!value.empty()) {
    std::memcpy(p + old.key.size(), value.data(), value.size());
  }
  leaf->data_used += PairBytes(old.key.size(), value.size());
  leaf->data_dead += old.bytes();
  leaf->offsets[slot] = offset;
}

int64_t RemoveFromLeaf(Leaf* leaf, int at) {
  const uint32_t slot = Leaf::SlotAt(leaf->by_tag[at]);
  leaf->data_dead += leaf->PairIn(slot).bytes();
  std::memmove(leaf->by_tag + at, leaf->by_tag + at + 1,
               (leaf->size - at - 1) * sizeof(uint32_t));
  const uint32_t k = IndexInByKey(*leaf, slot);
  std::memmove(leaf->by_key + k, leaf->by_key + k + 1,
               (leaf->size - k - 1) * sizeof(uint16_t));
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  if (k < sorted) leaf->sorted.store(sorted - 1, std::memory_order_release);
  --leaf->size;
  // Slots stay dense: the last one takes the freed number.
  const uint32_t last = leaf->size;
  if (slot != last) {
    leaf->offsets[slot] = leaf->offsets[last];
    uint32_t& t = leaf->by_tag[IndexInByTag(*leaf, last)];
    t = (t & 0xffff0000u) | slot;
    leaf->by_key[IndexInByKey(*leaf, last)] = static_cast<uint16_t>(slot);
  }
  if (leaf->size > 0) return 0;
  const int64_t freed = static_cast<int64_t>(BlockBytes(leaf->block));
  DropStorage(leaf);
  return -freed;
}

int64_t MaybeShrink(Leaf* leaf) {
  if (leaf->block.memory == nullptr ||
      leaf->data_dead * 2 <= leaf->block.data_size || leaf->data_dead < 256) {
    return 0;
  }
  Block block;
  try {
    block = NewBlock(SlotsFor(leaf->size, leaf->capacity),
                     DataFor(LiveBytes(*leaf)));
  } catch (const std::bad_alloc&) {
    return 0;  // dead bytes stay until memory is back
  }
  return Rebuild(leaf, block);
}

void SortLeaf(Leaf* leaf) {
  const uint32_t sorted = leaf->sorted.load(std::memory_order_relaxed);
  const uint32_t n = leaf->size;
  if (sorted == n) return;
  // Buffers on the stack (a leaf holds at most 1024 pairs), so sorting
  // never allocates and never fails for want of memory: every key decoded
  // once, then the unsorted tail sorted and merged with the sorted head.
  std::string_view keys[1024];
  for (uint32_t s = 0; s < n; ++s) keys[s] = leaf->KeyIn(s);
  auto less = [&keys](uint16_t a, uint16_t b) { return keys[a] < keys[b]; };
  uint16_t* order = leaf->by_key;
  std::sort(order + sorted, order + n, less);
  uint16_t merged[1024];
  std::merge(order, order + sorted, order + sorted, order + n, merged, less);
  std::copy(merged, merged + n, order);
  leaf->sorted.store(n, std::memory_order_release);
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
  const uint16_t* begin = leaf.by_key;
  const uint16_t* it = std::lower_bound(
      begin, begin + leaf.size, key,
      [&leaf](uint16_t a, std::string_view k) { return leaf.KeyIn(a) < k; });
  return static_cast<uint32_t>(it - begin);
}

void PrepareSplit(const Leaf& from, uint32_t at, uint32_t extra, Block* left,
                  Block* right) {
  uint32_t left_bytes = 0;
  uint32_t right_bytes = 0;
  for (uint32_t i = 0; i < from.size; ++i) {
    (i < at ? left_bytes : right_bytes) += from.PairByKey(i).bytes();
  }
  *left =
      NewBlock(SlotsFor(at + 1, from.capacity), DataFor(left_bytes + extra));
  try {
    *right = NewBlock(SlotsFor(from.size - at + 1, from.capacity),
                      DataFor(right_bytes + extra));
  } catch (...) {
    FreeBlock(*left);
    *left = {};
    throw;
  }
}

int64_t MoveTail(Leaf* from, uint32_t at, Leaf* to, Block left, Block right) {
  const int64_t before =
      static_cast<int64_t>(BlockBytes(from->block) + BlockBytes(to->block));
  // from's old storage, read while both halves are written.
  const char* data = from->data;
  const uint32_t* offsets = from->offsets;
  const Block old = from->block;
  const uint32_t size = from->size;
  const uint32_t* tags = from->by_tag;
  const uint16_t* keys = from->by_key;
  // A pair keeps its key order: slot i of the left half is by_key[i], slot
  // j of the right half is by_key[at + j]. Bit 15 marks the right half.
  uint16_t renumber[1024];
  FreeBlock(to->block);
  Install(from, left);
  Install(to, right);
  from->data_used = from->data_dead = 0;
  to->data_used = to->data_dead = 0;
  for (uint32_t i = 0; i < size; ++i) {
    if (i < at) {
      CopyPair(data + offsets[keys[i]], from, i);
      from->by_key[i] = static_cast<uint16_t>(i);
      renumber[keys[i]] = static_cast<uint16_t>(i);
    } else {
      CopyPair(data + offsets[keys[i]], to, i - at);
      to->by_key[i - at] = static_cast<uint16_t>(i - at);
      renumber[keys[i]] = static_cast<uint16_t>(0x8000 | (i - at));
    }
  }
  uint32_t left_tags = 0;
  uint32_t right_tags = 0;
  for (uint32_t i = 0; i < size; ++i) {
    const uint16_t r = renumber[Leaf::SlotAt(tags[i])];
    const uint32_t tag = tags[i] & 0xffff0000u;
    if (r & 0x8000) {
      to->by_tag[right_tags++] = tag | (r & 0x7fffu);
    } else {
      from->by_tag[left_tags++] = tag | r;
    }
  }
  FreeBlock(old);
  to->size = size - at;
  to->sorted.store(size - at, std::memory_order_relaxed);
  from->size = at;
  from->sorted.store(at, std::memory_order_relaxed);
  return static_cast<int64_t>(BlockBytes(left) + BlockBytes(right)) - before;
}

Block PrepareMerge(const Leaf& from, const Leaf& to) {
  if (from.size == 0 || to.size == 0) return {};
  if (to.block.slots >= to.size + from.size &&
      to.block.data_size - to.data_used >= LiveBytes(from)) {
    return {};
  }
  return NewBlock(SlotsFor(to.size + from.size, to.capacity),
                  DataFor(LiveBytes(to) + LiveBytes(from)));
}

int64_t MoveAll(Leaf* from, Leaf* to, Block block) {
  int64_t change = 0;
  if (from->size == 0) {
    change -= static_cast<int64_t>(BlockBytes(from->block));
    DropStorage(from);
    return change;
  }
  if (to->size == 0) {
    // The right leaf's storage moves over whole.
    change -= static_cast<int64_t>(BlockBytes(to->block));
    FreeBlock(to->block);
    Install(to, from->block);
    to->data_used = from->data_used;
    to->data_dead = from->data_dead;
    to->size = from->size;
    to->sorted.store(from->size, std::memory_order_relaxed);
    Install(from, Block{});
    from->data_used = from->data_dead = 0;
    from->size = 0;
    from->sorted.store(0, std::memory_order_relaxed);
    return change;
  }
  if (block.memory != nullptr) change += Rebuild(to, block);
  const uint32_t n = to->size;
  const uint32_t m = from->size;
  uint16_t renumber[1024];
  for (uint32_t i = 0; i < m; ++i) {
    CopyPair(from->data + from->offsets[from->by_key[i]], to, n + i);
    to->by_key[n + i] = static_cast<uint16_t>(n + i);
    renumber[from->by_key[i]] = static_cast<uint16_t>(n + i);
  }
  // Merges the two tag orders from the back, in place.
  int64_t i = n - 1;
  int64_t j = m - 1;
  for (int64_t k = n + m - 1; j >= 0; --k) {
    const uint32_t e = from->by_tag[j];
    if (i >= 0 && Leaf::TagAt(to->by_tag[i]) > Leaf::TagAt(e)) {
      to->by_tag[k] = to->by_tag[i--];
    } else {
      to->by_tag[k] = (e & 0xffff0000u) | renumber[Leaf::SlotAt(e)];
      --j;
    }
  }
  to->size = n + m;
  to->sorted.store(n + m, std::memory_order_relaxed);
  change -= static_cast<int64_t>(BlockBytes(from->block));
  DropStorage(from);
  from->size = 0;
  from->sorted.store(0, std::memory_order_relaxed);
  return change;
}

}  // namespace kvlab::stage4::wormhole
