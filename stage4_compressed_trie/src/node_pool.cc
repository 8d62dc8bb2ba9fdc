#include "node_pool.h"

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
}

NodePool::~NodePool() {
  for (char* slab : slabs_) std::free(slab);
}

void NodePool::NewSlab() {
  char* slab = static_cast<char*>(std::malloc(kSlabBytes));
  if (slab == nullptr) throw std::bad_alloc();
  slabs_.push_back(slab);
  cursor_ = slab;
  slab_end_ = slab + kSlabBytes;
}

void* NodePool::NextOf(void* block) {
  void* next;
  std::memcpy(&next, block, sizeof(next));
  return next;
}

void NodePool::SetNext(void* block, void* next) {
  std::memcpy(block, &next, sizeof(next));
}

void* NodePool::Allocate(size_t bytes, bool align8) {
  const size_t c = ClassOf(bytes);
  assert(c < free_aligned_.size());
  const size_t rounded = c * kGranule;
  void* object;
  std::vector<void*>* list = nullptr;
  if (use_slabs_) {
    if (!align8 && free_unaligned_[c] != nullptr) {
      list = &free_unaligned_;
    } else if (free_aligned_[c] != nullptr) {
      list = &free_aligned_;
    }
  }
  if (!use_slabs_) {
    object = ::operator new(rounded);
  } else if (list != nullptr) {
    object = (*list)[c];
    (*list)[c] = NextOf(object);
    --free_[c];
    --free_objects_;
  } else {
    const size_t gap =
        align8 && reinterpret_cast<uintptr_t>(cursor_) % 8 != 0 ? 4 : 0;
    // The tail of a used-up slab (< one object) is simply left unused.
    if (static_cast<size_t>(slab_end_ - cursor_) < rounded + gap) {
      NewSlab();  // slabs are 16-byte aligned: no gap needed
    } else {
      cursor_ += gap;
      gap_bytes_ += gap;
    }
    object = cursor_;
    cursor_ += rounded;
  }
  ++live_[c];
  ++live_objects_;
  live_bytes_ += rounded;
  return object;
}

void NodePool::Free(void* object, size_t bytes) {
  const size_t c = ClassOf(bytes);
  assert(live_[c] > 0);
  --live_[c];
  --live_objects_;
  live_bytes_ -= c * kGranule;
  if (!use_slabs_) {
    ::operator delete(object);
    return;
  }
  std::vector<void*>& lists = reinterpret_cast<uintptr_t>(object) % 8 == 0
                                  ? free_aligned_
                                  : free_unaligned_;
  SetNext(object, lists[c]);
  lists[c] = object;
  ++free_[c];
  ++free_objects_;
}

size_t NodePool::BytesReserved() const {
  const size_t tables =
      (free_aligned_.capacity() + free_unaligned_.capacity()) * sizeof(void*) +
      (live_.capacity() + free_.capacity()) * sizeof(uint64_t) +
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

std::string NodePool::DebugString() const {
  std::string out = absl::StrCat(
      "pool: ", use_slabs_ ? "slabs" : "malloc", ", ", slabs_.size(),
      " slabs of ", kSlabBytes, " B, ", BytesReserved(), " B reserved, ",
      live_bytes_, " B live in ", live_objects_, " objects, ", free_objects_,
      " free objects, ", gap_bytes_, " B alignment gaps\n");
  for (const ClassStats& s : Classes()) {
    absl::StrAppend(&out, "  class ", s.object_bytes, " B: live ", s.live,
                    ", free ", s.free, "\n");
  }
  return out;
}

}  // namespace kvlab::stage4
