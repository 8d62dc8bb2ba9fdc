#include "durable/record.h"

namespace kvlab::durable {
namespace {

void PutFixed(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i)
    out->push_back(static_cast<char>(value >> (8 * i)));
}

void PutString(std::string_view s, std::string* out) {
  uint32_t n = static_cast<uint32_t>(s.size());
  while (n >= 0x80) {
    out->push_back(static_cast<char>(n | 0x80));
    n >>= 7;
  }
  out->push_back(static_cast<char>(n));
  out->append(s);
}

bool GetFixed(std::string_view* in, int bytes, uint64_t* value) {
  if (in->size() < static_cast<size_t>(bytes)) return false;
  *value = 0;
  for (int i = 0; i < bytes; ++i) {
    *value |= uint64_t{static_cast<unsigned char>((*in)[i])} << (8 * i);
  }
  in->remove_prefix(bytes);
  return true;
}

bool GetString(std::string_view* in, std::string_view* s) {
  uint32_t n = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (in->empty()) return false;
    const auto byte = static_cast<unsigned char>(in->front());
    in->remove_prefix(1);
    n |= uint32_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      if (in->size() < n) return false;
      *s = in->substr(0, n);
      in->remove_prefix(n);
      return true;
    }
  }
  return false;
}

}  // namespace

void EncodeRecord(const Record& record, std::string* out) {
  out->clear();
  out->push_back(static_cast<char>(record.op));
  switch (record.op) {
    case Op::kPut:
      PutFixed(record.seq, 8, out);
      PutString(record.key, out);
      PutString(record.value, out);
      break;
    case Op::kDelete:
      PutFixed(record.seq, 8, out);
      PutString(record.key, out);
      break;
    case Op::kNextFile:
      PutFixed(record.file, 4, out);
      break;
    case Op::kCheckpointBegin:
      PutFixed(record.seq, 8, out);
      PutFixed(record.file, 4, out);
      PutFixed(record.offset, 8, out);
      break;
    case Op::kPair:
      PutString(record.key, out);
      PutString(record.value, out);
      break;
    case Op::kCheckpointEnd:
      PutFixed(record.count, 8, out);
      break;
  }
}

bool DecodeRecord(std::string_view payload, Record* record) {
  if (payload.empty()) return false;
  *record = Record();
  const auto op = static_cast<unsigned char>(payload.front());
  payload.remove_prefix(1);
  uint64_t file = 0;
  bool ok = false;
  switch (op) {
    case static_cast<unsigned char>(Op::kPut):
      ok = GetFixed(&payload, 8, &record->seq) &&
           GetString(&payload, &record->key) &&
           GetString(&payload, &record->value);
      break;
    case static_cast<unsigned char>(Op::kDelete):
      ok = GetFixed(&payload, 8, &record->seq) &&
           GetString(&payload, &record->key);
      break;
    case static_cast<unsigned char>(Op::kNextFile):
      ok = GetFixed(&payload, 4, &file);
      break;
    case static_cast<unsigned char>(Op::kCheckpointBegin):
      ok = GetFixed(&payload, 8, &record->seq) &&
           GetFixed(&payload, 4, &file) &&
           GetFixed(&payload, 8, &record->offset);
      break;
    case static_cast<unsigned char>(Op::kPair):
      ok = GetString(&payload, &record->key) &&
           GetString(&payload, &record->value);
      break;
    case static_cast<unsigned char>(Op::kCheckpointEnd):
      ok = GetFixed(&payload, 8, &record->count);
      break;
    default:
      return false;
  }
  record->op = static_cast<Op>(op);
  record->file = static_cast<uint32_t>(file);
  return ok && payload.empty();
}

}  // namespace kvlab::durable
