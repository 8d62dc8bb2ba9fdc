#include "kvlab/fuzz/program.h"

#include <algorithm>
#include <deque>
#include <iterator>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kvlab/kv_store.h"
#include "kvlab/string_view_compat.h"

namespace kvlab::fuzz {
namespace {

// Reads the input front to back; past its end every byte reads as zero.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool AtEnd() const { return pos_ >= bytes_.size(); }
  size_t pos() const { return pos_; }
  void Rewind(size_t pos) { pos_ = pos; }

  uint8_t Byte() {
    return pos_ < bytes_.size() ? static_cast<uint8_t>(bytes_[pos_++]) : 0;
  }

  std::string Bytes(size_t n) {
    const size_t available = bytes_.size() - std::min(pos_, bytes_.size());
    std::string out(
        bytes_.substr(std::min(pos_, bytes_.size()), std::min(n, available)));
    pos_ += n;
    out.resize(n, '\0');
    return out;
  }

  size_t Length() {
    const uint8_t c = Byte();
    if (c < 0xa0) return c;
    if (c < 0xe0) return kLengthEdges[(c - 0xa0) / 8] + (c % 8) - 4;
    return size_t(c - 0xe0) * 256 + Byte();
  }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : in_(bytes) {}

  Program Run() {
    Program program;
    program.store_byte = in_.Byte();
    while (!in_.AtEnd() && ops_.size() < kMaxOps) Command(/*in_repeat=*/false);
    program.ops = std::move(ops_);
    return program;
  }

 private:
  static Opcode OpcodeOf(uint8_t byte) {
    switch (byte % 16) {
      case 0:
      case 1:
      case 2:
      case 3:
      case 15:
        return Opcode::kPut;
      case 4:
      case 5:
        return Opcode::kGet;
      case 6:
      case 7:
        return Opcode::kDelete;
      case 8:
        return Opcode::kGetNth;
      case 9:
        return Opcode::kDeleteNth;
      case 10:
      case 11:
        return Opcode::kScan;
      case 12:
        return Opcode::kSize;
      case 13:
        return Opcode::kCheck;
      default:
        return Opcode::kRepeat;
    }
  }

  void Command(bool in_repeat) {
    Op op;
    switch (OpcodeOf(in_.Byte())) {
      case Opcode::kPut: {
        op.kind = Op::Kind::kPut;
        op.key = Key(0);
        op.value = PatternValue(ops_.size(), in_.Length());
        if (op.key.size() <= kMaxKeySize && op.value.size() <= kMaxValueSize) {
          if (stored_.insert(op.key).second) put_keys_.push_back(op.key);
        }
        break;
      }
      case Opcode::kGet:
        op.kind = Op::Kind::kGet;
        op.key = Key(0);
        break;
      case Opcode::kDelete:
        op.kind = Op::Kind::kDelete;
        op.key = Key(0);
        stored_.erase(op.key);
        break;
      case Opcode::kGetNth:
        op.kind = Op::Kind::kGetNth;
        op.index = Index();
        break;
      case Opcode::kDeleteNth:
        op.kind = Op::Kind::kDeleteNth;
        op.index = Index();
        if (op.index < stored_.size()) {
          stored_.erase(std::next(stored_.begin(), op.index));
        }
        break;
      case Opcode::kScan:
        op.kind = Op::Kind::kScan;
        op.key = Key(0);
        op.limit = in_.Byte();
        break;
      case Opcode::kSize:
        op.kind = Op::Kind::kSize;
        break;
      case Opcode::kCheck:
        op.kind = Op::Kind::kCheck;
        break;
      case Opcode::kRepeat: {
        const size_t times = std::max<size_t>(in_.Length(), 1);
        const size_t body = in_.pos();
        if (in_repeat) return;  // a Repeat inside a Repeat does nothing
        for (size_t i = 0; i < times && ops_.size() < kMaxOps; ++i) {
          in_.Rewind(body);
          pass_ = i;
          Command(/*in_repeat=*/true);
        }
        pass_ = 0;
        return;
      }
    }
    ops_.push_back(std::move(op));
  }

  std::string Key(int depth) {
    std::string key = KeyExpression(depth);
    if (key.size() > kMaxDecodedKey) key.resize(kMaxDecodedKey);
    if (depth == 0) {
      recent_.push_front(key);
      if (recent_.size() > kRecentKeys) recent_.pop_back();
    }
    return key;
  }

  std::string KeyExpression(int depth) {
    const uint8_t head = in_.Byte();
    const size_t p = head >> 4;
    if (depth >= kMaxKeyDepth) return "";
    switch (static_cast<KeyForm>(head & 15)) {
      case KeyForm::kLiteral:
        return in_.Bytes(in_.Byte());
      case KeyForm::kRepeat: {
        const char b = static_cast<char>(in_.Byte());
        return std::string(std::min(in_.Length(), kMaxDecodedKey), b);
      }
      case KeyForm::kConcat: {
        std::string first = Key(depth + 1);
        std::string second = Key(depth + 1);
        first.append(second, 0,
                     kMaxDecodedKey - std::min(first.size(), kMaxDecodedKey));
        return first;
      }
      case KeyForm::kPrefix: {
        const size_t n = in_.Length();
        std::string key = Key(depth + 1);
        if (key.size() > n) key.resize(n);
        return key;
      }
      case KeyForm::kDropTail: {
        const size_t n = in_.Byte();
        std::string key = Key(depth + 1);
        key.resize(key.size() - std::min(n, key.size()));
        return key;
      }
      case KeyForm::kSetByte: {
        const size_t i = in_.Length();
        const char b = static_cast<char>(in_.Byte());
        std::string key = Key(depth + 1);
        if (key.empty()) return std::string(1, b);
        key[i % key.size()] = b;
        return key;
      }
      case KeyForm::kIncrement:
        return Increment(Key(depth + 1));
      case KeyForm::kCounter: {
        const uint8_t c = in_.Byte();
        const size_t radix = c % 16 == 0 ? 256 : c % 16;
        const size_t offset = c / 16;
        return {static_cast<char>(pass_ / radix),
                static_cast<char>(offset + pass_ % radix)};
      }
      case KeyForm::kPutKey: {
        const size_t j = in_.Byte();
        if (put_keys_.empty()) return "";
        return put_keys_[j * put_keys_.size() / 256];
      }
      case KeyForm::kEmpty:
        return "";
      default:  // kRecent and the unused forms
        return p < recent_.size() ? recent_[p] : "";
    }
  }

  static std::string Increment(std::string key) {
    const size_t last = key.find_last_not_of('\xff');
    // All bytes 0xff (or none): the next key in order is one 0x00 longer.
    if (last == std::string::npos) return key.append(1, '\0');
    key[last] = static_cast<char>(static_cast<uint8_t>(key[last]) + 1);
    std::fill(key.begin() + static_cast<ptrdiff_t>(last) + 1, key.end(), '\0');
    return key;
  }

  uint64_t Index() {
    const uint8_t c = in_.Byte();
    const uint64_t s = stored_.size();
    if (c < 0xc0) return c * s / 0xc0;
    if (c < 0xe0) return uint64_t(c - 0xc0) * 256 + in_.Byte();
    if (c < 0xf0) return s + (c - 0xe0) < 8 ? 0 : s + (c - 0xe0) - 8;
    return UINT64_MAX - (c - 0xf0);
  }

  Reader in_;
  std::vector<Op> ops_;
  size_t pass_ = 0;
  std::deque<std::string> recent_;
  // The keys the program has stored by now, and every key it put, in order.
  std::set<std::string> stored_;
  std::vector<std::string> put_keys_;
};

}  // namespace

Op Op::Put(std::string key, std::string value) {
  Op op;
  op.kind = Kind::kPut;
  op.key = std::move(key);
  op.value = std::move(value);
  return op;
}

Op Op::Get(std::string key) {
  Op op;
  op.kind = Kind::kGet;
  op.key = std::move(key);
  return op;
}

Op Op::Delete(std::string key) {
  Op op;
  op.kind = Kind::kDelete;
  op.key = std::move(key);
  return op;
}

Op Op::GetNth(uint64_t index) {
  Op op;
  op.kind = Kind::kGetNth;
  op.index = index;
  return op;
}

Op Op::DeleteNth(uint64_t index) {
  Op op;
  op.kind = Kind::kDeleteNth;
  op.index = index;
  return op;
}

Op Op::Scan(std::string start, uint64_t limit) {
  Op op;
  op.kind = Kind::kScan;
  op.key = std::move(start);
  op.limit = limit;
  return op;
}

Op Op::Size() { return Op(); }

Op Op::Check() {
  Op op;
  op.kind = Kind::kCheck;
  return op;
}

Program Decode(std::string_view bytes) { return Decoder(bytes).Run(); }

std::string PatternValue(size_t serial, size_t length) {
  const std::string unit = absl::StrCat("v", serial, ":");
  std::string value;
  value.reserve(length + unit.size());
  while (value.size() < length) value += unit;
  value.resize(length);
  return value;
}

std::string ShowBytes(std::string_view bytes) {
  std::string out;
  std::string quoted;  // the pending quoted segment
  auto flush = [&] {
    if (quoted.empty()) return;
    absl::StrAppend(&out, out.empty() ? "" : " + ", "\"",
                    absl::CHexEscape(quoted), "\"");
    quoted.clear();
  };
  for (size_t i = 0; i < bytes.size();) {
    size_t run = 1;
    while (i + run < bytes.size() && bytes[i + run] == bytes[i]) ++run;
    if (run >= 8) {
      flush();
      absl::StrAppend(&out, out.empty() ? "" : " + ", "\"",
                      absl::CHexEscape(ToAbsl(bytes.substr(i, 1))), "\" x ",
                      run);
    } else {
      quoted.append(bytes.substr(i, run));
    }
    i += run;
  }
  flush();
  return out.empty() ? "\"\"" : out;
}

std::string ToString(const Op& op) {
  switch (op.kind) {
    case Op::Kind::kPut:
      return absl::StrCat("Put(", ShowBytes(op.key), ", ",
                          op.value.size() <= 16
                              ? ShowBytes(op.value)
                              : absl::StrCat(op.value.size(), " bytes \"",
                                             op.value.substr(0, 8), "...\""),
                          ")");
    case Op::Kind::kGet:
      return absl::StrCat("Get(", ShowBytes(op.key), ")");
    case Op::Kind::kDelete:
      return absl::StrCat("Delete(", ShowBytes(op.key), ")");
    case Op::Kind::kGetNth:
      return absl::StrCat("GetNth(", op.index, ")");
    case Op::Kind::kDeleteNth:
      return absl::StrCat("DeleteNth(", op.index, ")");
    case Op::Kind::kScan:
      return absl::StrCat("Scan(", ShowBytes(op.key), ", limit ",
                          op.limit == 0 ? "none" : absl::StrCat(op.limit), ")");
    case Op::Kind::kSize:
      return "Size()";
    case Op::Kind::kCheck:
      return "Check()";
  }
  return "?";
}

}  // namespace kvlab::fuzz
