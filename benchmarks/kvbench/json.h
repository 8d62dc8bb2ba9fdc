// Just enough JSON writing for kvbench's records: escaped strings and flat
// or nested objects built field by field.

#ifndef KVBENCH_JSON_H_
#define KVBENCH_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvbench {

// `bytes` as a quoted JSON string. Quotes, backslashes and control bytes are
// escaped; bytes that are not valid UTF-8 become U+FFFD, so the result is
// always valid JSON whatever a store returned.
std::string JsonString(std::string_view bytes);

// A number; NaN and infinities (which JSON lacks) become null.
std::string JsonNumber(double value);

// Builds one JSON object: {"a":1,"b":"x"}. Fields keep insertion order.
class JsonObject {
 public:
  JsonObject& Add(std::string_view key, std::string_view value);
  JsonObject& Add(std::string_view key, const char* value) {
    return Add(key, std::string_view(value));
  }
  JsonObject& Add(std::string_view key, double value);
  JsonObject& Add(std::string_view key, int value) {
    return Add(key, static_cast<int64_t>(value));
  }
  JsonObject& Add(std::string_view key, int64_t value);
  JsonObject& Add(std::string_view key, uint64_t value);
  JsonObject& AddBool(std::string_view key, bool value);
  JsonObject& AddNull(std::string_view key);
  // `json` must already be valid JSON (an object, array, ...).
  JsonObject& AddRaw(std::string_view key, std::string_view json);

  std::string Build() const { return "{" + body_ + "}"; }

 private:
  void Key(std::string_view key);
  std::string body_;
};

// [a,b,...] from already-valid JSON values.
std::string JsonArray(const std::vector<std::string>& values);

}  // namespace kvbench

#endif  // KVBENCH_JSON_H_
