#include "course_output.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace kvlab::course_output {
namespace {

// Where every empty output points. Non-const only because Slice::data is a
// char*; nothing ever writes to it.
char empty_buffer[1] = {0};

}  // namespace

void SetEmpty(Slice& out) {
  out.size = 0;
  out.data = empty_buffer;
}

bool IsEmpty(const Slice& out) {
  return out.size == 0 && out.data == empty_buffer;
}

bool CopyOut(std::string_view bytes, Slice& out, Allocator allocate) {
  SetEmpty(out);
  if (bytes.size() > UINT8_MAX) return false;
  // malloc(0) may return NULL; the contract promises a non-NULL pointer.
  char* data = static_cast<char*>(allocate(bytes.empty() ? 1 : bytes.size()));
  if (data == nullptr) return false;
  std::memcpy(data, bytes.data(), bytes.size());
  out.size = static_cast<uint8_t>(bytes.size());
  out.data = data;
  return true;
}

bool CopyOutPair(std::string_view key, std::string_view value, Slice& key_out,
                 Slice& value_out, Allocator allocate) {
  SetEmpty(value_out);
  if (!CopyOut(key, key_out, allocate)) return false;
  if (!CopyOut(value, value_out, allocate)) {
    std::free(key_out.data);
    SetEmpty(key_out);
    return false;
  }
  return true;
}

}  // namespace kvlab::course_output
