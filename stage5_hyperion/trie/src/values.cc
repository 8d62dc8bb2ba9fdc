// Values: inline in the node up to options_.inline_value bytes, otherwise in
// a chunk of their own (node.h describes both encodings).

#include <cstring>

#include "hyperion_trie.h"
#include "write.h"

namespace kvlab::stage5 {

using hyperion::IsExternal;

void TrieWrite::EncodeValue(std::string_view value, EncodedValue* out) {
  out->size = 0;
  if (value.empty()) return;
  if (value.size() <= options_.inline_value) {
    out->bytes[0] = uint8_t(value.size());
    std::memcpy(out->bytes + 1, value.data(), value.size());
    out->size = uint32_t(1 + value.size());
    return;
  }
  const HyperionPointer hp = NewChunkWith(value);
  out->bytes[0] = 0;
  hp.Store(out->bytes + 1);
  out->size = hyperion::kExternalValueBytes;
}

HyperionPointer TrieWrite::NewChunkWith(std::string_view bytes) {
  const HyperionPointer hp = AllocateChunk(bytes.size());
  std::memcpy(mm_.Resolve(hp), bytes.data(), bytes.size());
  return hp;
}

std::string_view HyperionTrie::ExternalValueAt(const uint8_t* enc) const {
  const HyperionPointer hp = hyperion::ExternalValue(enc);
  return std::string_view(static_cast<const char*>(mm_.Resolve(hp)),
                          mm_.Size(hp));
}

}  // namespace kvlab::stage5
