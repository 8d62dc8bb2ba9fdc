// Values: inline in the node up to options_.inline_value bytes, otherwise in
// a chunk of their own (node.h describes both encodings).

#include <cstring>

#include "hyperion_store.h"

namespace kvlab::stage5 {

using hyperion::IsExternal;

std::string HyperionStore::EncodeValue(std::string_view value) {
  std::string enc;
  if (value.empty()) return enc;
  if (value.size() <= options_.inline_value) {
    enc.push_back(char(value.size()));
    enc.append(value);
    return enc;
  }
  const HyperionPointer hp = mm_.Allocate(value.size());
  std::memcpy(mm_.Resolve(hp), value.data(), value.size());
  uint8_t bytes[hyperion::kExternalValueBytes] = {0};
  hp.Store(bytes + 1);
  enc.assign(reinterpret_cast<const char*>(bytes), sizeof(bytes));
  return enc;
}

std::string_view HyperionStore::ExternalValueAt(const uint8_t* enc) const {
  const HyperionPointer hp = hyperion::ExternalValue(enc);
  return std::string_view(static_cast<const char*>(mm_.Resolve(hp)),
                          mm_.Size(hp));
}

void HyperionStore::FreeValue(const uint8_t* enc) {
  if (IsExternal(enc)) mm_.Free(hyperion::ExternalValue(enc));
}

}  // namespace kvlab::stage5
