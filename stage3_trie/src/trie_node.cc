#include "trie_node.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace kvlab::stage3 {

void* AllocateNode(size_t size, size_t* bytes) {
  void* node = std::calloc(1, size);
  if (node == nullptr) throw std::bad_alloc();
  *bytes += size;
  return node;
}

void FreeNodeMemory(void* node, size_t size, size_t* bytes) {
  std::free(node);
  *bytes -= size;
}

void SetValue(NodeHeader* node, std::string_view value, size_t* bytes) {
  if (node->has_value && node->value_size == value.size()) {
    // Same length: overwrite in place, no allocation. (memcpy must not get
    // the null pointer of an empty value.)
    if (!value.empty()) std::memcpy(node->value, value.data(), value.size());
    return;
  }
  char* copy = nullptr;
  // An empty value needs no allocation: has_value alone records it.
  if (!value.empty()) {
    copy = static_cast<char*>(std::malloc(value.size()));
    if (copy == nullptr) throw std::bad_alloc();
    std::memcpy(copy, value.data(), value.size());
  }
  ClearValue(node, bytes);
  node->value = copy;
  node->value_size = static_cast<uint16_t>(value.size());
  node->has_value = 1;
  *bytes += value.size();
}

void ClearValue(NodeHeader* node, size_t* bytes) {
  std::free(node->value);
  *bytes -= node->value_size;
  node->value = nullptr;
  node->value_size = 0;
  node->has_value = 0;
}

void CheckRoomForOneMore(uint64_t size) {
  if (size >= kMaxPairs) {
    std::fprintf(stderr, "kvlab trie: more than %llu keys\n",
                 static_cast<unsigned long long>(kMaxPairs));
    std::abort();
  }
}

}  // namespace kvlab::stage3
