#include "meta_table.h"

#include <bit>
#include <cstring>
#include <new>

namespace kvlab::stage4::wormhole {
namespace {

constexpr size_t kMinSlots = 8;

uint16_t TagOfHash(uint32_t hash) { return static_cast<uint16_t>(hash >> 16); }

}  // namespace

int MetaNode::ChildBelow(int b) const {
  for (int w = b >> 6; w >= 0; --w) {
    uint64_t bits = bitmap[w];
    if (w == (b >> 6)) bits &= (uint64_t{1} << (b & 63)) - 1;
    if (bits != 0) return w * 64 + 63 - std::countl_zero(bits);
  }
  return -1;
}

int MetaNode::FirstChild() const {
  for (int w = 0; w < 4; ++w) {
    if (bitmap[w] != 0) return w * 64 + std::countr_zero(bitmap[w]);
  }
  return -1;
}

int MetaNode::LastChild() const {
  for (int w = 3; w >= 0; --w) {
    if (bitmap[w] != 0) return w * 64 + 63 - std::countl_zero(bitmap[w]);
  }
  return -1;
}

MetaNode* NewMetaNode(std::string_view prefix, uint32_t hash) {
  void* block = ::operator new(sizeof(MetaNode) + prefix.size());
  MetaNode* node = new (block) MetaNode();
  node->hash = hash;
  node->size = static_cast<uint32_t>(prefix.size());
  if (!prefix.empty()) {
    std::memcpy(reinterpret_cast<char*>(node + 1), prefix.data(),
                prefix.size());
  }
  return node;
}

void FreeMetaNode(MetaNode* node) { ::operator delete(node); }

size_t MetaNodeBytes(const MetaNode* node) {
  return sizeof(MetaNode) + node->size;
}

MetaTable::~MetaTable() { FreeStorage(storage_); }

const MetaNode* MetaTable::FindByTag(uint32_t hash) const {
  if (storage_.slot_count == 0) return nullptr;
  const size_t mask = storage_.slot_count - 1;
  const uint16_t tag = TagOfHash(hash);
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    for (uint64_t e : storage_.slots[s].entries) {
      if (e != 0 && TagOf(e) == tag) return NodeOf(e);
    }
    if (!storage_.overflowed[s]) return nullptr;
  }
}

MetaNode* MetaTable::Find(uint32_t hash, std::string_view a,
                          std::string_view b) const {
  if (storage_.slot_count == 0) return nullptr;
  const size_t mask = storage_.slot_count - 1;
  const uint16_t tag = TagOfHash(hash);
  const size_t size = a.size() + b.size();
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    for (uint64_t e : storage_.slots[s].entries) {
      if (e != 0 && TagOf(e) == tag) {
        MetaNode* node = NodeOf(e);
        // string_view compares, not memcmp: an empty part may have a null
        // data(), which memcmp must not be given even for zero bytes.
        if (node->hash == hash && node->size == size &&
            std::string_view(node->bytes(), a.size()) == a &&
            std::string_view(node->bytes() + a.size(), b.size()) == b) {
          return node;
        }
      }
    }
    if (!storage_.overflowed[s]) return nullptr;
  }
}

MetaTable::Storage MetaTable::Prepare(size_t more) const {
  // At most 3/4 of the entries in use keeps the probe chains short.
  const size_t need = count_ + more;
  if (need * 4 <= storage_.slot_count * 8 * 3) return {};
  size_t slots = storage_.slot_count == 0 ? kMinSlots : storage_.slot_count;
  while (need * 4 > slots * 8 * 3) slots *= 2;
  Storage fresh;
  fresh.slots = new Slot[slots]();
  try {
    fresh.overflowed = new uint8_t[slots]();
  } catch (...) {
    delete[] fresh.slots;
    throw;
  }
  fresh.slot_count = slots;
  return fresh;
}

void MetaTable::FreeStorage(Storage storage) {
  delete[] storage.slots;
  delete[] storage.overflowed;
}

void MetaTable::Install(Storage storage) {
  Storage old = storage_;
  storage_ = storage;
  for (size_t s = 0; s < old.slot_count; ++s) {
    for (uint64_t e : old.slots[s].entries) {
      if (e != 0) Place(e, NodeOf(e)->hash);
    }
  }
  FreeStorage(old);
}

void MetaTable::Place(uint64_t entry, uint32_t hash) {
  const size_t mask = storage_.slot_count - 1;
  for (size_t s = hash & mask;; s = (s + 1) & mask) {
    for (uint64_t& e : storage_.slots[s].entries) {
      if (e == 0) {
        e = entry;
        return;
      }
    }
    storage_.overflowed[s] = 1;
  }
}

void MetaTable::Insert(MetaNode* node) {
  Place((uint64_t{TagOfHash(node->hash)} << 48) |
            reinterpret_cast<uintptr_t>(node),
        node->hash);
  ++count_;
}

void MetaTable::Erase(const MetaNode* node) {
  const size_t mask = storage_.slot_count - 1;
  for (size_t s = node->hash & mask;; s = (s + 1) & mask) {
    for (uint64_t& e : storage_.slots[s].entries) {
      if (e != 0 && NodeOf(e) == node) {
        e = 0;
        --count_;
        return;
      }
    }
    if (!storage_.overflowed[s]) return;
  }
}

size_t MetaTable::Bytes() const {
  return storage_.slot_count * (sizeof(Slot) + 1);
}

}  // namespace kvlab::stage4::wormhole
