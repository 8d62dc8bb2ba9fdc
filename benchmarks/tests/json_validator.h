// A strict JSON validator for the tests (RFC 8259 grammar; strings must be
// valid UTF-8 with only legal escapes). Small on purpose: the tests check
// kvbench's writer against it, not the other way round.

#ifndef KVBENCH_TESTS_JSON_VALIDATOR_H_
#define KVBENCH_TESTS_JSON_VALIDATOR_H_

#include <cctype>
#include <string_view>

namespace kvbench::testing {

class JsonValidator {
 public:
  // True if `text` is exactly one JSON value (surrounding whitespace
  // allowed).
  static bool Valid(std::string_view text) {
    JsonValidator v(text);
    v.SkipSpace();
    if (!v.Value(0)) return false;
    v.SkipSpace();
    return v.pos_ == text.size();
  }

 private:
  explicit JsonValidator(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }
  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' ||
                        Peek() == '\r')) {
      ++pos_;
    }
  }

  bool Value(int depth) {
    if (depth > 64) return false;
    switch (Peek()) {
      case '{':
        return Object(depth);
      case '[':
        return Array(depth);
      case '"':
        return String();
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return Number();
    }
  }

  bool Object(int depth) {
    Eat('{');
    SkipSpace();
    if (Eat('}')) return true;
    for (;;) {
      SkipSpace();
      if (!String()) return false;
      SkipSpace();
      if (!Eat(':')) return false;
      SkipSpace();
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (Eat('}')) return true;
      if (!Eat(',')) return false;
    }
  }

  bool Array(int depth) {
    Eat('[');
    SkipSpace();
    if (Eat(']')) return true;
    for (;;) {
      SkipSpace();
      if (!Value(depth + 1)) return false;
      SkipSpace();
      if (Eat(']')) return true;
      if (!Eat(',')) return false;
    }
  }

  bool Digits() {
    const size_t start = pos_;
    while (std::isdigit(static_cast<unsigned char>(Peek()))) ++pos_;
    return pos_ > start;
  }

  bool Number() {
    Eat('-');
    if (Eat('0')) {
      // no leading zeros
    } else if (!Digits()) {
      return false;
    }
    if (Eat('.') && !Digits()) return false;
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (!Eat('+')) Eat('-');
      if (!Digits()) return false;
    }
    return true;
  }

  bool String() {
    if (!Eat('"')) return false;
    while (!AtEnd()) {
      const unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        ++pos_;
        const char e = Peek();
        ++pos_;
        if (e == 'u') {
          for (int i = 0; i < 4; ++i, ++pos_) {
            if (!std::isxdigit(static_cast<unsigned char>(Peek()))) {
              return false;
            }
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) ==
                   std::string_view::npos) {
          return false;
        }
        continue;
      }
      if (c < 0x80) {
        ++pos_;
        continue;
      }
      int extra = c >= 0xF0 && c <= 0xF4   ? 3
                  : c >= 0xE0 && c <= 0xEF ? 2
                  : c >= 0xC2 && c <= 0xDF ? 1
                                           : -1;
      if (extra < 0) return false;
      ++pos_;
      for (int i = 0; i < extra; ++i, ++pos_) {
        if (AtEnd() || (static_cast<unsigned char>(Peek()) & 0xC0) != 0x80) {
          return false;
        }
      }
    }
    return false;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace kvbench::testing

#endif  // KVBENCH_TESTS_JSON_VALIDATOR_H_
