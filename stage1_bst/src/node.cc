#include "node.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

namespace kvlab::stage1 {

void CheckRoomForOneMore(uint64_t size) {
  if (size >= kMaxPairs) {
    std::fprintf(stderr, "kvlab: stage-1 tree is full (%llu pairs)\n",
                 static_cast<unsigned long long>(size));
    std::abort();
  }
}

Node* NewNode(std::string_view key, std::string_view value, size_t* bytes) {
  const size_t node_bytes = NodeBytes(key.size(), value.size());
  void* memory = std::malloc(node_bytes);
  if (memory == nullptr) throw std::bad_alloc();
  Node* node =
      new (memory) Node{.left = nullptr,
                        .right = nullptr,
                        .size = 1,
                        .key_size = static_cast<uint32_t>(key.size()),
                        .value_size = static_cast<uint32_t>(value.size()),
                        .height = 1};
  char* bytes_out = reinterpret_cast<char*>(node + 1);
  if (!key.empty()) std::memcpy(bytes_out, key.data(), key.size());
  if (!value.empty()) {
    std::memcpy(bytes_out + key.size(), value.data(), value.size());
  }
  *bytes += node_bytes;
  return node;
}

Node* ReplaceValue(Node* node, std::string_view value, size_t* bytes) {
  if (value.size() != node->value_size) {
    const size_t old_bytes = NodeBytes(node);
    const size_t new_bytes = NodeBytes(node->key_size, value.size());
    // realloc keeps the header and the key, which come first, and may move
    // the node; Node is trivially copyable, so the moved bytes are the node.
    void* memory = std::realloc(node, new_bytes);
    if (memory == nullptr) throw std::bad_alloc();
    node = static_cast<Node*>(memory);
    node->value_size = static_cast<uint32_t>(value.size());
    *bytes = *bytes - old_bytes + new_bytes;
  }
  if (!value.empty()) {
    std::memcpy(reinterpret_cast<char*>(node + 1) + node->key_size,
                value.data(), value.size());
  }
  return node;
}

void FreeNode(Node* node, size_t* bytes) {
  *bytes -= NodeBytes(node);
  std::free(node);
}

void FreeTree(Node* root, size_t* bytes) {
  Node* node = root;
  while (node != nullptr) {
    if (node->left != nullptr) {
      // Rotate the left child up; each rotation moves one node onto the
      // right spine, so the loop ends after at most 2n steps.
      Node* left = node->left;
      node->left = left->right;
      left->right = node;
      node = left;
    } else {
      Node* right = node->right;
      FreeNode(node, bytes);
      node = right;
    }
  }
}

}  // namespace kvlab::stage1
