// ValueBlob: a value held outside a C container whose slot is one machine
// word (JudySL, JudyL, hat-trie). The slot holds a pointer to one malloc'd
// block, [uint32_t length][bytes], the smallest honest way to keep an
// arbitrary value beside such a container; the store owns the block. The
// Judy peers use it only in blob mode, once a value is not 8 bytes long
// (word_values.h); hattrie always.

#ifndef KVLAB_PEERS_VALUE_BLOB_H_
#define KVLAB_PEERS_VALUE_BLOB_H_

#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>

namespace kvlab::peers {

class ValueBlob {
 public:
  // A new block holding `value`; never null (throws std::bad_alloc).
  static void* New(std::string_view value) {
    void* blob = std::malloc(sizeof(uint32_t) + value.size());
    if (blob == nullptr) throw std::bad_alloc();
    const uint32_t length = static_cast<uint32_t>(value.size());
    std::memcpy(blob, &length, sizeof(length));
    if (!value.empty()) {
      std::memcpy(static_cast<char*>(blob) + sizeof(length), value.data(),
                  value.size());
    }
    return blob;
  }

  static void Delete(void* blob) { std::free(blob); }

  static std::string_view View(const void* blob) {
    uint32_t length;
    std::memcpy(&length, blob, sizeof(length));
    return std::string_view(static_cast<const char*>(blob) + sizeof(length),
                            length);
  }

  // The bytes malloc really set aside for `blob` (its usable size plus the
  // 8-byte chunk header glibc keeps in front of it), for MemoryUsage.
  static size_t Footprint(const void* blob) {
    return malloc_usable_size(const_cast<void*>(blob)) + sizeof(size_t);
  }

  // The word a container slot holds, and back.
  static uintptr_t ToWord(void* blob) {
    return reinterpret_cast<uintptr_t>(blob);
  }
  static void* FromWord(uintptr_t word) {
    return reinterpret_cast<void*>(word);
  }
};

}  // namespace kvlab::peers

#endif  // KVLAB_PEERS_VALUE_BLOB_H_
