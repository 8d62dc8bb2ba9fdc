#include "kvlab/ect/slot_format.h"

#include <cassert>

#include "kvlab/coding.h"
#include "kvlab/kv_store.h"

namespace kvlab::ect {
namespace {

const uint8_t* Bytes(std::string_view s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

void PutLE16(uint16_t v, std::string* out) {
  out->push_back(static_cast<char>(v & 0xff));
  out->push_back(static_cast<char>(v >> 8));
}

void PutLE32(uint32_t v, std::string* out) {
  PutLE16(static_cast<uint16_t>(v & 0xffff), out);
  PutLE16(static_cast<uint16_t>(v >> 16), out);
}

absl::Status NotASlot(const char* why) {
  return absl::InvalidArgumentError(std::string("ect data file: ") + why);
}

}  // namespace

size_t SlotBytes(const std::vector<Pair>& pairs) {
  size_t bytes = kSlotHeaderBytes;
  for (const Pair& p : pairs) {
    bytes += kPairHeaderBytes + p.first.size() + p.second.size();
  }
  return bytes;
}

void AppendSlot(const std::vector<Pair>& pairs, size_t slot_bytes,
                std::string* out) {
  assert(!pairs.empty() && pairs.size() <= kMaxPairsPerSlot);
  const size_t start = out->size();
  PutLE16(static_cast<uint16_t>(pairs.size()), out);
  for (const Pair& p : pairs) {
    assert(p.first.size() <= kMaxKeySize && p.second.size() <= kMaxValueSize);
    PutLE16(static_cast<uint16_t>(p.first.size()), out);
    PutLE16(static_cast<uint16_t>(p.second.size()), out);
    out->append(p.first);
    out->append(p.second);
  }
  assert(out->size() - start <= slot_bytes);
  out->resize(start + slot_bytes, '\0');
}

void AppendBucketHeader(uint32_t slot_bytes, uint32_t slots, std::string* out) {
  PutLE32(slot_bytes, out);
  PutLE32(slots, out);
}

absl::Status ReadBucketHeader(std::string_view bytes, uint32_t* slot_bytes,
                              uint32_t* slots) {
  if (bytes.size() < kBucketHeaderBytes) return NotASlot("short bucket header");
  *slot_bytes = LoadLE32(Bytes(bytes));
  *slots = LoadLE32(Bytes(bytes) + 4);
  return absl::OkStatus();
}

absl::Status ForEachInSlot(
    std::string_view slot,
    absl::FunctionRef<void(std::string_view key, std::string_view value)>
        visit) {
  if (slot.size() < kSlotHeaderBytes) return NotASlot("short slot");
  const size_t pairs = LoadLE16(Bytes(slot));
  if (pairs == 0) return NotASlot("a slot without pairs");
  size_t pos = kSlotHeaderBytes;
  for (size_t i = 0; i < pairs; ++i) {
    if (slot.size() - pos < kPairHeaderBytes) return NotASlot("short pair");
    const size_t key_size = LoadLE16(Bytes(slot) + pos);
    const size_t value_size = LoadLE16(Bytes(slot) + pos + 2);
    pos += kPairHeaderBytes;
    if (key_size > kMaxKeySize || value_size > kMaxValueSize ||
        slot.size() - pos < key_size + value_size) {
      return NotASlot("a pair past its slot's end");
    }
    visit(slot.substr(pos, key_size), slot.substr(pos + key_size, value_size));
    pos += key_size + value_size;
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> FindInSlot(std::string_view slot, std::string_view key,
                                std::string* value) {
  bool found = false;
  std::string_view found_value;
  absl::Status s =
      ForEachInSlot(slot, [&](std::string_view k, std::string_view v) {
        if (!found && k == key) {
          found = true;
          found_value = v;
        }
      });
  if (!s.ok()) return s;
  if (found && value != nullptr) value->assign(found_value);
  return found;
}

}  // namespace kvlab::ect
