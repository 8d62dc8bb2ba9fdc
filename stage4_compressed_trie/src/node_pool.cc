#include "node_pool.h"

#include <sys/mman.h>

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "absl/strings/str_cat.h"

namespace kvlab::stage4 {

NodePool::NodePool(size_t max_object_bytes, bool use_slabs)
    : use_slabs_(use_slabs) {
  const size_t classes = ClassOf(max_object_bytes) + 1;
  free_aligned_.assign(classes, nullptr);
  free_unaligned_.assign(classes, nullptr);
  live_.assign(classes, 0);
  free_.assign(classes, 0);
  nonempty_aligned_.assign((classes + 63) / 64, 0);
  nonempty_unaligned_.assign((classes + 63) / 64, 0);
}

NodePool::~NodePool() {
  for (char* slab : slabs_) munmap(slab, kSlabBytes);
}

// Maps twice the slab size and unmaps what lies outside the one aligned
// slab inside, since mmap itself only promises 4 KiB alignment.
void NodePool::NewSlab() {
  // Room for the slab's entry comes first: a failure once it is mapped would
  // leak the mapping.
  if (slabs_.size() == slabs_.capacity()) slabs_.reserve(2 * slabs_.size() + 8);
  const size_t span = 2 * kSlabBytes;
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t slab = (begin + kSlabBytes - 1) & ~(kSlabBytes - 1);
  if (slab > begin) munmap(raw, slab - begin);
  if (slab + kSlabBytes < begin + span) {
    munmap(reinterpret_cast<void*>(slab + kSlabBytes),
           begin + span - slab - kSlabBytes);
  }
  (void)madvise(reinterpret_cast<void*>(slab), kSlabBytes, MADV_HUGEPAGE);
  char* start = reinterpret_cast<char*>(slab);
  new (start) SlabHeader{};
  slabs_.push_back(start);
  cursor_ = start + kHeaderBytes;
  slab_end_ = start + kSlabBytes;
}

void* NodePool::NextOf(void* block) {
  void* next;
  std::memcpy(&next, block, sizeof(next));
  return next;
}

void NodePool::SetNext(void* block, void* next) {
  std::memcpy(block, &next, sizeof(next));
}

void NodePool::Claim(SlabHeader* slab) {
  if (slab->live == 0) free_in_empty_slabs_ -= slab->free_blocks;
  ++slab->live;
}

void* NodePool::PopFree(size_t c, bool aligned) {
  // handout: NodePool::PopFree -> #the-node-pool
  std::vector<void*>& lists = aligned ? free_aligned_ : free_unaligned_;
  void* object = lists[c];
  lists[c] = NextOf(object);
  if (lists[c] == nullptr) MarkEmpty(c, aligned);
  --free_[c];
  --free_objects_;
  SlabHeader* slab = SlabOf(object);
  --slab->free_blocks;
  if (slab->live == 0) --free_in_empty_slabs_;
  return object;
  // handout: end
}

void NodePool::PushFree(void* object, size_t c) {
  // handout: NodePool::PushFree -> #the-node-pool
  const bool aligned = reinterpret_cast<uintptr_t>(object) % 8 == 0;
  std::vector<void*>& lists = aligned ? free_aligned_ : free_unaligned_;
  if (lists[c] == nullptr) MarkNonEmpty(c, aligned);
  SetNext(object, lists[c]);
  lists[c] = object;
  ++free_[c];
  ++free_objects_;
  SlabHeader* slab = SlabOf(object);
  ++slab->free_blocks;
  if (slab->live == 0) ++free_in_empty_slabs_;
  // handout: end
}

// The smallest class >= `from` whose list (aligned, or either) is non-empty,
// with the list's kind in *aligned; 0 if none. A scan of 64 classes per step.
size_t NodePool::FindNonEmpty(size_t from, bool need_aligned,
                              bool* aligned) const {
  // handout: NodePool::FindNonEmpty -> #the-node-pool
  for (size_t word = from / 64; word < nonempty_aligned_.size(); ++word) {
    // Bits below `from` in its own word are masked off.
    const uint64_t below =
        word == from / 64 ? (uint64_t{1} << (from % 64)) - 1 : 0;
    const uint64_t a = nonempty_aligned_[word] & ~below;
    const uint64_t u = need_aligned ? 0 : nonempty_unaligned_[word] & ~below;
    if ((a | u) == 0) continue;
    const size_t c = word * 64 + static_cast<size_t>(__builtin_ctzll(a | u));
    *aligned = (a >> (c % 64) & 1) != 0;
    return c;
  }
  return 0;
  // handout: end
}

void* NodePool::Allocate(size_t bytes, bool align8) {
  // handout: NodePool::Allocate -> #the-node-pool
  const size_t c = ClassOf(bytes);
  assert(c < free_aligned_.size());
  const size_t rounded = c * kGranule;
  void* object =
      use_slabs_ ? AllocateFromSlabs(c, align8) : ::operator new(rounded);
  ++live_[c];
  ++live_objects_;
  live_bytes_ += rounded;
  return object;
  // handout: end
}

void* NodePool::AllocateFromSlabs(size_t c, bool align8) {
  // handout: NodePool::AllocateFromSlabs -> #the-node-pool
  const size_t rounded = c * kGranule;
  void* object;
  if (!align8 && free_unaligned_[c] != nullptr) {
    object = PopFree(c, false);
  } else if (free_aligned_[c] != nullptr) {
    object = PopFree(c, true);
  } else {
    // No block of this class: split the smallest larger free block that
    // leaves a usable rest (>= 8 bytes, the smallest class), so the blocks
    // copy on write frees in odd sizes are reused before the slab grows.
    bool aligned = false;
    const size_t d = FindNonEmpty(c + 2, align8, &aligned);
    if (d != 0) {
      object = PopFree(d, aligned);
      PushFree(static_cast<char*>(object) + rounded, d - c);
    } else {
      const size_t gap =
          align8 && reinterpret_cast<uintptr_t>(cursor_) % 8 != 0 ? 4 : 0;
      // The tail of a used-up slab (< one object) is simply left unused.
      if (static_cast<size_t>(slab_end_ - cursor_) < rounded + gap) {
        NewSlab();  // its first object is 8-aligned: no gap needed
      } else {
        cursor_ += gap;
        gap_bytes_ += gap;
      }
      object = cursor_;
      cursor_ += rounded;
    }
  }
  Claim(SlabOf(object));
  return object;
  // handout: end
}

void NodePool::Free(void* object, size_t bytes) {
  // handout: NodePool::Free -> #the-node-pool
  const size_t c = ClassOf(bytes);
  assert(live_[c] > 0);
  --live_[c];
  --live_objects_;
  live_bytes_ -= c * kGranule;
  if (!use_slabs_) {
    ::operator delete(object);
    return;
  }
  PushFree(object, c);
  SlabHeader* slab = SlabOf(object);
  if (--slab->live == 0) {
    free_in_empty_slabs_ += slab->free_blocks;
    // Half of the free blocks are in empty slabs: the walk pays for itself.
    if (2 * free_in_empty_slabs_ >= free_objects_) ReleaseEmptySlabs();
  }
  // handout: end
}

uint64_t NodePool::DropBlocksOfEmptySlabs(void** head) {
  uint64_t dropped = 0;
  void* last_kept = nullptr;
  for (void* block = *head; block != nullptr;) {
    void* next = NextOf(block);
    if (SlabOf(block)->live == 0) {
      ++dropped;
    } else {
      if (last_kept == nullptr) {
        *head = block;
      } else {
        SetNext(last_kept, block);
      }
      last_kept = block;
    }
    block = next;
  }
  if (last_kept == nullptr) {
    *head = nullptr;
  } else {
    SetNext(last_kept, nullptr);
  }
  return dropped;
}

void NodePool::ReleaseEmptySlabs() {
  if (free_in_empty_slabs_ == 0) return;  // no empty slab holds a block
  for (size_t c = 0; c < free_aligned_.size(); ++c) {
    const uint64_t dropped = DropBlocksOfEmptySlabs(&free_aligned_[c]) +
                             DropBlocksOfEmptySlabs(&free_unaligned_[c]);
    free_[c] -= dropped;
    free_objects_ -= dropped;
    if (free_aligned_[c] == nullptr) MarkEmpty(c, true);
    if (free_unaligned_[c] == nullptr) MarkEmpty(c, false);
  }
  // The slab the bump pointer is in is kept and starts over.
  char* current = slab_end_ == nullptr ? nullptr : slab_end_ - kSlabBytes;
  size_t kept = 0;
  for (char* slab : slabs_) {
    SlabHeader* header = reinterpret_cast<SlabHeader*>(slab);
    if (header->live != 0) {
      slabs_[kept++] = slab;
    } else if (slab == current) {
      header->free_blocks = 0;
      cursor_ = slab + kHeaderBytes;
      slabs_[kept++] = slab;
    } else {
      munmap(slab, kSlabBytes);
      ++slabs_released_;
    }
  }
  slabs_.resize(kept);
  free_in_empty_slabs_ = 0;
}

size_t NodePool::BytesReserved() const {
  const size_t tables =
      (free_aligned_.capacity() + free_unaligned_.capacity()) * sizeof(void*) +
      (live_.capacity() + free_.capacity() + nonempty_aligned_.capacity() +
       nonempty_unaligned_.capacity()) *
          sizeof(uint64_t) +
      slabs_.capacity() * sizeof(char*);
  if (!use_slabs_) return live_bytes_ + tables;
  return slabs_.size() * kSlabBytes + tables;
}

std::vector<NodePool::ClassStats> NodePool::Classes() const {
  std::vector<ClassStats> out;
  for (size_t c = 0; c < live_.size(); ++c) {
    if (live_[c] != 0 || free_[c] != 0) {
      out.push_back({c * kGranule, live_[c], free_[c]});
    }
  }
  return out;
}

std::string NodePool::Where(const void* object) const {
  if (!use_slabs_) return "heap";
  const char* slab = reinterpret_cast<const char*>(SlabOf(object));
  size_t index = 0;
  while (index < slabs_.size() && slabs_[index] != slab) ++index;
  return absl::StrCat("slab ", index, " +0x",
                      absl::Hex(reinterpret_cast<const char*>(object) - slab));
}

std::vector<NodePool::FreeList> NodePool::FreeLists(size_t max_shown) const {
  std::vector<FreeList> out;
  if (!use_slabs_) return out;
  for (size_t c = 0; c < free_.size(); ++c) {
    for (bool aligned : {true, false}) {
      void* block = (aligned ? free_aligned_ : free_unaligned_)[c];
      if (block == nullptr) continue;
      FreeList list{c * kGranule, aligned, 0, {}};
      for (; block != nullptr; block = NextOf(block)) {
        ++list.blocks;
        if (list.first.size() < max_shown) list.first.push_back(Where(block));
      }
      out.push_back(std::move(list));
    }
  }
  return out;
}

std::string NodePool::DebugString() const {
  std::string out = absl::StrCat(
      "pool: ", use_slabs_ ? "slabs" : "malloc", ", ", slabs_.size(),
      " slabs of ", kSlabBytes, " B (", slabs_released_, " released), ",
      BytesReserved(), " B reserved, ", live_bytes_, " B live in ",
      live_objects_, " objects, ", free_objects_, " free objects, ", gap_bytes_,
      " B alignment gaps\n");
  for (const ClassStats& s : Classes()) {
    absl::StrAppend(&out, "  class ", s.object_bytes, " B: live ", s.live,
                    ", free ", s.free, "\n");
  }
  return out;
}

}  // namespace kvlab::stage4
